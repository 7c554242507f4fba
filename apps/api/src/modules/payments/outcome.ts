import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import type { CreateTransferOutcome } from '../../ledger/result-codes.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { saveBeneficiaryFromPayment } from '../beneficiaries/service.ts';
import { insufficientFundsMessage, storePaymentAnswer, type PaymentResult } from './answers.ts';
import type { PaymentExecution } from './plan.ts';
import { paymentNotificationLink, presentPayment } from './presenter.ts';
import { settlementTime } from './rail.ts';
import { findPayment, transitionPayment, type PaymentRow } from './repository.ts';

/**
 * Records what the ledger answered for a 'creating' payment, in the caller's transaction: its
 * status, its notifications, the favourite it asked to save and the answer a replay will give.
 * Only one change from 'creating' wins (transitionPayment), so recording twice is harmless.
 */
export async function recordPaymentOutcome(
  tx: Queryable,
  config: Pick<Config, 'railSpeed'>,
  row: PaymentRow,
  execution: PaymentExecution,
  outcome: CreateTransferOutcome,
): Promise<{ result: PaymentResult; row: PaymentRow }> {
  const paymentId = row.id;
  if (outcome.result === 'exceeds_credits' || outcome.result === 'id_already_failed') {
    const refused: PaymentResult = { outcome: 'refused', refusal: { code: 'insufficient_funds', message: insufficientFundsMessage } };
    const failed = await transitionPayment(tx, paymentId, ['creating'], { status: 'failed', failureCode: outcome.result });
    await storePaymentAnswer(tx, paymentId, refused);
    return { result: refused, row: failed ?? row };
  }
  if (outcome.result !== 'ok' && outcome.result !== 'exists') {
    throw new Error(`the ledger refused payment ${paymentId}: ${outcome.result}`);
  }

  const held = row.review_rule !== null;
  const pending = execution.viaRail || held;
  const status = held ? 'in_review' : pending ? 'pending' : 'completed';
  const settleAt = status === 'pending' && row.rail ? settlementTime(row.rail, config.railSpeed, paymentId, new Date()) : null;
  const updated = await transitionPayment(tx, paymentId, ['creating'], { status, settleAt });
  const current = updated ?? (await findPayment(tx, paymentId));
  if (!current) throw new Error(`payment ${paymentId} vanished`);
  if (updated) {
    await notifyCreated(tx, updated, execution.recipientCustomerId);
    if (execution.favorite) await saveBeneficiaryFromPayment(tx, updated.customer_id, execution.favorite);
  }
  const made: PaymentResult = { outcome: 'made', payment: presentPayment(current) };
  await storePaymentAnswer(tx, paymentId, made);
  return { result: made, row: current };
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
