import { useState } from 'react';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { decisionReasonField } from '@strongroom/contracts/staff.ts';
import type { HeldTransfer } from '@strongroom/contracts/staff-payments.ts';
import { Button } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { MoneyAmount } from '../../../components/ui/money-amount.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { Table } from '../../../components/ui/table.tsx';
import { TextAreaField } from '../../../components/ui/text-field.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useStaffMe } from '../api/staff-session.ts';
import { useHeldTransferDecision, useHeldTransfers } from './held-transfers-api.ts';
import { waitingFor } from './waiting-for.ts';
import { OutcomeDialog } from '../outcome-dialog.tsx';
import { statusWords } from '../status-words.ts';
import { QueueContent } from '../queue-content.tsx';
import './held-transfers-page.css';

type Decision = 'release' | 'reject';

/** Who may be second (decision 050): the server refuses an approver linked to the first by grants of back-office access. */
const independentApprovers =
  "Neither approver may have granted the other's back-office access, directly or through others, and no one person may have granted both.";

/** The four-eyes state in words: who approved first, and who may complete it. */
function fourEyesText(transfer: HeldTransfer, myEmail: string | undefined): string | null {
  if (!transfer.fourEyes.required) return null;
  const [first] = transfer.fourEyes.approvals;
  if (!first) return `A release needs two independent staff members (${formatMoney(transfer.fourEyes.thresholdCents)} or more). ${independentApprovers}`;
  const who = first.email === myEmail ? 'you' : first.email;
  return `Awaiting a second approval by someone other than ${who} (first approved ${formatDateTime(first.approvedAt)}). ${independentApprovers}`;
}

interface DecisionDialogProps {
  transfer: HeldTransfer;
  decision: Decision;
  onClose: () => void;
  /** The transfer as the decision left it (a decided one leaves the queue; the page keeps showing it). */
  onDecided: (transfer: HeldTransfer) => void;
}

function DecisionDialog({ transfer, decision, onClose, onDecided }: DecisionDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [outcome, setOutcome] = useState<string | undefined>();
  const decide = useHeldTransferDecision();
  const verb = decision === 'release' ? 'Release' : 'Reject';

  async function confirm() {
    const checked = decisionReasonField.safeParse(reason);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'Give a reason');
      return;
    }
    setError(undefined);
    try {
      const answer = await decide.mutateAsync({ id: transfer.id, body: { decision, reason: checked.data } });
      onDecided(answer.transfer);
      setOutcome(
        answer.status === 'awaiting_second_approval'
          ? 'Your approval is recorded. Awaiting a second approval by someone other than you.'
          : answer.status === 'released'
            ? 'The transfer was released.'
            : 'The transfer was rejected and the money given back.',
      );
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The decision failed');
    }
  }

  return (
    <OutcomeDialog
      title={`${verb} ${formatMoney(transfer.amountCents)} to ${transfer.payee.name}?`}
      description="This cannot be undone. The customer is told, and the decision is audited with your reason."
      outcome={outcome}
      confirmLabel={verb}
      confirmVariant={decision === 'reject' ? 'danger' : 'primary'}
      busy={decide.isPending}
      onConfirm={() => void confirm()}
      onClose={onClose}
    >
      <TextAreaField label="Reason" value={reason} onChange={(event) => setReason(event.target.value)} error={error} maxLength={500} rows={3} required />
    </OutcomeDialog>
  );
}

function TransferDetail({
  transfer,
  myEmail,
  onDecided,
}: {
  transfer: HeldTransfer;
  myEmail: string | undefined;
  onDecided: (transfer: HeldTransfer) => void;
}) {
  const [decision, setDecision] = useState<Decision | null>(null);
  const fourEyes = fourEyesText(transfer, myEmail);
  const approvedByMe = transfer.fourEyes.approvals.some((approval) => approval.email === myEmail);
  return (
    <section aria-labelledby="held-transfer-detail" className="held-transfer-detail">
      <h2 id="held-transfer-detail">
        <MoneyAmount cents={transfer.amountCents} /> to {transfer.payee.name}
      </h2>
      <dl>
        <dt>Customer</dt>
        <dd>
          {transfer.customer.name} ({transfer.customer.email})
        </dd>
        <dt>Payee</dt>
        <dd>
          {transfer.payee.name}
          {transfer.payee.accountLast4 ? `, account ending ${transfer.payee.accountLast4}` : ''}
          {transfer.payee.bankName ? `, ${transfer.payee.bankName}` : ''}
        </dd>
        <dt>Held by</dt>
        <dd>{transfer.rule ?? 'A review rule'}</dd>
        <dt>Message</dt>
        <dd>{transfer.message || '—'}</dd>
        <dt>Waiting since</dt>
        <dd>{formatDateTime(transfer.heldAt)}</dd>
      </dl>
      {fourEyes ? <Notice>{fourEyes}</Notice> : null}
      <Table
        caption="The customer's recent payments"
        columns={[
          { key: 'date', header: 'Date', cell: (payment) => formatDateTime(payment.createdAt) },
          { key: 'payee', header: 'Payee', cell: (payment) => payment.payee },
          { key: 'status', header: 'Status', cell: (payment) => statusWords[payment.status] },
          { key: 'amount', header: 'Amount', numeric: true, cell: (payment) => <MoneyAmount cents={payment.amountCents} /> },
        ]}
        rows={transfer.recentPayments}
        rowKey={(payment) => payment.id}
      />
      {transfer.status === 'in_review' ? (
        <div className="held-transfer-detail__actions">
          <Button onClick={() => setDecision('release')} disabled={approvedByMe}>
            {transfer.fourEyes.required && transfer.fourEyes.approvals.length === 0 ? 'Approve release (first of two)' : 'Release'}
          </Button>
          <Button variant="danger" onClick={() => setDecision('reject')}>
            Reject
          </Button>
        </div>
      ) : null}
      {decision ? <DecisionDialog transfer={transfer} decision={decision} onClose={() => setDecision(null)} onDecided={onDecided} /> : null}
    </section>
  );
}

/** The queue of transfers held for review (`transfers.review`), oldest first. */
export default function HeldTransfersPage() {
  const held = useHeldTransfers('in_review');
  const items = held.data?.pages.flatMap((page) => page.items) ?? [];
  const total = held.data?.pages[0]?.total ?? 0;
  const me = useStaffMe();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [decided, setDecided] = useState<HeldTransfer | null>(null);
  const listed = items.find((item) => item.id === selectedId);
  // A decided transfer leaves the queue; its detail stays open with the decision's answer.
  const selected = decided?.id === selectedId && (!listed || decided.status !== 'in_review') ? decided : listed;
  return (
    <section aria-labelledby="held-transfers-title">
      <h1 id="held-transfers-title">Held transfers</h1>
      <QueueContent
        query={held}
        failedTitle="We could not load the held transfers"
        isEmpty={items.length === 0}
        empty={<EmptyState title="No transfers wait for review" />}
      >
        {() => (
          <>
            <p>
              {total} waiting for review, oldest first{held.hasNextPage ? ` (the first ${items.length} shown)` : ''}.
            </p>
            <Table
              caption="Transfers held for review"
              captionHidden
              columns={[
                { key: 'customer', header: 'Customer', cell: (item) => item.customer.name },
                { key: 'payee', header: 'Payee', cell: (item) => item.payee.name },
                { key: 'amount', header: 'Amount', numeric: true, cell: (item) => <MoneyAmount cents={item.amountCents} /> },
                { key: 'rule', header: 'Rule', cell: (item) => item.rule ?? '—' },
                { key: 'waiting', header: 'Waiting for', cell: (item) => waitingFor(item.heldAt) },
                {
                  key: 'state',
                  header: 'Four eyes',
                  cell: (item) =>
                    !item.fourEyes.required ? 'One approval' : item.fourEyes.approvals.length > 0 ? 'Awaiting second approval' : 'Two approvals',
                },
                {
                  key: 'open',
                  header: <span className="visually-hidden">Open</span>,
                  cell: (item) => (
                    <Button
                      size="sm"
                      variant="secondary"
                      onClick={() => setSelectedId(item.id)}
                      aria-label={`Review ${formatMoney(item.amountCents)} to ${item.payee.name}`}
                    >
                      Review
                    </Button>
                  ),
                },
              ]}
              rows={items}
              rowKey={(item) => item.id}
            />
          </>
        )}
      </QueueContent>
      {selected ? <TransferDetail key={selected.id} transfer={selected} myEmail={me.data?.staff.email} onDecided={setDecided} /> : null}
    </section>
  );
}
