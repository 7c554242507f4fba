import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Plug, ShieldAlert, ShieldCheck, ShieldX } from 'lucide-react';
import type { SecurityEvent } from '@strongroom/contracts/security-events.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { BackLink, Page, PageHeader } from '../../components/ui/page.tsx';
import { useToast } from '../../components/ui/toast.tsx';
import { formatDateTime, machineDateTime } from '../../lib/dates.ts';
import { queryClient } from '../../lib/query-client.ts';
import type { LoginPageState } from '../../lib/login-page-state.ts';
import { useReportNotMe, useSecurityEvents } from './security-activity-api.ts';
import './security-activity-page.css';

export const notMeDoneNotice =
  'Done: every device was signed out, money movement on your account is frozen, and your report reached our support team as a secure message. Sign in again to follow it in Messages; our team lifts the freeze once they have checked with you.';

function EventIcon({ event }: { event: SecurityEvent }) {
  if (event.outcome !== 'success') return <ShieldX aria-hidden="true" size={22} className="security-event__icon security-event__icon--failed" />;
  if (event.kind === 'report') return <ShieldAlert aria-hidden="true" size={22} className="security-event__icon security-event__icon--report" />;
  if (event.kind === 'connected_app') return <Plug aria-hidden="true" size={22} className="security-event__icon" />;
  return <ShieldCheck aria-hidden="true" size={22} className="security-event__icon" />;
}

function EventCard({ event, onNotMe }: { event: SecurityEvent; onNotMe: () => void }) {
  const titleId = `security-event-${event.id}`;
  return (
    <Card as="li" className="security-event" aria-labelledby={titleId}>
      <EventIcon event={event} />
      <div className="security-event__body">
        <h2 id={titleId} className="security-event__title">
          {event.title}
          {event.outcome !== 'success' ? (
            <Badge tone="danger" size="xs">
              {event.outcome === 'denied' ? 'Refused' : 'Failed'}
            </Badge>
          ) : null}
          {event.reported ? (
            <Badge tone="warning" size="xs">
              Reported
            </Badge>
          ) : null}
        </h2>
        <p className="security-event__meta">
          <time dateTime={machineDateTime(event.at)}>{formatDateTime(event.at)}</time>
          {event.device ? <span>{event.device}</span> : null}
          {event.ip ? <span className="tabular">{event.ip}</span> : null}
        </p>
        {event.kind === 'connected_app' ? <Link to="/settings/connected-apps">See and manage your connected apps</Link> : null}
      </div>
      {event.kind === 'report' || event.reported ? null : (
        <Button
          variant="secondary"
          size="sm"
          className="security-event__not-me"
          onClick={onNotMe}
          aria-label={`This wasn't me: ${event.title}, ${formatDateTime(event.at)}`}
        >
          This wasn’t me
        </Button>
      )}
    </Card>
  );
}

/** The events, newest first, in whichever state their query is: loading, failed, none yet, or a page at a time. */
function EventList({ events, onNotMe }: { events: ReturnType<typeof useSecurityEvents>; onNotMe: (event: SecurityEvent) => void }) {
  const items = events.data?.pages.flatMap((page) => page.items) ?? [];
  if (events.isPending) return <LoadingLine>Loading your security activity…</LoadingLine>;
  if (events.isError) return <LoadFailed title="We could not load your security activity" query={events} />;
  if (items.length === 0) {
    return (
      <EmptyState icon={<ShieldCheck aria-hidden="true" size={28} />} title="No security activity yet">
        <p>Your sign-ins and security changes will be listed here.</p>
      </EmptyState>
    );
  }
  return (
    <>
      <ul className="stack-list stack-list--tight" aria-label="Security events">
        {items.map((event) => (
          <EventCard key={event.id} event={event} onNotMe={() => onNotMe(event)} />
        ))}
      </ul>
      {events.hasNextPage ? (
        <Button variant="secondary" onClick={() => void events.fetchNextPage()} loading={events.isFetchingNextPage}>
          Load more
        </Button>
      ) : null}
    </>
  );
}

interface NotMeDialogProps {
  /** The event being reported; null when the dialog is closed. */
  event: SecurityEvent | null;
  onClose: () => void;
  /** Reported before (from another tab): the list is asked again so it shows the event reported. */
  onAlreadyReported: () => void;
}

/** "This wasn't you?": what reporting does, then the report, which signs every device out. */
function NotMeDialog({ event, onClose, onAlreadyReported }: NotMeDialogProps) {
  const report = useReportNotMe();
  const navigate = useNavigate();
  const toast = useToast();

  function cancel() {
    onClose();
    report.reset();
  }

  function confirmReport() {
    if (!event) return;
    report.mutate(event.id, {
      onSuccess: (answer) => {
        if (answer.alreadyReported) {
          // Reported before (from another tab): the session lives on, the list shows it reported.
          onClose();
          toast.show('You had already reported this event: our support team has it.');
          onAlreadyReported();
          return;
        }
        // Every session ended, this one too: nothing of the customer's stays in memory.
        queryClient.clear();
        const state: LoginPageState = { notice: notMeDoneNotice };
        navigate('/login', { replace: true, state });
      },
    });
  }

  return (
    <Dialog
      open={event !== null}
      onClose={cancel}
      dismissible={!report.isPending}
      title="This wasn’t you?"
      description={
        event ? `${event.title}, ${formatDateTime(event.at)}${event.device ? `, ${event.device}` : ''}${event.ip ? `, ${event.ip}` : ''}.` : undefined
      }
      footer={
        <>
          <Button variant="secondary" onClick={cancel} disabled={report.isPending}>
            Cancel
          </Button>
          <Button variant="danger" loading={report.isPending} onClick={confirmReport}>
            Sign out everywhere and freeze
          </Button>
        </>
      }
    >
      <p>If you go on, we do this at once:</p>
      <ul className="security-activity__consequences">
        <li>Every device signed in to your account is signed out, this one too. You can sign in again straight away.</li>
        <li>
          No money can move from your account (transfers, withdrawals, deposits and other payments) until our team has checked with you and lifts the freeze.
          You can still sign in and see everything.
        </li>
        <li>Our support team gets a secure message with this event. You will find it in Messages, and we answer it there within 24 hours.</li>
        <li>We email you to confirm what happened.</li>
      </ul>
      <p>If someone may know your password, change it after you sign in again.</p>
      {report.error ? <p role="alert">{report.error.message}</p> : null}
    </Dialog>
  );
}

/**
 * /settings/activity, "Security activity": sign-ins, failed sign-ins, codes, password and
 * second-factor changes, card reveals and new payees, newest first, and "This wasn't me" on each.
 */
export default function SecurityActivityPage() {
  const events = useSecurityEvents();
  const [reporting, setReporting] = useState<SecurityEvent | null>(null);

  return (
    <Page className="security-activity">
      <PageMeta title="Security activity" description="Sign-ins and security changes on your account." noIndex />
      <BackLink to="/settings">Settings</BackLink>
      <PageHeader
        title="Security activity"
        lead="Sign-ins, security codes, password and sign-in method changes, card numbers shown, new payees and apps you connect, newest first. If you do not recognise something, choose “This wasn’t me”."
      />
      <EventList events={events} onNotMe={setReporting} />
      <NotMeDialog event={reporting} onClose={() => setReporting(null)} onAlreadyReported={() => void events.refetch()} />
    </Page>
  );
}
