import type { OnboardingStep } from '@strongroom/contracts/auth.ts';

/**
 * After sign-in the server says what the customer has to do next (docs/product.md D6); the web routes
 * each step to the screen the seed gave it. This is the only place that mapping lives.
 */
export function pathForNextStep(next: OnboardingStep, email: string): string {
  switch (next) {
    case 'verify-email':
      return `/verify/${encodeURIComponent(email)}`;
    case 'phone':
      return '/phonesignup';
    case 'identity':
      return '/registeration';
    case 'profile-photo':
      return '/profilephoto';
    case 'dashboard':
      return '/dashboard';
  }
}
