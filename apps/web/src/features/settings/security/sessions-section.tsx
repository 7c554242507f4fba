import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Laptop, LogOut, MonitorSmartphone, Smartphone } from 'lucide-react';
import type { CustomerSession } from '@strongroom/contracts/security.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog.tsx';
import { SettingsSection } from '../settings-section.tsx';
import { useEndSession, useRevokeOtherSessions, useSessions } from './api/security.ts';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';

const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function formatDateTime(iso: string): string {
  return dateTimeFormat.format(new Date(iso));
}

type PendingConfirmation = { kind: 'one'; session: CustomerSession } | { kind: 'others' };

/**
 * Settings > Security > Where you're signed in: every live session of the customer, this browser
 * first, with the device and browser, the address, when it started and when it was last seen. End
 * one (after a confirmation) or every other one.
 */
export function SessionsSection() {
  const sessions = useSessions();
  const endOne = useEndSession();
  const endOthers = useRevokeOtherSessions();
  const toast = useToast();
  const navigate = useNavigate();
  const [pending, setPending] = useState<PendingConfirmation | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const others = sessions.data?.items.filter((session) => !session.current) ?? [];
  const busy = endOne.isPending || endOthers.isPending;

  function confirm() {
    if (!pending) return;
    if (pending.kind === 'one') {
      endOne.mutate(pending.session.id, {
        onSuccess: ({ current }) => {
          setPending(null);
          if (current) {
            void navigate('/login', { replace: true });
            return;
          }
          toast.show(`${pending.session.device} is signed out`);
        },
        onError: (error) => {
          setPending(null);
          setProblem(error.message);
        },
      });
      return;
    }
    endOthers.mutate(undefined, {
      onSuccess: ({ ended }) => {
        setPending(null);
        toast.show(ended === 0 ? 'No other session was open' : `Signed out of ${ended} other ${ended === 1 ? 'session' : 'sessions'}`);
      },
      onError: (error) => {
        setPending(null);
        setProblem(error.message);
      },
    });
  }

  return (
    <SettingsSection icon={MonitorSmartphone} title="Where you’re signed in">
      <p className="security-section__lead">If you see a device you do not know, end its session and change your password.</p>
      {sessions.isPending ? (
        <LoadingLine className="security-section__loading">Loading your sessions…</LoadingLine>
      ) : sessions.isError ? (
        <LoadFailed title="We could not load your sessions" headingLevel={3} query={sessions} />
      ) : (
        <>
          <ul className="session-list" aria-label="Sessions">
            {sessions.data.items.map((session) => (
              <SessionItem key={session.id} session={session} onEnd={() => setPending({ kind: 'one', session })} />
            ))}
          </ul>
          {others.length === 0 ? (
            <p className="security-section__note">You are signed in on this device only.</p>
          ) : (
            <div className="security-form__actions">
              <Button variant="secondary" onClick={() => setPending({ kind: 'others' })}>
                <LogOut aria-hidden="true" size={16} />
                Sign out everywhere else
              </Button>
            </div>
          )}
        </>
      )}
      <ConfirmDialog
        open={pending !== null}
        title={pending?.kind === 'others' ? 'Sign out everywhere else?' : 'End this session?'}
        description={
          pending?.kind === 'one' ? (
            <p>
              {pending.session.device}
              {pending.session.ip ? ` (${pending.session.ip})` : ''} will be signed out at once and needs the password to sign in again.
            </p>
          ) : (
            <p>Every other device and browser ({others.length}) will be signed out at once. This one stays signed in.</p>
          )
        }
        confirmLabel={pending?.kind === 'others' ? 'Sign out others' : 'End session'}
        busy={busy}
        onCancel={() => setPending(null)}
        onConfirm={confirm}
        confirmVariant="danger"
        size="sm"
      />
      <ErrorDialog title="The session was not ended" message={problem} onClose={() => setProblem(null)} />
    </SettingsSection>
  );
}

/** One session: the kind of device, where and when, and the way to end it unless it is this one. */
function SessionItem({ session, onEnd }: { session: CustomerSession; onEnd: () => void }) {
  return (
    <li className="session-list__item">
      {/iPhone|iPad|Android/.test(session.device) ? (
        <Smartphone aria-hidden="true" size={22} className="session-list__icon" />
      ) : (
        <Laptop aria-hidden="true" size={22} className="session-list__icon" />
      )}
      <div className="session-list__details">
        <p className="session-list__device">
          {session.device}
          {session.current ? <span className="session-list__current">This device</span> : null}
        </p>
        <p className="session-list__meta">
          {session.ip ? <>Address {session.ip} · </> : null}
          Signed in {formatDateTime(session.createdAt)} · Last seen {formatDateTime(session.lastSeenAt)}
        </p>
      </div>
      {session.current ? null : (
        <Button variant="secondary" size="sm" onClick={onEnd} aria-label={`End the session on ${session.device}`}>
          End
        </Button>
      )}
    </li>
  );
}
