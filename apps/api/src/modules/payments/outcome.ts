import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Config } from '../../config.ts';
import { systemClock, type Clock } from '../../db/clock.ts';
import type { Queryable } from '../../db/database.ts';
import type { CreateTransferOutcome } from '../../ledger/result-codes.ts';
import { notifyCustomers, type NewNotification } from '../../platform/notify.ts';
import { saveBeneficiaryFromPayment } from '../beneficiaries/service.ts';
import { insufficientFundsMessage, storePaymentAnswers, type PaymentAnswerClaim, type PaymentKey, type PaymentResult } from './answers.ts';
import type { PaymentExecution } from './plan.ts';
import { paymentNotificationLink, presentPayment } from './presenter.ts';
import { settlementTime } from './rail.ts';
import { findPayment, insertPayments, transitionFromCreating, type NewPayment, type PaymentChange, type PaymentRow } from './repository.ts';

export interface LedgerAnswer {
  row: PaymentRow;
  execution: PaymentExecution;
  outcome: CreateTransferOutcome;
}

/**
 * Records what the ledger answered for 'creating' payments, in the caller's transaction: their
 * status, their notifications, the favourite each asked to save and the answer a replay will give;
 * the status changes and the answers each in one statement however many payments (decision 044).
 * Only one change from 'creating' wins (transitionFromCreating), so recording twice is harmless.
 */
export async function recordPaymentOutcomes(
  tx: Queryable,
  config: Pick<Config, 'railSpeed'>,
  answers: readonly LedgerAnswer[],
  clock: Clock = systemClock,
): Promise<Array<{ result: PaymentResult; row: PaymentRow }>> {
  const now = clock.now();
  const changes = answers.map(({ row, execution, outcome }) => decidedChange(config, row, execution, outcome, now));
  const updated = await transitionFromCreating(tx, changes);
  const finished: Array<{ result: PaymentResult; row: PaymentRow; moved: boolean; execution: PaymentExecution }> = [];
  for (const [index, { row, execution }] of answers.entries()) {
    const moved = updated.get(row.id);
    const current = moved ?? (changes[index]?.status === 'failed' ? row : await findPayment(tx, row.id));
    if (!current) throw new Error(`payment ${row.id} vanished`);
    finished.push({ row: current, moved: moved !== undefined, execution, result: resultOf(current, changes[index]) });
  }
  await finishPayments(tx, finished);
  await storePaymentAnswers(
    tx,
    finished.map(({ row, result }) => ({ paymentId: row.id, result })),
  );
  return finished.map(({ result, row }) => ({ result, row }));
}

/** A new payment, its ledger transfer already made in this transaction, and the ledger's answer. */
export interface DecidedPayment {
  payment: NewPayment;
  /** Its Idempotency-Key, not claimed yet: claimed by the caller with the answer (claimPaymentAnswers). */
  key: PaymentKey;
  execution: PaymentExecution;
  outcome: CreateTransferOutcome;
}

/**
 * Writes payments whose ledger transfer was made first in the same transaction (own transfers in
 * a group, decision 044): each row is inserted once, with the status the ledger's answer decides,
 * instead of inserted as 'creating' and changed; then the same notifications and favourites as
 * recordPaymentOutcomes. Rows come back in the order given, each with the claim of its key and
 * answer, which the caller makes last, with its audit entries, in one statement (claimPaymentAnswers,
 * decision 088): IdempotencyKeyTaken if another request holds one, and the caller rolls back.
 */
export async function recordDecidedPayments(
  tx: Queryable,
  config: Pick<Config, 'railSpeed'>,
  decided: readonly DecidedPayment[],
  clock: Clock = systemClock,
): Promise<Array<{ result: PaymentResult; row: PaymentRow; claim: PaymentAnswerClaim }>> {
  const now = clock.now();
  const withChanges = decided.map((item) => ({
    ...item,
    change: decidedChange(
      config,
      { id: item.payment.id, review_rule: item.payment.reviewRule ?? null, rail: item.payment.rail ?? null },
      item.execution,
      item.outcome,
      now,
    ),
  }));
  const rows = await insertPayments(
    tx,
    withChanges.map(({ payment, change }) => ({ ...payment, decided: change })),
  );
  const finished = withChanges.map(({ execution, change, key }, index) => {
    const row = rows[index];
    if (!row) throw new Error(`payment ${change.id} was not written`);
    return { row, moved: true, execution, key, result: resultOf(row, change) };
  });
  await finishPayments(tx, finished);
  return finished.map(({ result, row, key }) => ({ result, row, claim: { paymentId: row.id, key, result } }));
}

/** The status the ledger's answer gives a payment. */
function decidedChange(
  config: Pick<Config, 'railSpeed'>,
  row: Pick<PaymentRow, 'id' | 'review_rule' | 'rail'>,
  execution: PaymentExecution,
  outcome: CreateTransferOutcome,
  now: Date,
): PaymentChange {
  if (outcome.result === 'exceeds_credits' || outcome.result === 'id_already_failed') {
    return { id: row.id, status: 'failed', settleAt: null, failureCode: outcome.result };
  }
  if (outcome.result !== 'ok' && outcome.result !== 'exists') throw new Error(`the ledger refused payment ${row.id}: ${outcome.result}`);
  const held = row.review_rule !== null;
  const status = held ? 'in_review' : execution.viaRail ? 'pending' : 'completed';
  const settleAt = status === 'pending' && row.rail ? settlementTime(row.rail, config.railSpeed, row.id, now) : null;
  return { id: row.id, status, settleAt, failureCode: null };
}

function resultOf(row: PaymentRow, change: PaymentChange | undefined): PaymentResult {
  return change?.status === 'failed' ? refused : { outcome: 'made', payment: presentPayment(row) };
}

/** Notifications and favourites of the payments this transaction moved. */
async function finishPayments(
  tx: Queryable,
  finished: ReadonlyArray<{ result: PaymentResult; row: PaymentRow; moved: boolean; execution: PaymentExecution }>,
): Promise<void> {
  const notifications: NewNotification[] = [];
  for (const { result, row, moved, execution } of finished) {
    if (!moved || result.outcome !== 'made') continue;
    notifications.push(...notificationsOfCreated(row, execution.recipientCustomerId));
    if (execution.favorite) await saveBeneficiaryFromPayment(tx, row.customer_id, execution.favorite);
  }
  // Every payment's notifications in one statement.
  await notifyCustomers(tx, notifications);
}

const refused: PaymentResult = { outcome: 'refused', refusal: { code: 'insufficient_funds', message: insufficientFundsMessage } };

/** The notifications a payment just made sends: to its customer, and to the recipient of an internal transfer. */
function notificationsOfCreated(row: PaymentRow, recipientCustomerId: string | null): NewNotification[] {
  const amount = formatMoney(row.amount_cents);
  const base = { customerId: row.customer_id, paymentId: row.id, link: paymentNotificationLink };
  if (row.status === 'in_review') {
    return [
      {
        ...base,
        kind: 'held',
        name: 'Payment in review',
        text: `Your payment of ${amount} to ${row.counterparty_name} is being reviewed by our team. The money stays reserved in your account. We will never ask you for a code or a fee to release it.`,
      },
    ];
  }
  if (row.kind === 'own' || row.kind === 'deposit' || row.kind === 'funding') return [];
  if (row.status === 'completed') {
    const sent: NewNotification = { ...base, kind: 'money_out', name: 'Money sent', text: `You sent ${amount} to ${row.counterparty_name}.` };
    if (!recipientCustomerId || recipientCustomerId === row.customer_id) return [sent];
    return [
      sent,
      {
        customerId: recipientCustomerId,
        paymentId: row.id,
        link: paymentNotificationLink,
        kind: 'money_in',
        name: 'Money received',
        text: `${row.details.senderName ?? 'Someone'} sent you ${amount}.`,
      },
    ];
  }
  return [
    {
      ...base,
      kind: 'money_out',
      name: 'Payment on its way',
      text: `Your payment of ${amount} to ${row.counterparty_name} is on its way.`,
    },
  ];
}
