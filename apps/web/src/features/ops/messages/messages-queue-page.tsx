import { useState } from 'react';
import { Link } from 'react-router';
import { Mail } from 'lucide-react';
import { staffMessageStatuses, staffReplyRequestSchema, type StaffMessage, type StaffMessageStatus } from '@strongroom/contracts/staff-messages.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import { TextAreaField } from '../../../components/ui/text-field.tsx';
import { formatDateTime, machineDateTime } from '../../../lib/dates.ts';
import { waitingFor } from '../identity/waiting-time.ts';
import { useReplyToMessage, useStaffMessages } from './messages-api.ts';
import { QueueContent } from '../queue-content.tsx';
import '../identity/identity.css';
import './messages.css';

const statusLabels: Record<StaffMessageStatus, string> = { open: 'Open', answered: 'Answered' };

function ReplyPanel({ message, onDone, onSent }: { message: StaffMessage; onDone: () => void; onSent: (email: string) => void }) {
  const reply = useReplyToMessage();
  const [text, setText] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const secure = message.source === 'secure_message';
  return (
    <section aria-labelledby="message-detail-title" className="ops-review">
      <h2 id="message-detail-title">{message.subject}</h2>
      <p className="ops-queue__secondary">
        {message.source === 'secure_message' ? 'Secure message from the customer ' : 'Contact form message from '}
        {message.customerId ? <Link to={`/ops/customers/${message.customerId}`}>{message.name}</Link> : message.name} &lt;{message.email}&gt;
        {message.phone ? `, ${message.phone}` : ''}, received {formatDateTime(message.receivedAt)}
      </p>
      <ol className="ops-conversation" aria-label="Conversation">
        {message.conversation.map((entry) => (
          <li key={entry.id} className={`ops-conversation__entry ops-conversation__entry--${entry.author}`}>
            <strong>
              {entry.author === 'staff' ? `Reply by ${entry.staffEmail ?? 'staff'}` : message.name}, {formatDateTime(entry.createdAt)}
            </strong>
            <span className="ops-message__text">{entry.text}</span>
          </li>
        ))}
      </ol>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const checked = staffReplyRequestSchema.safeParse({ text });
          if (!checked.success) {
            setFieldError(checked.error.issues[0]?.message);
            return;
          }
          setFieldError(undefined);
          setConfirming(true);
        }}
      >
        <TextAreaField
          label={message.status === 'answered' ? 'Follow-up reply' : 'Reply'}
          hint={secure ? "Shown in the customer's secure messages, with a notification." : 'Sent by email as plain text.'}
          rows={5}
          required
          value={text}
          error={fieldError}
          onChange={(event) => setText(event.target.value)}
        />
        <div className="ops-review__actions">
          <Button type="submit">Send reply</Button>
          <Button variant="secondary" onClick={onDone}>
            Close
          </Button>
        </div>
      </form>
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        dismissible={!reply.isPending}
        title="Send this reply?"
        description={
          secure
            ? `${message.name} sees it in their secure messages at once and gets a notification. It cannot be taken back.`
            : `It is emailed to ${message.email} and cannot be taken back.`
        }
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)} disabled={reply.isPending}>
              Cancel
            </Button>
            <Button
              loading={reply.isPending}
              onClick={() =>
                reply.mutate(
                  { id: message.id, text },
                  {
                    onSuccess: () => {
                      setConfirming(false);
                      setText('');
                      onSent(secure ? `${message.name} (secure message)` : message.email);
                    },
                  },
                )
              }
            >
              Send
            </Button>
          </>
        }
      >
        {reply.error ? <p role="alert">{reply.error.message}</p> : null}
      </Dialog>
    </section>
  );
}

/** /ops/messages: contact-form and secure messages, the longest wait first, and a reply to each. */
export default function MessagesQueuePage() {
  const [status, setStatus] = useState<StaffMessageStatus>('open');
  const [openId, setOpenId] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const messages = useStaffMessages(status);
  const rows = messages.data?.pages.flatMap((page) => page.items) ?? [];
  const selected = rows.find((message) => message.id === openId);
  const columns: readonly TableColumn<StaffMessage>[] = [
    {
      key: 'from',
      header: 'From',
      cell: (message) => (
        <>
          {message.name}
          <div className="ops-queue__secondary">{message.email}</div>
        </>
      ),
    },
    {
      key: 'subject',
      header: 'Subject',
      cell: (message) => (
        <>
          {message.subject}
          <div className="ops-queue__secondary">{message.source === 'secure_message' ? 'Secure message' : 'Contact form'}</div>
        </>
      ),
    },
    {
      key: 'received',
      header: 'Received',
      cell: (message) => <time dateTime={machineDateTime(message.receivedAt)}>{formatDateTime(message.receivedAt)}</time>,
    },
    { key: 'waiting', header: 'Waiting for', cell: (message) => (message.status === 'open' ? waitingFor(message.receivedAt) : '—') },
    { key: 'status', header: 'Status', cell: (message) => <span className={`ops-status ops-status--${message.status}`}>{statusLabels[message.status]}</span> },
    {
      key: 'action',
      header: <span className="visually-hidden">Action</span>,
      cell: (message) => (
        <Button size="sm" variant="secondary" onClick={() => setOpenId(message.id)} aria-label={`Open the message from ${message.name}: ${message.subject}`}>
          Open
        </Button>
      ),
    },
  ];
  return (
    <section aria-labelledby="messages-title" className="ops-queue">
      <div className="ops-queue__header">
        <h1 id="messages-title">Messages</h1>
        <SelectField
          label="Status"
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as StaffMessageStatus);
            setOpenId(null);
          }}
          options={staffMessageStatuses.map((value) => ({ value, label: statusLabels[value] }))}
        />
      </div>
      <QueueContent
        query={messages}
        failedTitle="The messages could not be loaded"
        isEmpty={rows.length === 0}
        empty={<EmptyState icon={<Mail aria-hidden="true" size={28} />} title={status === 'open' ? 'No messages are waiting' : 'No answered messages yet'} />}
      >
        {() => (
          <>
            <Table
              caption={`${messages.data?.pages[0]?.total ?? rows.length} ${statusLabels[status].toLowerCase()}`}
              columns={columns}
              rows={rows}
              rowKey={(message) => message.id}
            />
          </>
        )}
      </QueueContent>
      {sentTo ? <Notice role="status">Your reply to {sentTo} was sent.</Notice> : null}
      {selected ? <ReplyPanel key={selected.id} message={selected} onDone={() => setOpenId(null)} onSent={setSentTo} /> : null}
    </section>
  );
}
