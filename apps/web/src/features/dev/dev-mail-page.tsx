import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Inbox, Mail, MessageSquareText, RefreshCw, Search } from 'lucide-react';
import type { OutboxItem } from '@strongroom/contracts/outbox.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Card } from '../../components/ui/card.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { formatDateTime, machineDateTime } from '../../lib/dates.ts';
import { outboxRefreshMs, useOutbox } from './api/get-outbox.ts';
import './dev-mail-page.css';

const linkPattern = /(https?:\/\/[^\s<>"]+[^\s<>".,;:!?)])/;

/** A message's text with its web addresses as links a tester can follow (http and https only). */
export function MessageText({ text }: { text: string }) {
  const parts = text.split(linkPattern);
  return (
    <pre className="outbox-item__text">
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <a key={index} href={part} className="outbox-item__link">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </pre>
  );
}

function OutboxMessage({ item }: { item: OutboxItem }) {
  const isEmail = item.channel === 'email';
  const Icon = isEmail ? Mail : MessageSquareText;
  return (
    <Card as="article" className="outbox-item" aria-labelledby={`outbox-${item.id}`}>
      <header className="outbox-item__header">
        <Badge tone={isEmail ? 'accent' : 'success'} size="xs" strong>
          <Icon aria-hidden="true" size={16} />
          {isEmail ? 'Email' : 'SMS'}
        </Badge>
        <time dateTime={machineDateTime(item.createdAt)} className="outbox-item__time">
          {formatDateTime(item.createdAt)}
        </time>
      </header>
      <h2 id={`outbox-${item.id}`} className="outbox-item__subject">
        {item.subject || (isEmail ? '(no subject)' : 'Text message')}
      </h2>
      <p className="outbox-item__to">
        To <span>{item.to}</span>
      </p>
      <MessageText text={item.text} />
    </Card>
  );
}

/**
 * /dev/mail (sandbox only): the inbox of every email and text message the sandbox bank "sent", so
 * a tester can read verification codes and links. The server does not expose it in production.
 */
export default function DevMailPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const to = searchParams.get('to')?.trim() || undefined;
  const [draft, setDraft] = useState(to ?? '');
  const outbox = useOutbox(to);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = draft.trim();
    setSearchParams(value ? { to: value } : {});
  }

  return (
    <div className="dev-mail container">
      <PageMeta title="Sandbox inbox" description="Mail and text messages sent by the sandbox bank." noIndex />
      <header className="dev-mail__header">
        <p className="eyebrow">Sandbox</p>
        <h1>Sandbox inbox</h1>
        <p className="dev-mail__lead">
          Every email and text message this sandbox bank sends lands here instead of a real mailbox or phone. The list refreshes every {outboxRefreshMs / 1_000}{' '}
          seconds.
        </p>
      </header>

      <form className="dev-mail__filter" role="search" onSubmit={onSubmit}>
        <TextField
          label="Email address or phone number"
          hint="Leave empty to see every message. Phone numbers in international form, such as +12025550101."
          type="search"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
        <div className="dev-mail__filter-actions">
          <Button type="submit">
            <Search aria-hidden="true" size={18} />
            Show messages
          </Button>
          <Button variant="secondary" onClick={() => void outbox.refetch()} loading={outbox.isFetching && !outbox.isPending}>
            <RefreshCw aria-hidden="true" size={18} />
            Refresh
          </Button>
        </div>
      </form>

      <section aria-label="Messages" aria-busy={outbox.isPending}>
        {outbox.isPending ? (
          <p className="dev-mail__status" role="status">
            <Spinner /> Loading messages…
          </p>
        ) : outbox.isError ? (
          <EmptyState title="The inbox could not be loaded">
            <p>{outbox.error.message}</p>
          </EmptyState>
        ) : outbox.data.length === 0 ? (
          <EmptyState icon={<Inbox aria-hidden="true" size={28} />} title="No messages yet">
            <p>{to ? `Nothing has been sent to ${to} so far.` : 'The sandbox bank has not sent anything so far.'}</p>
          </EmptyState>
        ) : (
          <>
            <p className="dev-mail__count" role="status">
              {outbox.data.length === 1 ? '1 message' : `${outbox.data.length} messages`}
              {to ? ` to ${to}` : ''}, newest first
            </p>
            <div className="dev-mail__list">
              {outbox.data.map((item) => (
                <OutboxMessage key={item.id} item={item} />
              ))}
            </div>
          </>
        )}
      </section>
    </div>
  );
}
