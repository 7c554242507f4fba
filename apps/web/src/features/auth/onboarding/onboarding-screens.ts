import type { OnboardingStep } from '@strongroom/contracts/auth.ts';

/** The four things a new customer does, as the progress bar names them. */
export const onboardingStages = ['Email', 'Phone', 'Identity', 'Photo'] as const;

export interface OnboardingScreen {
  /** The steps (`next` from the server) at which this screen may be shown; any other is sent on. */
  steps: readonly OnboardingStep[];
  /** Index into `onboardingStages` of the stage this screen belongs to; `stages.length` when all are done. */
  stage: number;
}

/**
 * Each onboarding screen and the step it serves. A customer who opens one out of turn (a bookmark,
 * the back button) is sent to the screen of their actual step. /profilephoto also serves customers
 * who finished onboarding and want a new photo.
 */
export const onboardingScreens = {
  '/phonesignup': { steps: ['phone'], stage: 1 },
  '/phoneverification': { steps: ['phone'], stage: 1 },
  '/registeration': { steps: ['identity'], stage: 2 },
  '/profilephoto': { steps: ['profile-photo', 'dashboard'], stage: 3 },
  '/success': { steps: ['dashboard'], stage: 4 },
} as const satisfies Record<string, OnboardingScreen>;

export function onboardingScreenAt(pathname: string): OnboardingScreen | undefined {
  return Object.entries(onboardingScreens).find(([path]) => path === pathname)?.[1];
}
