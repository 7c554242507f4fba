import { useLocation } from 'react-router';
import { onboardingScreenAt } from '../../features/auth/onboarding/onboarding-screens.ts';
import { OnboardingLayout } from '../layouts/onboarding-layout.tsx';
import { QueryProvider } from '../query-provider.tsx';
import { RouteGuard } from '../route-guard.tsx';

/**
 * The onboarding screens after email verification (phone, identity, photo, success): signed in,
 * each shown only at its own step, in a frame of their own with the progress through the steps.
 */
export default function OnboardingArea() {
  const { pathname } = useLocation();
  const screen = onboardingScreenAt(pathname);
  return (
    <QueryProvider>
      <RouteGuard steps={screen?.steps}>
        <OnboardingLayout stage={screen?.stage ?? 0} />
      </RouteGuard>
    </QueryProvider>
  );
}
