import { randomUUID } from 'node:crypto';
import type { PaymentResponse } from '@strongroom/contracts/payments.ts';
import type { Config } from '../../config.ts';
import type { Database, Queryable } from '../../db/database.ts';
import type { TransferBatcher } from '../../ledger/batcher.ts';
import { ledgers } from '../../ledger/codes.ts';
import { transferFlags } from '../../ledger/types.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { claimIdempotencyKey, lookupIdempotencyKey, requestHash, storeIdempotentResponse, type StoredResponse } from '../../platform/idempotency.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import type { SmsSender } from '../../platform/messaging/sms-sender.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { consumeStepUp, requireStepUp, stepUpDependencies } from '../../platform/step-up.ts';
import { saveBeneficiaryFromPayment } from '../beneficiaries/service.ts';
import { refuseDepositOverLimit } from './deposit-limits.ts';
import { planPayment, type PaymentRequest } from './plan.ts';
import { paymentNotificationLink, presentPayment } from './presenter.ts';
import { formatCents } from '../../platform/money.ts';
import { settlementTime } from './rail.ts';
import { ledgerSideOf, type LedgerSide } from './recovery.ts';
import { findPayment, insertPayment, transitionPayment, type PaymentRow } from './repository.ts';
import { reviewReasonFor } from './review-rules.ts';

export interface PaymentDependencies {
  db: Database;
  ledger: TransferBatcher;
  config: Config;
  sms: SmsSender;
  liveEvents?: LiveEvents;
  /** Asks the settlement job to run now (instant rails); absent in the ops CLI. */
  settleSoon?: () => Promise<void>;
}

export interface PaymentActor {
  customerId: string;
  ip?: string;
  userAgent?: string;
  requestId: string;
}

export const insufficientFundsMessage = 'Insufficient funds: the amount is more than the available balance of this account.';

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
 */
export async function requestPayment(
  dependencies: PaymentDependencies,
  actor: PaymentActor,
  request: PaymentRequest,
  headers: { idempotencyKey: string; stepUpChallengeId?: string },
): Promise<StoredResponse> {
  const { db } = dependencies;
  const hash = requestHash(request.endpoint, request.body);
  const earlier = await lookupIdempotencyKey(db, actor.customerId, headers.idempotencyKey, hash);
  if (earlier.state === 'answered') return earlier.response;
  if (earlier.state === 'unanswered') return finishUnanswered(dependencies, earlier.paymentId);

  const [customer] = await db.query<{ name: string }>("SELECT first_name || ' ' || last_name AS name FROM customers WHERE id = $1", [actor.customerId]);
  if (!customer) throw new AppError('unauthenticated', 'Please sign in to continue');
  const plan = await planPayment({ db, config: dependencies.config, customerId: actor.customerId, customerName: customer.name }, request);
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
  const claim = await db.transaction(async (tx) => {
    // One customer's payments are claimed one at a time, so that the 24-hour review rule sees
    // every earlier payment, even one sent a millisecond before.
    await tx.query('SELECT 1 FROM customers WHERE id = $1 FOR UPDATE', [actor.customerId]);
    if (plan.needsStepUp && !(await consumeStepUp(tx, actor.customerId, headers.stepUpChallengeId ?? '', headers.idempotencyKey, hash))) {
      return { kind: 'step_up' as const };
    }
    if (plan.payment.kind === 'deposit') await refuseDepositOverLimit(tx, dependencies.config, actor.customerId, plan.payment.amountCents);
    if (!(await claimIdempotencyKey(tx, actor.customerId, headers.idempotencyKey, hash, paymentId))) return { kind: 'raced' as const };
    const reviewReason = plan.reviewable
      ? await reviewReasonFor(
          tx,
          dependencies.config.reviewRules,
          { customerId: actor.customerId, amountCents: plan.payment.amountCents, payeeKey: plan.payment.payeeKey ?? null },
          new Date(),
        )
      : null;
    const row = await insertPayment(tx, {
      ...plan.payment,
      id: paymentId,
      details: { ...plan.payment.details, ...(reviewReason ? { reviewRule: reviewReason } : {}) },
    });
    return { kind: 'claimed' as const, row };
  });
  if (claim.kind === 'step_up') return requireStepUp(stepUp, challenge);
  if (claim.kind === 'raced') {
    const again = await lookupIdempotencyKey(db, actor.customerId, headers.idempotencyKey, hash);
    if (again.state === 'answered') return again.response;
    throw new AppError('conflict', 'This payment is already being processed. Check your history before trying again.');
  }

  const response = await executePayment(dependencies, claim.row, plan);
  await recordAudit(db, {
    actorType: 'customer',
    actorId: actor.customerId,
    action: `payment.${request.endpoint}`,
    subject: paymentId,
    outcome: response.status === 201 ? 'success' : 'failure',
    ip: actor.ip,
    userAgent: actor.userAgent,
    requestId: actor.requestId,
    details: { kind: plan.payment.kind, amountCents: plan.payment.amountCents.toString(), stepUp: plan.needsStepUp },
  });
  return response;
}

/** Sends the payment's transfer to the ledger and records the answer; a recovered payment rebuilds its plan from its row. */
async function executePayment(dependencies: PaymentDependencies, row: PaymentRow, plan: LedgerSide): Promise<StoredResponse> {
  const { db } = dependencies;
  const paymentId = row.id;
  const held = typeof row.details.reviewRule === 'string';
  const pending = plan.viaRail || held;
  const outcome = await dependencies.ledger.createTransfer({
    id: paymentId,
    debitAccountId: plan.debitLedgerAccountId,
    creditAccountId: plan.creditLedgerAccountId,
    amountCents: row.amount_cents,
    ledger: ledgers.usd,
    code: plan.code,
    flags: pending ? transferFlags.pending : 0,
    timeoutSeconds: 0,
  });

  if (outcome.result === 'exceeds_credits' || outcome.result === 'id_already_failed') {
    const response: StoredResponse = { status: 422, body: { error: { code: 'insufficient_funds', message: insufficientFundsMessage } } };
    await db.transaction(async (tx) => {
      await transitionPayment(tx, paymentId, ['creating'], { status: 'failed', failureCode: outcome.result });
      await storeIdempotentResponse(tx, paymentId, response);
    });
    return response;
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
      await notifyCreated(tx, updated, plan.recipientCustomerId);
      if (plan.favorite) await saveBeneficiaryFromPayment(tx, updated.customer_id, plan.favorite);
    }
    const response: StoredResponse = { status: 201, body: { transfer: presentPayment(current) } satisfies PaymentResponse };
    await storeIdempotentResponse(tx, paymentId, response);
    return { response, row: current };
  });
  publishPaymentChange(dependencies, finished.row, plan.recipientCustomerId);
  if (finished.row.status === 'pending' && dependencies.config.railSpeed === 'instant') await dependencies.settleSoon?.();
  return finished.response;
}

export function publishPaymentChange(dependencies: Pick<PaymentDependencies, 'liveEvents'>, row: PaymentRow, recipientCustomerId: string | null): void {
  dependencies.liveEvents?.publish(row.customer_id, 'accounts');
  dependencies.liveEvents?.publish(row.customer_id, 'notifications');
  if (recipientCustomerId && recipientCustomerId !== row.customer_id) {
    dependencies.liveEvents?.publish(recipientCustomerId, 'accounts');
    dependencies.liveEvents?.publish(recipientCustomerId, 'notifications');
  }
}

async function notifyCreated(tx: Queryable, row: PaymentRow, recipientCustomerId: string | null): Promise<void> {
  const amount = formatCents(row.amount_cents);
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
 * An Idempotency-Key whose first request has no stored answer: it is still running, or it died
 * after claiming. A payment still 'creating' is finished here (the ledger is idempotent by id).
 */
async function finishUnanswered(dependencies: PaymentDependencies, paymentId: string): Promise<StoredResponse> {
  const row = await findPayment(dependencies.db, paymentId);
  if (!row || row.status !== 'creating') {
    const [stored] = await dependencies.db.query<{ response_status: number | null; response_body: unknown }>(
      'SELECT response_status, response_body FROM idempotency_keys WHERE payment_id = $1',
      [paymentId],
    );
    if (stored?.response_status) return { status: stored.response_status, body: stored.response_body };
    throw new AppError('conflict', 'This payment is already being processed. Check your history before trying again.');
  }
  const ageMs = Date.now() - row.created_at.getTime();
  if (ageMs < unfinishedAfterMs) throw new AppError('conflict', 'This payment is already being processed. Check your history before trying again.');
  return finishPayment(dependencies, row);
}

/** How long a request may take between claiming its payment and recording the ledger's answer. */
export const unfinishedAfterMs = 30_000;

/** Rebuilds the ledger side of a 'creating' payment from its row and sends it again. */
export async function finishPayment(dependencies: PaymentDependencies, row: PaymentRow): Promise<StoredResponse> {
  return executePayment(dependencies, row, await ledgerSideOf(dependencies.db, row));
}
