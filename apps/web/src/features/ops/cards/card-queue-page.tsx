import { useState } from 'react';
import { CreditCard } from 'lucide-react';
import { cardNetworkLabels, cardRules, cardTypeLabels, type StaffCard } from '@strongroom/contracts/cards.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { parseDollarsToCents } from '@strongroom/contracts/money-input.ts';
import { decisionReasonField } from '@strongroom/contracts/staff.ts';
import { Button } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { MoneyAmount } from '../../../components/ui/money-amount.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import { TextAreaField, TextField } from '../../../components/ui/text-field.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { waitingFor } from '../held-transfers/waiting-for.ts';
import { useCardDecision, useStaffCards } from './cards-api.ts';
import { OutcomeDialog } from '../outcome-dialog.tsx';
import { QueueContent } from '../queue-content.tsx';
import './ops-cards.css';

type Decision = 'approve' | 'reject';

const creditLimitRange = `${formatMoney(cardRules.minCreditLimitCents)} to ${formatMoney(cardRules.maxCreditLimitCents)}`;

/** A credit limit typed in dollars, checked against the range staff may grant; the server checks it again. */
export function parseCreditLimit(text: string): { ok: true; cents: number } | { ok: false; message: string } {
  const parsed = parseDollarsToCents(text);
  if (!parsed.ok) return { ok: false, message: `Give a credit limit of ${creditLimitRange}` };
  const { cents } = parsed;
  if (cents < cardRules.minCreditLimitCents || cents > cardRules.maxCreditLimitCents) return { ok: false, message: `A credit limit is ${creditLimitRange}` };
  return { ok: true, cents };
}

function cardLabel(card: StaffCard): string {
  return `${cardTypeLabels[card.type]} (${cardNetworkLabels[card.network]})`;
}

function DecisionDialog({ card, decision, onClose }: { card: StaffCard; decision: Decision; onClose: () => void }) {
  const decide = useCardDecision();
  const [reason, setReason] = useState('');
  const [limit, setLimit] = useState('');
  const [errors, setErrors] = useState<{ reason?: string; limit?: string; server?: string }>({});
  const [done, setDone] = useState<string | null>(null);
  const needsLimit = decision === 'approve' && card.type === 'credit';
  const title = decision === 'approve' ? `Approve a ${cardLabel(card)} for ${card.customerName}?` : `Reject ${card.customerName}’s ${cardLabel(card)} request?`;

  async function confirm() {
    const checkedReason = decisionReasonField.safeParse(reason);
    const checkedLimit = needsLimit ? parseCreditLimit(limit) : null;
    const next: typeof errors = {};
    if (!checkedReason.success) next.reason = checkedReason.error.issues[0]?.message ?? 'Give a reason';
    if (checkedLimit && !checkedLimit.ok) next.limit = checkedLimit.message;
    setErrors(next);
    if (!checkedReason.success || (checkedLimit && !checkedLimit.ok)) return;
    try {
      await decide.mutateAsync({
        id: card.id,
        body: { decision, reason: checkedReason.data, ...(checkedLimit?.ok ? { creditLimitCents: checkedLimit.cents } : {}) },
      });
      setDone(
        decision === 'approve' ? 'The card was approved; the customer is told and can use it now.' : 'The request was rejected; the customer is told why.',
      );
    } catch (failure) {
      const fields = failure instanceof ApiError ? failure.fields : {};
      setErrors({ reason: fields.reason, limit: fields.creditLimitCents, server: failure instanceof Error ? failure.message : 'The decision failed' });
    }
  }

  return (
    <OutcomeDialog
      title={title}
      description="The decision cannot be undone. The customer is told, and it is audited with your reason."
      outcome={done}
      confirmLabel={decision === 'approve' ? 'Approve card' : 'Reject request'}
      confirmVariant={decision === 'reject' ? 'danger' : 'primary'}
      busy={decide.isPending}
      onConfirm={() => void confirm()}
      onClose={onClose}
    >
      <div className="ops-cards__dialog-fields">
        {needsLimit ? (
          <TextField
            label="Credit limit"
            inputMode="decimal"
            autoComplete="off"
            hint={`In dollars, ${creditLimitRange}`}
            required
            value={limit}
            error={errors.limit}
            onChange={(event) => setLimit(event.target.value)}
          />
        ) : null}
        <TextAreaField
          label="Reason"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          error={errors.reason}
          maxLength={500}
          rows={3}
          required
        />
        {errors.server ? (
          <p role="alert" className="ops-cards__error">
            {errors.server}
          </p>
        ) : null}
      </div>
    </OutcomeDialog>
  );
}

function Standing({ card }: { card: StaffCard }) {
  const { standing } = card;
  return (
    <ul className="ops-cards__standing">
      <li>Identity: {standing.identityStatus}</li>
      <li>
        Checking: {standing.checkingAvailableCents === null ? 'none' : <MoneyAmount cents={standing.checkingAvailableCents} />}
        {' · '}Savings: {standing.savingsAvailableCents === null ? 'none' : <MoneyAmount cents={standing.savingsAvailableCents} />}
      </li>
      <li>
        Customer since {formatDate(standing.customerSince)} · {standing.openCards} open card{standing.openCards === 1 ? '' : 's'}
      </li>
      {standing.frozen ? <li className="ops-cards__frozen">Account frozen</li> : null}
    </ul>
  );
}

/** The queue of card requests (`cards.decide`), oldest first: approve (with a credit limit for credit cards) or reject, with a reason. */
export default function CardQueuePage() {
  const cards = useStaffCards('pending_approval');
  const items = cards.data?.pages.flatMap((page) => page.items) ?? [];
  const total = cards.data?.pages[0]?.total ?? 0;
  const [open, setOpen] = useState<{ card: StaffCard; decision: Decision } | null>(null);

  const columns: readonly TableColumn<StaffCard>[] = [
    {
      key: 'customer',
      header: 'Customer',
      cell: (card) => (
        <>
          {card.customerName}
          <div className="ops-cards__secondary">{card.customerEmail}</div>
        </>
      ),
    },
    {
      key: 'card',
      header: 'Card',
      cell: (card) => (
        <>
          {cardLabel(card)}
          <div className="ops-cards__secondary">Name on card: {card.nameOnCard}</div>
        </>
      ),
    },
    { key: 'standing', header: 'Standing', cell: (card) => <Standing card={card} /> },
    { key: 'waiting', header: 'Waiting for', cell: (card) => waitingFor(card.requestedAt) },
    {
      key: 'decide',
      header: <span className="visually-hidden">Decision</span>,
      cell: (card) => (
        <div className="ops-cards__actions">
          <Button size="sm" onClick={() => setOpen({ card, decision: 'approve' })} aria-label={`Approve ${cardLabel(card)} for ${card.customerName}`}>
            Approve
          </Button>
          <Button
            size="sm"
            variant="danger"
            onClick={() => setOpen({ card, decision: 'reject' })}
            aria-label={`Reject ${cardLabel(card)} for ${card.customerName}`}
          >
            Reject
          </Button>
        </div>
      ),
    },
  ];

  return (
    <section aria-labelledby="card-queue-title" className="ops-cards">
      <h1 id="card-queue-title">Card requests</h1>
      <QueueContent
        query={cards}
        failedTitle="We could not load the card requests"
        isEmpty={items.length === 0}
        empty={<EmptyState icon={<CreditCard aria-hidden="true" size={28} />} title="No card requests wait for a decision" />}
      >
        {() => (
          <>
            <p>
              {total} waiting for a decision, oldest first{cards.hasNextPage ? ` (the first ${items.length} shown)` : ''}.
            </p>
            <Table caption="Card requests waiting for a decision" captionHidden columns={columns} rows={items} rowKey={(card) => card.id} />
          </>
        )}
      </QueueContent>
      {open ? <DecisionDialog key={`${open.card.id}-${open.decision}`} card={open.card} decision={open.decision} onClose={() => setOpen(null)} /> : null}
    </section>
  );
}
