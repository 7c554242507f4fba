import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { MessagesSquare, PenLine } from 'lucide-react';
import type { SecureMessageThreadSummary } from '@strongroom/contracts/secure-messages.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { ErrorDialog } from '../../components/ui/error-dialog.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { Page, PageHeader } from '../../components/ui/page.tsx';
import { useToast } from '../../components/ui/toast.tsx';
import { formatDateTime, machineDateTime } from '../../lib/dates.ts';
import { useSecureMessages } from './messages-api.ts';
import { NewMessageForm } from './new-message-form.tsx';
import { ThreadStatus } from './thread-status.tsx';
import './messages.css';

function ThreadCard({ thread }: { thread: SecureMessageThreadSummary }) {
  return (
    <Card as="li" className="secure-thread-card">
      <h2 className="secure-thread-card__subject">
        <Link to={`/messages/${thread.id}`}>{thread.subject}</Link>
      </h2>
      <p className="secure-thread-card__preview">{thread.preview}</p>
      <p className="secure-thread-card__meta">
        <ThreadStatus status={thread.status} />
        <span>
          {thread.messageCount} {thread.messageCount === 1 ? 'message' : 'messages'}, last{' '}
          <time dateTime={machineDateTime(thread.lastActivityAt)}>{formatDateTime(thread.lastActivityAt)}</time>
        </span>
      </p>
    </Card>
  );
}

/**
 * /messages: the customer's secure messages with support (Help's 'Live chat' opens it with
 * ?new=1, the new-message form open). Support's answers arrive live with their notification.
 */
export default function MessagesPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const toast = useToast();
  const threads = useSecureMessages();
  const [writing, setWriting] = useState(searchParams.get('new') === '1');
  const [dialogError, setDialogError] = useState<string | null>(null);
  const items = threads.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Page className="secure-messages">
      <PageMeta title="Messages" description="Your secure messages with our support team." noIndex />
      <PageHeader
        title="Messages"
        lead="Write to our support team. Your messages stay inside the bank: we answer here, usually within 24 hours, and tell you with a notification."
        actions={
          writing ? null : (
            <Button onClick={() => setWriting(true)}>
              <PenLine aria-hidden="true" size={18} />
              New message
            </Button>
          )
        }
      />

      {writing ? (
        <Card className="secure-messages__new">
          <h2 className="secure-messages__new-title">New message</h2>
          <NewMessageForm
            onSent={(thread) => {
              toast.show('Message sent');
              navigate(`/messages/${thread.id}`);
            }}
            onCancel={() => setWriting(false)}
            onError={setDialogError}
          />
        </Card>
      ) : null}

      {threads.isPending ? (
        <LoadingLine>Loading your messages…</LoadingLine>
      ) : threads.isError ? (
        <LoadFailed title="We could not load your messages" query={threads} />
      ) : items.length === 0 ? (
        <EmptyState icon={<MessagesSquare aria-hidden="true" size={28} />} title="No messages yet">
          <p>Ask us anything about your accounts, cards or payments. We answer here.</p>
        </EmptyState>
      ) : (
        <>
          <ul className="stack-list" aria-label="Your messages">
            {items.map((thread) => (
              <ThreadCard key={thread.id} thread={thread} />
            ))}
          </ul>
          {threads.hasNextPage ? (
            <Button variant="secondary" onClick={() => void threads.fetchNextPage()} loading={threads.isFetchingNextPage}>
              Load more
            </Button>
          ) : null}
        </>
      )}
      <ErrorDialog title="Your message was not sent" message={dialogError} onClose={() => setDialogError(null)} />
    </Page>
  );
}
