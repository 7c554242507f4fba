import { lineDescription } from '@strongroom/contracts/history-line.ts';
import type { CustomerActor } from '../../platform/request-actor.ts';
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/database.ts';
import { accountFrozenMessage } from '../../platform/account-freeze.ts';
import { AppError } from '../../platform/errors.ts';
import { requestHash } from '../../platform/idempotency.ts';
import { requireStepUp, stepUpDependencies } from '../step-up/service.ts';
import { earlierRequest, earlierRequestFromRow, insufficientFundsMessage, storedPaymentAnswer, type PaymentResult } from './answers.ts';
import { paymentCommitterOf } from './commit-group.ts';
import { publishPaymentChange, type PaymentDependencies } from './dependencies.ts';
import { executionOfPlan, planPayment, type PaymentExecution, type PaymentRequest, type TransferBody } from './plan.ts';
import { presentPayment } from './presenter.ts';
import { findPayment, listPaymentsByStatus, type PaymentRow } from './repository.ts';
import { findPayer } from './party-repository.ts';

/** What other modules may do with payments: the bank's own payments (customers) and the rail's outcomes (ach). */
export type { PaymentDependencies } from './dependencies.ts';
export type { PaymentResult } from './answers.ts';
export type { TransferBody } from './plan.ts';
export { recordBankPayment, recordSettledExternalPayment, type BankPayment, type SettledExternalPayment } from './funding.ts';
export { recordRailOutcome, type RailActor, type RailOutcome, type RailOutcomeResult } from './rail-outcomes.ts';
/** Every movement of the bank's own money for loans and referrals, in the caller's transaction (decision 065). */
export { moveMoney, type MoneyMovement, type MovementLeg, type MovementResult, type MovementKind, type MovementRefusal } from './move-money.ts';
/** The history line of a debit-card purchase (the cards module moves its money). */
export {
  clearCardPurchaseLine,
  recordCardPurchaseLine,
  recordDeclinedCardPurchaseLine,
  releaseCardPurchaseLine,
  type CardPurchaseLine,
} from './card-purchases.ts';

const alreadyProcessing = 'This payment is already being processed. Check your history before trying again.';

/**
 * One money-moving request, from the wire to the ledger (docs/product.md section 5, docs/ledger.md):
 * 1. a frozen customer moves no money (account_frozen); a replayed Idempotency-Key answers what it
 *    answered first; the same key with another body is refused;
 * 2. the plan resolves the accounts (someone else's answers like a missing one);
 * 3. a step-up is asked for when the plan needs one (D10), bound to this key and body;
 * 4. one transaction, shared with the payments sent at the same moment (commit-group.ts, decision
 *    044), claims the key, uses the step-up, applies the review rules (D1) under the customer's
 *    row lock, moves (or reserves) the money under the payment's id, and records the outcome, its
 *    notifications, the answer to replay and the audit entry. All of it commits, or none of it.
 * The answer is a PaymentResult; what a route makes of it in HTTP is the route's business.
 */
export async function requestPayment(
  dependencies: PaymentDependencies,
  actor: CustomerActor,
  request: PaymentRequest,
  headers: { idempotencyKey: string; stepUpChallengeId?: string },
  options: { stepUpWaived?: boolean } = {},
): Promise<PaymentResult> {
  const { db } = dependencies;
  const started = performance.now();
  const hash = requestHash(request.endpoint, request.body);
  // The payer's name, freeze and this key's earlier use (one statement, decision 044) and the
  // plan's reads go out together: one wait for the database instead of two (decision 087). The
  // payer is judged first, so a frozen customer or a replayed key is answered as before, whatever
  // the plan found; the plan waits for the payer's name only where it names the sender.
  const payerRead = findPayer(db, actor.customerId, headers.idempotencyKey);
  const planRead = planPayment(
    {
      db,
      config: dependencies.config,
      customerId: actor.customerId,
      customerName: payerRead.then(
        (found) => found?.name ?? '',
        () => '',
      ),
      ownCard: dependencies.ownCard,
    },
    request,
  );
  const [payerOutcome, planOutcome] = await Promise.allSettled([payerRead, planRead]);
  if (payerOutcome.status === 'rejected') throw payerOutcome.reason;
  const payer = payerOutcome.value;
  if (!payer) throw new AppError('unauthenticated', 'Please sign in to continue');
  if (payer.frozen) throw new AppError('account_frozen', accountFrozenMessage);
  const earlier = earlierRequestFromRow(payer.key, hash);
  if (earlier.state === 'answered') return earlier.result;
  if (earlier.state === 'unanswered') return answerFromRow(db, earlier.paymentId);
  if (planOutcome.status === 'rejected') throw planOutcome.reason;
  const planned = planOutcome.value;
  // A scheduled payment's step-up was given when the schedule was made (scheduled-payments).
  const plan = options.stepUpWaived ? { ...planned, needsStepUp: false } : planned;
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
  const execution = executionOfPlan(plan, paymentId);
  dependencies.stages?.observe('reads', (performance.now() - started) / 1_000);
  const committed = await paymentCommitterOf(dependencies).commit({
    customerId: actor.customerId,
    endpoint: request.endpoint,
    paymentId,
    idempotencyKey: headers.idempotencyKey,
    requestHash: hash,
    stepUpChallengeId: headers.stepUpChallengeId,
    plan,
    execution,
    audit: {
      actorType: 'customer',
      actorId: actor.customerId,
      action: `payment.${request.endpoint}`,
      subject: paymentId,
      ip: actor.ip,
      userAgent: actor.userAgent,
      requestId: actor.requestId,
      details: { kind: plan.payment.kind, amountCents: plan.payment.amountCents.toString(), stepUp: plan.needsStepUp },
    },
  });
  if (committed.kind === 'step_up') return requireStepUp(stepUp, challenge);
  if (committed.kind === 'raced') {
    const again = await earlierRequest(db, actor.customerId, headers.idempotencyKey, hash);
    if (again.state === 'answered') return again.result;
    throw new AppError('conflict', alreadyProcessing);
  }
  if (committed.result.outcome === 'made') await afterCommit(dependencies, committed.row, execution);
  return committed.result;
}

/** What a scheduled payment's body comes to, checked as `POST /transfers` checks it, with no money moved. */
export interface ScheduledPaymentPlan {
  kind: Exclude<TransferBody['kind'], 'card'>;
  fromAccountId: string;
  amountCents: bigint;
  /** D10: a new payee, any external payment: asked for when the schedule is made, never when it runs. */
  needsStepUp: boolean;
  /** For the step-up SMS. */
  purpose: string;
  /** Whom it pays: the biller, the payee, the account. */
  payeeName: string;
  /** What each payment's history line says. */
  description: string;
}

/**
 * Plans a payment to be made later (scheduled-payments): the same checks as `POST /transfers`
 * (the accounts are the customer's, the payee exists, the amount), nothing claimed or moved. A
 * frozen customer is refused here as at payment time.
 */
export async function planScheduledPayment(dependencies: PaymentDependencies, customerId: string, body: TransferBody): Promise<ScheduledPaymentPlan> {
  const { db } = dependencies;
  const payer = await findPayer(db, customerId, '');
  if (!payer) throw new AppError('unauthenticated', 'Please sign in to continue');
  if (payer.frozen) throw new AppError('account_frozen', accountFrozenMessage);
  const plan = await planPayment(
    { db, config: dependencies.config, customerId, customerName: Promise.resolve(payer.name), ownCard: dependencies.ownCard },
    { endpoint: 'transfers', body },
  );
  const { payment } = plan;
  if (body.kind === 'card' || !payment.fromAccountId) throw new AppError('validation_failed', 'A card payment cannot be scheduled');
  const facts = {
    kind: payment.kind,
    message: payment.message,
    counterpartyName: payment.counterpartyName,
    counterpartyBankName: payment.counterpartyBankName ?? null,
    senderName: null,
    // A bill payment's line names the customer's account at the biller by its last four characters.
    accountEnding: payment.details?.accountEnding ?? null,
  };
  return {
    kind: body.kind,
    fromAccountId: payment.fromAccountId,
    amountCents: payment.amountCents,
    needsStepUp: plan.needsStepUp,
    purpose: plan.purpose,
    payeeName: payment.counterpartyName,
    description: lineDescription(facts, 'out'),
  };
}

/**
 * One occurrence of a scheduled payment, paid as `POST /transfers` pays (freeze, review rules,
 * limits, the Idempotency-Key, the same commit group) except for the step-up, given when the
 * schedule was made. The key is derived from the occurrence, so a rerun replays the first answer.
 */
export function requestScheduledPayment(
  dependencies: PaymentDependencies,
  customerId: string,
  body: TransferBody,
  run: { idempotencyKey: string; requestId: string },
): Promise<PaymentResult> {
  return requestPayment(
    dependencies,
    { customerId, requestId: run.requestId },
    { endpoint: 'transfers', body },
    { idempotencyKey: run.idempotencyKey },
    { stepUpWaived: true },
  );
}

/** Once committed: the open screens hear of it, and an instant rail settles it now. */
async function afterCommit(dependencies: PaymentDependencies, row: PaymentRow, execution: PaymentExecution): Promise<void> {
  publishPaymentChange(dependencies, row, execution.recipientCustomerId);
  if (row.status === 'pending' && dependencies.config.railSpeed === 'instant') await dependencies.settleSoon?.();
}

/**
 * An Idempotency-Key whose first request has no stored answer. Since decision 044 a request's
 * claim commits with its outcome and answer, so only a payment written before 044 can be so, and
 * migration 0039 finished every such row as the ledger had decided it (decision 065 removed their
 * recovery). The replay answers from the row: made, or refused for want of money; anything else
 * (a row interrupted before the ledger saw it) the customer checks in their history.
 */
async function answerFromRow(db: Queryable, paymentId: string): Promise<PaymentResult> {
  const stored = await storedPaymentAnswer(db, paymentId);
  if (stored) return stored;
  const row = await findPayment(db, paymentId);
  if (row && row.status !== 'creating' && row.status !== 'failed') return { outcome: 'made', payment: presentPayment(row) };
  if (row?.status === 'failed' && (row.failure_code === 'exceeds_credits' || row.failure_code === 'id_already_failed')) {
    return { outcome: 'refused', refusal: { code: 'insufficient_funds', message: insufficientFundsMessage } };
  }
  throw new AppError('conflict', alreadyProcessing);
}

/** How long a request may take between claiming a micro-deposit and recording the ledger's answer (the payments sweep finishes it after). */
export const unfinishedAfterMs = 30_000;

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
