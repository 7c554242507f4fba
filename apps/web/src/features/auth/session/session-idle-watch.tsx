import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatCountdown } from '../../../lib/dates.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSecondsLeft } from '../../../lib/use-countdown.ts';
import { getMe } from '../../../lib/api/get-me.ts';
import { logout } from '../../../lib/api/logout.ts';
import type { LoginPageState } from '../../../lib/login-page-state.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** What counts as the customer being there. Moving the pointer alone does not: it also happens by accident. */
const activityEvents = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

/**
 * The server refreshes a session only when it gets a request. A customer busy on one page (reading,
 * filling a long form) sends none, so while they are active a `/me` keeps the session alive, at
 * most this often: well inside the server's 15 minutes.
 */
export const keepAliveIntervalMs = 5 * 60 * 1_000;

const { sessionIdleWarningMs, sessionIdleTimeoutMs } = businessConstants;

function refreshSession() {
  return queryClient.fetchQuery({ queryKey: queryKeys.me, queryFn: getMe, staleTime: 0 });
}

/**
 * The idle timeout of the signed-in pages (docs/product.md D2): after 13 minutes without activity a
 * dialog asks 'Still there?'; 'Stay signed in' asks `/me`, which refreshes the session on the
 * server; at 15 minutes the customer is signed out here too and sent to the sign-in screen. The
 * times are measured with the clock, not by counting, so a laptop that slept wakes up signed out.
 */
export function SessionIdleWatch() {
  const navigate = useNavigate();
  const lastActivityMs = useRef(Date.now());
  const lastKeepAliveMs = useRef(Date.now());
  const [warning, setWarning] = useState(false);
  const [staying, setStaying] = useState(false);
  const [stayError, setStayError] = useState<string | null>(null);

  const signedOut = useRef(false);

  const signOut = useCallback(
    (reason?: 'timed-out') => {
      // The timer, a keep-alive answer and a button can all get here; once is enough.
      if (signedOut.current) return;
      signedOut.current = true;
      const state: LoginPageState = reason ? { reason } : {};
      navigate('/login', { replace: true, state });
      // Ends the session on the server if it is still alive; the customer is signed out here either way.
      void logout()
        .catch(() => undefined)
        .finally(() => queryClient.clear());
    },
    [navigate],
  );

  // One timer, set for the next moment something may happen, and set again from the clock.
  useEffect(() => {
    let timer: number | undefined;
    function check() {
      const idleMs = Date.now() - lastActivityMs.current;
      if (idleMs >= sessionIdleTimeoutMs) {
        signOut('timed-out');
        return;
      }
      if (idleMs >= sessionIdleWarningMs) {
        setWarning(true);
        timer = window.setTimeout(check, sessionIdleTimeoutMs - idleMs);
        return;
      }
      timer = window.setTimeout(check, sessionIdleWarningMs - idleMs);
    }
    function onActivity() {
      // Once the question is asked, only an answer to it counts.
      if (warning) return;
      const now = Date.now();
      lastActivityMs.current = now;
      if (now - lastKeepAliveMs.current >= keepAliveIntervalMs) {
        lastKeepAliveMs.current = now;
        refreshSession().catch((error: unknown) => {
          if (error instanceof ApiError && error.code === 'unauthenticated') signOut('timed-out');
        });
      }
    }
    // A tab that was in the background may have had its timers held back.
    function onVisible() {
      if (document.visibilityState !== 'visible') return;
      window.clearTimeout(timer);
      check();
    }
    check();
    for (const name of activityEvents) window.addEventListener(name, onActivity, { passive: true, capture: true });
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.clearTimeout(timer);
      for (const name of activityEvents) window.removeEventListener(name, onActivity, { capture: true });
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [signOut, warning]);

  async function staySignedIn() {
    setStaying(true);
    setStayError(null);
    try {
      await refreshSession();
      const now = Date.now();
      lastActivityMs.current = now;
      lastKeepAliveMs.current = now;
      setWarning(false);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'unauthenticated') signOut('timed-out');
      else setStayError(error instanceof Error ? error.message : String(error));
    } finally {
      setStaying(false);
    }
  }

  return (
    <IdleWarningDialog
      open={warning}
      signOutAtMs={warning ? lastActivityMs.current + sessionIdleTimeoutMs : null}
      staying={staying}
      error={stayError}
      onStay={() => void staySignedIn()}
      onSignOut={() => signOut()}
    />
  );
}

interface IdleWarningDialogProps {
  open: boolean;
  signOutAtMs: number | null;
  staying: boolean;
  error: string | null;
  onStay: () => void;
  onSignOut: () => void;
}

function IdleWarningDialog({ open, signOutAtMs, staying, error, onStay, onSignOut }: IdleWarningDialogProps) {
  const secondsLeft = useSecondsLeft(signOutAtMs);
  return (
    <Dialog
      open={open}
      onClose={onStay}
      role="alertdialog"
      size="sm"
      title="Still there?"
      description={
        <p>
          For your security we sign you out after 15 minutes without activity. You will be signed out in{' '}
          <strong className="tabular">{formatCountdown(secondsLeft)}</strong>.
        </p>
      }
      footer={
        <>
          <Button variant="secondary" onClick={onSignOut}>
            Sign out
          </Button>
          <Button onClick={onStay} loading={staying} data-autofocus>
            Stay signed in
          </Button>
        </>
      }
    >
      {/* An alert is announced when it is added, so it need not be there in advance. */}
      {error ? (
        <div role="alert">
          <Notice tone="error">
            <p>We could not reach the bank ({error}). Try again.</p>
          </Notice>
        </div>
      ) : null}
    </Dialog>
  );
}
