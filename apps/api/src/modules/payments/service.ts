import { formatMoney } from '@strongroom/contracts/money.ts';
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/database.ts';
import { ledgers } from '../../ledger/codes.ts';
import { transferFlags } from '../../ledger/types.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { claimIdempotencyKey, requestHash } from '../../platform/idempotency.ts';

import { notifyCustomer } from '../../platform/notify.ts';
import { consumeStepUp, requireStepUp, stepUpDependencies } from '../../platform/step-up.ts';
import { saveBeneficiaryFromPayment } from '../beneficiaries/service.ts';
import { earlierRequest, insufficientFundsMessage, storedPaymentAnswer, storePaymentAnswer, type PaymentResult } from './answers.ts';
import { publishPaymentChange, type PaymentDependencies } from './dependencies.ts';
import { refuseDepositOverLimit } from './deposit-limits.ts';
import { executionOfPlan, planPayment, type PaymentExecution, type PaymentRequest } from './plan.ts';
import { paymentNotificationLink, presentPayment } from './presenter.ts';
import { settlementTime } from './rail.ts';
import { executionOf } from './recovery.ts';
import {
  findCustomerName,
  findPayment,
  insertPayment,
  listPaymentsByStatus,
  lockCustomer,
  transitionPayment,
  unfinishedPayments,
  type PaymentRow,
} from './repository.ts';
import { reviewReasonFor } from './review-rules.ts';

/** What other modules may do with payments: the bank's own payments (customers) and the rail's outcomes (ach). */
export { recordBankPayment, recordSettledExternalPayment, type BankPayment, type SettledExternalPayment } from './funding.ts';
export { recordRailOutcome, type RailActor, type RailOutcome, type RailOutcomeResult } from './rail-outcomes.ts';
/** The history line of a debit-card purchase (the cards module moves its money). */
export {
  clearCardPurchaseLine,
  recordCardPurchaseLine,
  recordDeclinedCardPurchaseLine,
  releaseCardPurchaseLine,
  type CardPurchaseLine,
} from './card-purchases.ts';

export interface PaymentActor {
  customerId: string;
  ip?: string;
  userAgent?: string;
  requestId: string;
}

const alreadyProcessing = 'This payment is already being processed. Check your history before trying again.';

/**
 * One money-moving request, from the wire to the ledger (PRODUCT.md section 5, LEDGER.md):
 * 1. a replayed Idempotency-Key answers what it answered first; the same key with another body is refused;
 * 2. the plan resolves the accounts (someone else's answers like a missing one);
 * 3. a step-up is asked for when the plan needs one (D10), bound to this key and body;
 * 4. one transaction claims the key, uses the step-up, applies the review rules (D1) under the
 *    customer's row lock, and records the payment as 'creating';
 * 5. the ledger moves (or reserves) the money under the payment's id, through the batcher;
 * 6. one transaction records the outcome, its notifications and the answer to replay.
 * A crash between 4 and 6 leaves a 'creating' payment, which the recovery sweep finishes by
 * sending the same transfer id again (the ledger answers `exists` if it had arrived).
 * The answer is a PaymentResult; what a route makes of it in HTTP is the route's business.
 */
export async function requestPayment(
  dependencies: PaymentDependencies,
  actor: PaymentActor,
  request: PaymentRequest,
  headers: { idempotencyKey: string; stepUpChallengeId?: string },
): Promise<PaymentResult> {
  const { db } = dependencies;
  const hash = requestHash(request.endpoint, request.body);
  const earlier = await earlierRequest(db, actor.customerId, headers.idempotencyKey, hash);
  if (earlier.state === 'answered') return earlier.result;
  if (earlier.state === 'unanswered') return finishUnanswered(dependencies, earlier.paymentId);

  const customerName = await findCustomerName(db, actor.customerId);
  if (customerName === undefined) throw new AppError('unauthenticated', 'Please sign in to continue');
  const plan = await planPayment({ db, config: dependencies.config, customerId: actor.customerId, customerName, ownCard: dependencies.ownCard }, request);
  const stepUp = stepUpDependencies(dependencies);
  const challenge = {
    customerId: actor.customerId,
    idempotencyKey: headers.idempotencyKey,
    requestHash: hash,
    amountCents: plan.payment.amountCents,
    purpose: plan.purpose,
    requestId: actor.requestId,
  };
  if (plan.needsStepUp && !headers.stepUpChallengeId) await requireStepUp(stepUp, challenge);

  const paymentId = randomUUID();
  // Marked before the claim commits, so that no replay can see it claimed and not running here.
  executingHere.add(paymentId);
  try {
    const claim = await db.transaction(async (tx) => {
      // One customer's payments are claimed one at a time, so that the 24-hour review rule sees
      // every earlier payment, even one sent a millisecond before.
      await lockCustomer(tx, actor.customerId);
      if (plan.needsStepUp && !(await consumeStepUp(tx, actor.customerId, headers.stepUpChallengeId ?? '', headers.idempotencyKey, hash))) {
        return { kind: 'step_up' as const };
      }
      if (plan.payment.kind === 'deposit') await refuseDepositOverLimit(tx, dependencies.config, actor.customerId, plan.payment.amountCents);
      if (!(await claimIdempotencyKey(tx, actor.customerId, headers.idempotencyKey, hash, paymentId))) return { kind: 'raced' as const };
      const reviewRule = plan.reviewable
        ? await reviewReasonFor(
            tx,
            dependencies.config.reviewRules,
            { customerId: actor.customerId, amountCents: plan.payment.amountCents, payeeKey: plan.payment.payeeKey ?? null },
            new Date(),
          )
        : null;
      const row = await insertPayment(tx, { ...plan.payment, id: paymentId, reviewRule });
      return { kind: 'claimed' as const, row };
    });
    if (claim.kind === 'step_up') return requireStepUp(stepUp, challenge);
    if (claim.kind === 'raced') {
      const again = await earlierRequest(db, actor.customerId, headers.idempotencyKey, hash);
      if (again.state === 'answered') return again.result;
      throw new AppError('conflict', alreadyProcessing);
    }

    const result = await executePayment(dependencies, claim.row, executionOfPlan(plan, paymentId));
    await recordAudit(db, {
      actorType: 'customer',
      actorId: actor.customerId,
      action: `payment.${request.endpoint}`,
      subject: paymentId,
      outcome: result.outcome === 'made' ? 'success' : 'failure',
      ip: actor.ip,
      userAgent: actor.userAgent,
      requestId: actor.requestId,
      details: { kind: plan.payment.kind, amountCents: plan.payment.amountCents.toString(), stepUp: plan.needsStepUp },
    });
    return result;
  } finally {
    executingHere.delete(paymentId);
  }
}

/**
 * Sends the payment's transfer to the ledger and records the answer. A payment held for review
 * is a pending transfer whatever its kind (kinds.ts), so that staff can post or void it.
 */
async function executePayment(dependencies: PaymentDependencies, row: PaymentRow, execution: PaymentExecution): Promise<PaymentResult> {
  const { db } = dependencies;
  const paymentId = row.id;
  const held = row.review_rule !== null;
  const pending = execution.viaRail || held;
  const outcome = await dependencies.ledger.createTransfer({
    id: paymentId,
    debitAccountId: execution.debitLedgerAccountId,
    creditAccountId: execution.creditLedgerAccountId,
    amountCents: row.amount_cents,
    ledger: ledgers.usd,
    code: execution.code,
    flags: pending ? transferFlags.pending : 0,
    timeoutSeconds: execution.timeoutSeconds,
  });

  if (outcome.result === 'exceeds_credits' || outcome.result === 'id_already_failed') {
    const refused: PaymentResult = { outcome: 'refused', refusal: { code: 'insufficient_funds', message: insufficientFundsMessage } };
    await db.transaction(async (tx) => {
      await transitionPayment(tx, paymentId, ['creating'], { status: 'failed', failureCode: outcome.result });
      await storePaymentAnswer(tx, paymentId, refused);
    });
    return refused;
  }
  if (outcome.result !== 'ok' && outcome.result !== 'exists') {
    throw new Error(`the ledger refused payment ${paymentId}: ${outcome.result}`);
  }

  const now = new Date();
  const status = held ? 'in_review' : pending ? 'pending' : 'completed';
  const settleAt = status === 'pending' && row.rail ? settlementTime(row.rail, dependencies.config.railSpeed, paymentId, now) : null;
  const finished = await db.transaction(async (tx) => {
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
  });
  publishPaymentChange(dependencies, finished.row, execution.recipientCustomerId);
  if (finished.row.status === 'pending' && dependencies.config.railSpeed === 'instant') await dependencies.settleSoon?.();
  return finished.result;
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

/**
 * Payments whose first request is running in this process now, between its claim and its answer.
 * A replay of one of these waits for it (409); any other payment still 'creating' was left by a
 * request that ended without an answer (the process was killed, or the database went away under
 * it and the client got 503), and its replay finishes it at once.
 */
const executingHere = new Set<string>();

/**
 * An Idempotency-Key whose first request has no stored answer: it is still running, or it died
 * after claiming. A payment still 'creating' and not running here is finished now, so the replay
 * gives the true answer (decision 036). That is safe even if another API process were still
 * running it: the ledger takes the transfer id once ('exists' after), and only one change from
 * 'creating' wins (transitionPayment), so the money moves once and both store the same answer.
 */
async function finishUnanswered(dependencies: PaymentDependencies, paymentId: string): Promise<PaymentResult> {
  const row = await findPayment(dependencies.db, paymentId);
  if (!row || row.status !== 'creating') {
    const stored = await storedPaymentAnswer(dependencies.db, paymentId);
    if (stored) return stored;
    throw new AppError('conflict', alreadyProcessing);
  }
  if (executingHere.has(paymentId)) throw new AppError('conflict', alreadyProcessing);
  return finishPayment(dependencies, row);
}

/** How long a request may take between claiming its payment and recording the ledger's answer. */
export const unfinishedAfterMs = 30_000;

/** Rebuilds the execution of a 'creating' payment from its row (recovery.ts) and sends it again. */
export async function finishPayment(dependencies: PaymentDependencies, row: PaymentRow): Promise<PaymentResult> {
  return executePayment(dependencies, row, await executionOf(dependencies.db, row));
}

/** Finishes payments that a dead request left in 'creating'; part of the payments sweep. */
export async function finishUnfinishedPayments(dependencies: PaymentDependencies, limit = 100): Promise<number> {
  const rows = await unfinishedPayments(dependencies.db, unfinishedAfterMs / 1_000, limit);
  for (const row of rows) await finishPayment(dependencies, row);
  return rows.length;
}

/** A customer's own payment; someone else's, and one never shown (still creating, or refused), answers like one that does not exist. */
export async function customerPayment(db: Queryable, customerId: string, paymentId: string): Promise<PaymentRow> {
  const row = await findPayment(db, paymentId);
  if (!row || row.customer_id !== customerId || row.status === 'creating' || row.status === 'failed') throw new AppError('not_found', 'No such transfer');
  return row;
}

/** A customer's payments held for review or pending at a rail, newest first, at most `limit`. */
export function customerPaymentsWithStatus(db: Queryable, customerId: string, status: 'in_review' | 'pending', limit: number): Promise<PaymentRow[]> {
  return listPaymentsByStatus(db, customerId, status, limit);
}
