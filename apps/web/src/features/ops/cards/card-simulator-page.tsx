import { useState, type FormEvent } from 'react';
import { Zap } from 'lucide-react';
import {
  cardNetworkLabels,
  cardTypeLabels,
  declineReasonLabels,
  merchantCategories,
  mccField,
  type CardTransaction,
  type StaffCard,
} from '@strongroom/contracts/cards.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { parseDollarsToCents } from '@strongroom/contracts/money-input.ts';
import { decisionReasonField } from '@strongroom/contracts/staff.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { MoneyAmount } from '../../../components/ui/money-amount.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useBankIdentity } from '../../../lib/bank-identity.ts';
import { formatDate, formatDateTime } from '../../../lib/dates.ts';
import { useCardAuthorizations, useSettleAuthorization, useSimulateAuthorization, useStaffCards } from './cards-api.ts';
import './ops-cards.css';

const mccOptions = Object.entries(merchantCategories).map(([mcc, category]) => ({ value: mcc, label: `${mcc} · ${category}` }));
const defaultReason = 'Sandbox test of the card network';

function cardOptionLabel(card: StaffCard): string {
  const frozen = card.status === 'frozen' ? ' (frozen)' : '';
  return `${card.customerName} · ${cardTypeLabels[card.type]} ${cardNetworkLabels[card.network]} •••• ${card.last4 ?? '----'}${frozen}`;
}

function statusText(item: CardTransaction): string {
  switch (item.status) {
    case 'pending':
      return item.releasesAt ? `Pending - releases on ${formatDate(item.releasesAt)}` : 'Pending';
    case 'cleared':
      return item.clearedCents !== null && item.clearedCents !== item.amountCents ? `Cleared ${formatMoney(item.clearedCents)}` : 'Cleared';
    case 'reversed':
      return 'Reversed';
    case 'expired':
      return 'Hold released';
    case 'declined':
      return item.declineReason ? `Declined: ${declineReasonLabels[item.declineReason]}` : 'Declined';
  }
}

function ClearDialog({ item, cardId, reason, onClose }: { item: CardTransaction; cardId: string; reason: string; onClose: () => void }) {
  const settle = useSettleAuthorization();
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | undefined>();
  async function confirm() {
    let amountCents: number | undefined;
    if (amount.trim() !== '') {
      const parsed = parseDollarsToCents(amount);
      if (!parsed.ok || parsed.cents > item.amountCents) {
        setError(`Give an amount up to ${formatMoney(item.amountCents)}, or leave it empty to clear it all`);
        return;
      }
      amountCents = parsed.cents;
    }
    try {
      await settle.mutateAsync({ id: item.id, cardId, action: 'clear', reason, ...(amountCents !== undefined ? { amountCents } : {}) });
      onClose();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The clearing failed');
    }
  }
  return (
    <Dialog
      open
      onClose={onClose}
      dismissible={!settle.isPending}
      title={`Clear ${formatMoney(item.amountCents)} at ${item.merchantName}?`}
      description="Clearing posts the hold: the money leaves the card's account for good. It can be for less than was authorised."
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={settle.isPending}>
            Cancel
          </Button>
          <Button loading={settle.isPending} onClick={() => void confirm()}>
            Clear
          </Button>
        </>
      }
    >
      <TextField
        label="Amount to clear"
        optional
        inputMode="decimal"
        autoComplete="off"
        hint={`Up to ${formatMoney(item.amountCents)}; empty clears the whole amount`}
        value={amount}
        error={error}
        onChange={(event) => setAmount(event.target.value)}
      />
    </Dialog>
  );
}

function Authorizations({ cardId, reason }: { cardId: string; reason: string }) {
  const authorizations = useCardAuthorizations(cardId);
  const settle = useSettleAuthorization();
  const [clearing, setClearing] = useState<CardTransaction | null>(null);
  const [reversing, setReversing] = useState<CardTransaction | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function reverse(item: CardTransaction) {
    setError(null);
    try {
      await settle.mutateAsync({ id: item.id, cardId, action: 'reverse', reason });
      setReversing(null);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The reversal failed');
    }
  }

  if (authorizations.isPending) return <Spinner />;
  if (authorizations.isError) return <LoadFailed title="We could not load the card's authorisations" headingLevel={3} query={authorizations} />;
  if (authorizations.data.length === 0) return <EmptyState title="No authorisations on this card yet" headingLevel={3} />;

  const columns: readonly TableColumn<CardTransaction>[] = [
    { key: 'when', header: 'When', cell: (item) => formatDateTime(item.createdAt) },
    {
      key: 'merchant',
      header: 'Merchant',
      cell: (item) => (
        <>
          {item.merchantName}
          <div className="ops-cards__secondary">
            {item.mcc} · {item.category}
          </div>
        </>
      ),
    },
    { key: 'amount', header: 'Amount', numeric: true, cell: (item) => <MoneyAmount cents={item.amountCents} /> },
    { key: 'status', header: 'Status', cell: (item) => <span className={`ops-cards__status ops-cards__status--${item.status}`}>{statusText(item)}</span> },
    {
      key: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      cell: (item) =>
        item.status === 'pending' ? (
          <div className="ops-cards__actions">
            <Button size="sm" onClick={() => setClearing(item)} aria-label={`Clear ${formatMoney(item.amountCents)} at ${item.merchantName}`}>
              Clear
            </Button>
            <Button
              size="sm"
              variant="secondary"
              onClick={() => setReversing(item)}
              aria-label={`Reverse ${formatMoney(item.amountCents)} at ${item.merchantName}`}
            >
              Reverse
            </Button>
          </div>
        ) : null,
    },
  ];
  return (
    <>
      {error ? (
        <Notice tone="error" role="alert">
          {error}
        </Notice>
      ) : null}
      <Table caption="The card's authorisations" captionHidden columns={columns} rows={authorizations.data} rowKey={(item) => item.id} />
      {clearing ? <ClearDialog item={clearing} cardId={cardId} reason={reason} onClose={() => setClearing(null)} /> : null}
      {reversing ? (
        <Dialog
          open
          onClose={() => setReversing(null)}
          dismissible={!settle.isPending}
          title={`Reverse ${formatMoney(reversing.amountCents)} at ${reversing.merchantName}?`}
          description="Reversing releases the hold: the money stays with the customer. It cannot be cleared afterwards."
          footer={
            <>
              <Button variant="secondary" onClick={() => setReversing(null)} disabled={settle.isPending}>
                Cancel
              </Button>
              <Button variant="danger" loading={settle.isPending} onClick={() => void reverse(reversing)}>
                Reverse
              </Button>
            </>
          }
        />
      ) : null}
    </>
  );
}

function AuthorizationForm({ card, reason }: { card: StaffCard; reason: string }) {
  const simulate = useSimulateAuthorization();
  const [amount, setAmount] = useState('');
  const [merchantName, setMerchantName] = useState('');
  const [mcc, setMcc] = useState('5411');
  const [errors, setErrors] = useState<{ amount?: string; merchantName?: string; mcc?: string }>({});
  const [answer, setAnswer] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setAnswer(null);
    const parsed = parseDollarsToCents(amount);
    const next: typeof errors = {};
    if (!parsed.ok) next.amount = 'Give an amount in dollars, such as 25.00';
    if (merchantName.trim() === '') next.merchantName = 'Give the merchant’s name';
    if (!mccField.safeParse(mcc).success) next.mcc = 'A merchant category code is four digits';
    setErrors(next);
    if (!parsed.ok || Object.keys(next).length > 0) return;
    try {
      const authorization = await simulate.mutateAsync({ cardId: card.id, amountCents: parsed.cents, merchantName: merchantName.trim(), mcc, reason });
      setAnswer(
        authorization.status === 'approved'
          ? { tone: 'success', text: `Approved: ${formatMoney(parsed.cents)} held at ${merchantName.trim()}.` }
          : { tone: 'error', text: `Declined: ${authorization.declineReason ? declineReasonLabels[authorization.declineReason] : 'no reason given'}.` },
      );
    } catch (failure) {
      setAnswer({ tone: 'error', text: failure instanceof Error ? failure.message : 'The authorisation could not be sent' });
    }
  }

  return (
    <form className="ops-cards__form" noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Fire an authorisation">
      <TextField
        label="Amount"
        inputMode="decimal"
        autoComplete="off"
        hint="In dollars"
        required
        value={amount}
        error={errors.amount}
        onChange={(event) => setAmount(event.target.value)}
      />
      <TextField
        label="Merchant"
        autoComplete="off"
        required
        maxLength={80}
        value={merchantName}
        error={errors.merchantName}
        onChange={(event) => setMerchantName(event.target.value)}
      />
      <SelectField
        label="Merchant category (MCC)"
        options={mccOptions}
        required
        value={mcc}
        error={errors.mcc}
        onChange={(event) => setMcc(event.target.value)}
      />
      <div className="ops-cards__form-actions">
        <Button type="submit" loading={simulate.isPending}>
          <Zap aria-hidden="true" size={16} /> Authorise
        </Button>
      </div>
      <div role="status" className="ops-cards__answer">
        {answer ? <Notice tone={answer.tone}>{answer.text}</Notice> : null}
      </div>
    </form>
  );
}

/**
 * The card network simulator (`payments.settle`, sandbox): fires the events a shop's terminal and
 * the network would (authorise, clear for the same or less, reverse) against an approved card, active or frozen.
 */
export default function CardSimulatorPage() {
  const { mode } = useBankIdentity();
  if (mode !== 'sandbox') {
    return (
      <section aria-labelledby="card-simulator-title" className="ops-cards">
        <h1 id="card-simulator-title">Card simulator</h1>
        <EmptyState title="The card simulator exists only in the sandbox" headingLevel={2}>
          <p>In production, purchases come from the card network itself.</p>
        </EmptyState>
      </section>
    );
  }
  return <CardSimulator />;
}

function CardSimulator() {
  // Frozen cards too: a purchase on one is how staff check that it is declined.
  const active = useStaffCards('active');
  const frozen = useStaffCards('frozen');
  const cards = active.isError ? active : frozen;
  const items = [...(active.data?.pages ?? []), ...(frozen.data?.pages ?? [])].flatMap((page) => page.items);
  const [cardId, setCardId] = useState<string | null>(null);
  const [reason, setReason] = useState(defaultReason);
  const [reasonError, setReasonError] = useState<string | undefined>();
  const selected = items.find((card) => card.id === cardId) ?? items[0] ?? null;
  const checkedReason = decisionReasonField.safeParse(reason);

  return (
    <section aria-labelledby="card-simulator-title" className="ops-cards">
      <h1 id="card-simulator-title">Card simulator</h1>
      <p>Sandbox only: purchases as a shop’s card terminal would send them. Each event is audited with the reason below.</p>
      {active.isPending || frozen.isPending ? (
        <Spinner />
      ) : cards.isError ? (
        <LoadFailed title="We could not load the cards" query={cards} />
      ) : !selected ? (
        <EmptyState title="No approved cards" headingLevel={2}>
          <p>A card appears here once it has been approved.</p>
        </EmptyState>
      ) : (
        <>
          <div className="ops-cards__setup">
            <SelectField
              label="Card"
              options={items.map((card) => ({ value: card.id, label: cardOptionLabel(card) }))}
              value={selected.id}
              onChange={(event) => setCardId(event.target.value)}
            />
            <TextField
              label="Reason"
              required
              maxLength={500}
              value={reason}
              error={reasonError}
              onChange={(event) => setReason(event.target.value)}
              onBlur={() => setReasonError(checkedReason.success ? undefined : (checkedReason.error.issues[0]?.message ?? 'Give a reason'))}
            />
          </div>
          {checkedReason.success ? (
            <>
              <AuthorizationForm key={selected.id} card={selected} reason={checkedReason.data} />
              <h2>Authorisations</h2>
              <Authorizations cardId={selected.id} reason={checkedReason.data} />
            </>
          ) : (
            <Notice>Give a reason for these events first.</Notice>
          )}
        </>
      )}
    </section>
  );
}
