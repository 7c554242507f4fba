import type { ReactNode } from 'react';
import { Navigate, useNavigate } from 'react-router';
import type { OnboardingStep } from '@strongroom/contracts/auth.ts';
import { RefreshCw } from 'lucide-react';
import { Button } from '../components/ui/button.tsx';
import { EmptyState } from '../components/ui/empty-state.tsx';
import { useMe } from '../lib/api/get-me.ts';
import { LoginScreen } from '../features/auth/login-screen.tsx';
import { pathForNextStep } from '../features/auth/next-step.ts';
import { ApiError } from '../lib/api-client.ts';
import { PublicLayout } from './layouts/public-layout.tsx';
import { PageLoading } from './page-loading.tsx';

export interface RouteGuardProps {
  children: ReactNode;
  /**
   * The onboarding steps (`next`) at which these pages may be shown. A customer at another step is
   * sent to that step's screen: the banking pages need onboarding done, and each onboarding screen
   * serves its own step only.
   */
  steps?: readonly OnboardingStep[] | undefined;
  /**
   * A page anyone may read (/privacy): a visitor, or a customer still onboarding, sees it in the
   * public frame instead of the sign-in screen or their next step.
   */
  openToVisitors?: boolean;
}

/**
 * Customer pages need a live session: `GET /api/v1/me` answers 200 or 401. Without a session the
 * sign-in screen takes the page's place and the address stays as it is, so that after signing in
 * the customer is on the page they asked for.
 */
export function RouteGuard({ children, steps, openToVisitors = false }: RouteGuardProps) {
  const me = useMe();
  const navigate = useNavigate();

  if (me.isPending) return <PageLoading label="Checking your session" />;

  if (me.isError) {
    if (me.error instanceof ApiError && me.error.code === 'unauthenticated') {
      if (openToVisitors) return <PublicLayout />;
      return (
        <PublicLayout>
          <LoginScreen
            reason="signed-out"
            onSignedIn={(result, email) => {
              // Onboarding not finished: that comes first. Otherwise the fresh /me (refetched by
              // the sign-in) lets this page render where it is.
              if (result.next !== 'dashboard') navigate(pathForNextStep(result.next, email));
            }}
          />
        </PublicLayout>
      );
    }
    return (
      <PublicLayout>
        <div className="container" style={{ paddingBlock: 'var(--space-8)' }}>
          <EmptyState
            title="We could not check your session"
            headingLevel={1}
            action={
              <Button variant="secondary" onClick={() => void me.refetch()} loading={me.isFetching}>
                <RefreshCw aria-hidden="true" size={18} />
                Try again
              </Button>
            }
          >
            <p>{me.error.message}</p>
          </EmptyState>
        </div>
      </PublicLayout>
    );
  }

  const { next, user } = me.data;
  if (steps && !steps.includes(next) && openToVisitors) return <PublicLayout />;
  if (steps && !steps.includes(next)) return <Navigate to={pathForNextStep(next, user.email)} replace />;
  return children;
}
