import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import type { CreateTransferOutcome } from '../../ledger/result-codes.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { saveBeneficiaryFromPayment } from '../beneficiaries/service.ts';
import { insufficientFundsMessage, storePaymentAnswers, type PaymentResult } from './answers.ts';
import type { PaymentExecution } from './plan.ts';
import { paymentNotificationLink, presentPayment } from './presenter.ts';
import { settlementTime } from './rail.ts';
import { findPayment, transitionFromCreating, type PaymentChange, type PaymentRow } from './repository.ts';

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
): Promise<Array<{ result: PaymentResult; row: PaymentRow }>> {
  const now = new Date();
  const changes = answers.map(({ row, execution, outcome }): PaymentChange => {
    if (outcome.result === 'exceeds_credits' || outcome.result === 'id_already_failed') {
      return { id: row.id, status: 'failed', settleAt: null, failureCode: outcome.result };
    }
    if (outcome.result !== 'ok' && outcome.result !== 'exists') throw new Error(`the ledger refused payment ${row.id}: ${outcome.result}`);
    const held = row.review_rule !== null;
    const status = held ? 'in_review' : execution.viaRail ? 'pending' : 'completed';
    const settleAt = status === 'pending' && row.rail ? settlementTime(row.rail, config.railSpeed, row.id, now) : null;
    return { id: row.id, status, settleAt, failureCode: null };
  });
  const updated = await transitionFromCreating(tx, changes);

  const finished: Array<{ result: PaymentResult; row: PaymentRow }> = [];
  for (const [index, { row, execution }] of answers.entries()) {
    const moved = updated.get(row.id);
    if (changes[index]?.status === 'failed') {
      finished.push({ result: refused, row: moved ?? row });
      continue;
    }
    const current = moved ?? (await findPayment(tx, row.id));
    if (!current) throw new Error(`payment ${row.id} vanished`);
    if (moved) {
      await notifyCreated(tx, moved, execution.recipientCustomerId);
      if (execution.favorite) await saveBeneficiaryFromPayment(tx, moved.customer_id, execution.favorite);
    }
    finished.push({ result: { outcome: 'made', payment: presentPayment(current) }, row: current });
  }
  await storePaymentAnswers(
    tx,
    finished.map(({ result }, index) => ({ paymentId: answers[index]?.row.id ?? '', result })),
  );
  return finished;
}

const refused: PaymentResult = { outcome: 'refused', refusal: { code: 'insufficient_funds', message: insufficientFundsMessage } };

/** One payment's outcome (the recovery path). */
export async function recordPaymentOutcome(
  tx: Queryable,
  config: Pick<Config, 'railSpeed'>,
  row: PaymentRow,
  execution: PaymentExecution,
  outcome: CreateTransferOutcome,
): Promise<{ result: PaymentResult; row: PaymentRow }> {
  const [finished] = await recordPaymentOutcomes(tx, config, [{ row, execution, outcome }]);
  if (!finished) throw new Error(`payment ${row.id} got no outcome`);
  return finished;
}

async function notifyCreated(tx: Queryable, row: PaymentRow, recipientCustomerId: string | null): Promise<void> {
  const amount = formatMoney(row.amount_cents);
  const base = { customerId: row.customer_id, paymentId: row.id, link: paymentNotificationLink };
  if (row.status === 'in_review') {
    await notifyCustomer(tx, {
      ...base,
      kind: 'held',
      name: 'Payment in review',
      text: `Your payment of ${amount} to ${row.counterparty_name} is being reviewed by our team. The money stays reserved in your account. We will never ask you for a code or a fee to release it.`,
    });
    return;
  }
  if (row.kind === 'own' || row.kind === 'deposit' || row.kind === 'funding') return;
  if (row.status === 'completed') {
    await notifyCustomer(tx, { ...base, kind: 'money_out', name: 'Money sent', text: `You sent ${amount} to ${row.counterparty_name}.` });
    if (recipientCustomerId && recipientCustomerId !== row.customer_id) {
      await notifyCustomer(tx, {
        customerId: recipientCustomerId,
        paymentId: row.id,
        link: paymentNotificationLink,
        kind: 'money_in',
        name: 'Money received',
        text: `${row.details.senderName ?? 'Someone'} sent you ${amount}.`,
      });
    }
    return;
  }
  await notifyCustomer(tx, {
    ...base,
    kind: 'money_out',
    name: 'Payment on its way',
    text: `Your payment of ${amount} to ${row.counterparty_name} is on its way.`,
  });
}
