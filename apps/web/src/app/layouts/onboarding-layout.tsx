import { Check, LogOut } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { onboardingStages } from '../../features/auth/onboarding/onboarding-screens.ts';
import { SessionIdleWatch } from '../../features/auth/session/session-idle-watch.tsx';
import { PageOutlet } from './page-outlet.tsx';
import { BrandLink } from './brand-mark.tsx';
import { useSignOut } from './use-sign-out.tsx';
import './onboarding-layout.css';

/** Where the customer is among the four stages; the current one is marked for screen readers too. */
function OnboardingProgress({ stage }: { stage: number }) {
  return (
    <ol className="onboarding-progress" aria-label="Opening your account">
      {onboardingStages.map((label, index) => {
        const state = index < stage ? 'done' : index === stage ? 'current' : 'upcoming';
        return (
          <li key={label} className={`onboarding-progress__stage onboarding-progress__stage--${state}`} aria-current={state === 'current' ? 'step' : undefined}>
            <span className="onboarding-progress__marker" aria-hidden="true">
              {state === 'done' ? <Check size={16} strokeWidth={3} /> : index + 1}
            </span>
            <span className="onboarding-progress__label">
              {label}
              {state === 'done' ? <span className="visually-hidden"> (done)</span> : null}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/**
 * The frame of the onboarding screens: the bank's name, a way to sign out and the progress through
 * the steps, without the banking menu, which needs an onboarded customer.
 */
export function OnboardingLayout({ stage }: { stage: number }) {
  const { signOut, signingOut, failedDialog } = useSignOut();

  return (
    <div className="onboarding-layout">
      <header className="onboarding-header">
        <div className="container onboarding-header__inner">
          <BrandLink to="/" className="onboarding-header__brand" />
          <Button variant="ghost" size="sm" loading={signingOut} onClick={signOut}>
            <LogOut aria-hidden="true" size={16} />
            Sign out
          </Button>
        </div>
      </header>
      <main id="main" className="onboarding-main" tabIndex={-1}>
        <div className="container">
          <OnboardingProgress stage={stage} />
        </div>
        <PageOutlet />
      </main>
      <SessionIdleWatch />
      {failedDialog}
    </div>
  );
}
