import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useParams } from 'react-router';
import { SearchX } from 'lucide-react';
import type { z } from 'zod';
import { secureMessageFollowUpRequestSchema, type SecureMessageFollowUpRequest } from '@strongroom/contracts/secure-messages.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { ErrorDialog } from '../../components/ui/error-dialog.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { BackLink, Page, PageHeader } from '../../components/ui/page.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useBankIdentity } from '../../lib/bank-identity.ts';
import { formatDateTime, machineDateTime } from '../../lib/dates.ts';
import { showServerFieldErrors } from '../../lib/server-field-errors.ts';
import { useSecureThread, useSendFollowUp } from './messages-api.ts';
import { MessageTextField } from './message-text-field.tsx';
import { ThreadStatus } from './thread-status.tsx';
import './messages.css';

function FollowUpForm({ threadId, answered }: { threadId: string; answered: boolean }) {
  const send = useSendFollowUp(threadId);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<SecureMessageFollowUpRequest, unknown, z.output<typeof secureMessageFollowUpRequestSchema>>({
    resolver: zodResolver(secureMessageFollowUpRequestSchema),
    mode: 'onSubmit',
    defaultValues: { text: '' },
  });
  const onSubmit = handleSubmit((values) => {
    send.mutate(values.text, {
      onSuccess: () => reset({ text: '' }),
      onError: (error) => {
        if (!showServerFieldErrors(error, ['text'], setError)) setDialogError(error.message);
      },
    });
  });
  return (
    <form className="secure-messages__form" noValidate onSubmit={onSubmit} aria-label="Reply">
      <MessageTextField label={answered ? 'Reply to support' : 'Add to your message'} rows={4} error={errors.text?.message} {...register('text')} />
      <div className="secure-messages__actions">
        <Button type="submit" loading={send.isPending}>
          Send
        </Button>
      </div>
      <ErrorDialog title="Your reply was not sent" message={dialogError} onClose={() => setDialogError(null)} />
    </form>
  );
}

/** /messages/{id}: one thread, both sides in order, and a box to write more. */
export default function ThreadPage() {
  const { id = '' } = useParams();
  const { name: bankName } = useBankIdentity();
  const thread = useSecureThread(id);
  const back = <BackLink to="/messages">Messages</BackLink>;

  if (thread.isPending) {
    return (
      <Page className="secure-messages">
        {back}
        <LoadingLine>Loading the message…</LoadingLine>
      </Page>
    );
  }
  if (thread.isError) {
    const missing = thread.error instanceof ApiError && thread.error.code === 'not_found';
    return (
      <Page className="secure-messages">
        <PageMeta title="Message" description="A secure message with our support team." noIndex />
        {back}
        {missing ? (
          <EmptyState icon={<SearchX aria-hidden="true" size={28} />} title="This message was not found" headingLevel={1}>
            <p>It may have been opened from an old link. Your messages are listed on the Messages page.</p>
          </EmptyState>
        ) : (
          <LoadFailed title="We could not load this message" query={thread} headingLevel={1} />
        )}
      </Page>
    );
  }

  const current = thread.data;
  return (
    <Page className="secure-messages">
      <PageMeta title={current.subject} description="A secure message with our support team." noIndex />
      {back}
      <PageHeader title={current.subject} className="secure-thread__header">
        <p className="secure-thread-card__meta">
          <ThreadStatus status={current.status} />
          <span>
            Started <time dateTime={machineDateTime(current.createdAt)}>{formatDateTime(current.createdAt)}</time>
          </span>
        </p>
      </PageHeader>
      <ol className="secure-thread" aria-label="Conversation" aria-live="polite">
        {current.entries.map((entry) => (
          <li key={entry.id} className={`secure-thread__entry secure-thread__entry--${entry.author}`}>
            <p className="secure-thread__author">
              <strong>{entry.author === 'bank' ? `${bankName} support` : 'You'}</strong>{' '}
              <time dateTime={machineDateTime(entry.createdAt)}>{formatDateTime(entry.createdAt)}</time>
            </p>
            <p className="secure-thread__text">{entry.text}</p>
          </li>
        ))}
      </ol>
      {current.status === 'waiting' ? (
        <p className="secure-thread__waiting">We have your message and answer within 24 hours. This page shows our answer as soon as it is sent.</p>
      ) : null}
      <Card className="secure-messages__new">
        <FollowUpForm threadId={current.id} answered={current.status === 'answered'} />
      </Card>
    </Page>
  );
}
