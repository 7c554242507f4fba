import { randomUUID } from 'node:crypto';
import { feeRefundFourEyesCents, type CustomerFeeList, type FeeRefund } from '@strongroom/contracts/products.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Clock } from '../../db/clock.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { recordAudit } from '../../platform/audit.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { approversLinked } from '../../platform/four-eyes.ts';
import { auditEntryOf, type StaffActor } from '../../platform/request-actor.ts';
import { moveMoney } from '../payments/service.ts';
import {
  activeRefundOf,
  customerExists,
  decideRefund,
  findRefund,
  insertRefund,
  latestRefundsOf,
  listCustomerFees,
  lockFeePayment,
  lockRefund,
  refundTargetAccount,
  type FeePaymentRow,
  type FeeRefundRow,
} from './fee-refunds-repository.ts';

/**
 * Fee refunds (issue 32 item 4, docs/deposit-products.md): staff with `fees.refund` give a fee back,
 * whole and once, into the account it came from (or, if that account has closed, the customer's
 * first open account of the same kind), as a payment of kind `fee_refund` whose id is derived from
 * the fee's, so the money can move only once whatever is retried. A fee of `feeRefundFourEyesCents`
 * ($20.00) or more needs four eyes: the first staff member's request waits, and a different staff
 * member approves it (or rejects it; the requester may withdraw their own by rejecting it).
 */
export interface FeeRefundDependencies {
  db: Database;
  bankName: string;
  clock?: Clock;
}

export type FeeRefundOutcome =
  | { kind: 'refunded' | 'awaiting_approval' | 'rejected'; refund: FeeRefund }
  | { kind: 'not_found' | 'already_refunded' | 'already_decided' | 'same_staff' | 'linked_staff' | 'no_open_account' };

function presentRefund(row: FeeRefundRow): FeeRefund {
  return {
    id: row.id,
    feePaymentId: row.fee_payment_id,
    customerId: row.customer_id,
    amountCents: Number(row.amount_cents),
    status: row.status,
    requestedBy: row.requested_by,
    requestReason: row.request_reason,
    decidedBy: row.decided_by,
    decisionReason: row.decision_reason,
    refundPaymentId: row.refund_payment_id,
    toAccountId: row.to_account_id,
    createdAt: row.created_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
  };
}

/** `GET /staff/customers/{id}/fees`: undefined for a customer that does not exist. */
export async function customerFees(db: Queryable, customerId: string): Promise<CustomerFeeList | undefined> {
  if (!(await customerExists(db, customerId))) return undefined;
  const fees = await listCustomerFees(db, customerId);
  const refunds = await latestRefundsOf(
    db,
    fees.map((fee) => fee.id),
  );
  return {
    fourEyesCents: feeRefundFourEyesCents,
    items: fees.map((fee) => {
      const refund = refunds.get(fee.id);
      return {
        paymentId: fee.id,
        accountId: fee.from_account_id,
        accountName: fee.account_name,
        amountCents: Number(fee.amount_cents),
        message: fee.message,
        chargedAt: fee.created_at.toISOString(),
        refund: refund ? presentRefund(refund) : null,
      };
    }),
  };
}

/** The refund of this fee, moved now inside the caller's transaction: its id says which fee, so a second run finds it moved. */
async function moveRefund(dependencies: FeeRefundDependencies, tx: Queryable, fee: FeePaymentRow, toAccountId: string): Promise<string> {
  const id = derivedUuid('fee_refund', fee.id);
  const moved = await moveMoney(
    tx,
    {
      id,
      kind: 'fee_refund',
      customerId: fee.customer_id,
      fromAccountId: null,
      toAccountId,
      amountCents: fee.amount_cents,
      counterpartyName: dependencies.bankName,
      message: `Fee refund: ${fee.message}`.slice(0, 140),
      // Told once, when the money moves (moveMoney skips it on a rerun that finds the refund made).
      notifications: [
        {
          customerId: fee.customer_id,
          kind: 'money_in',
          name: 'Fee refunded',
          text: `We refunded the ${formatMoney(fee.amount_cents)} fee "${fee.message}" to your account.`,
          link: '/transaction-history',
          paymentId: id,
        },
      ],
    },
    dependencies.clock,
  );
  // The bank's fee income has no limit: a refusal is a defect, and nothing of this refund commits.
  if (moved.outcome === 'refused') throw new Error(`the ledger refused the refund of fee ${fee.id}: ${moved.code}`);
  return id;
}

/**
 * `POST /staff/fees/{paymentId}/refund`: under the threshold the money moves at once (201); at or
 * above it the request waits for a second staff member (202). A fee already refunded, or with a
 * refund awaiting approval, answers `already_refunded` and nothing moves.
 */
export async function requestFeeRefund(
  dependencies: FeeRefundDependencies,
  feePaymentId: string,
  reason: string,
  actor: StaffActor,
): Promise<FeeRefundOutcome> {
  const { db } = dependencies;
  return retryOnWriteConflict(() =>
    db.transaction(async (tx): Promise<FeeRefundOutcome> => {
      const fee = await lockFeePayment(tx, feePaymentId);
      if (!fee) return { kind: 'not_found' };
      const active = await activeRefundOf(tx, fee.id);
      if (active) {
        await recordAudit(
          tx,
          auditEntryOf(actor, {
            action: 'fee.refund_refused',
            subject: fee.id,
            outcome: 'failure',
            details: { reason, refusal: 'already_refunded', refundId: active.id },
          }),
        );
        return { kind: 'already_refunded' };
      }
      const id = randomUUID();
      const fourEyes = fee.amount_cents >= BigInt(feeRefundFourEyesCents);
      let refunded: { refundPaymentId: string; toAccountId: string } | null = null;
      if (!fourEyes) {
        const toAccountId = await refundTargetAccount(tx, fee.from_account_id);
        if (!toAccountId) return { kind: 'no_open_account' };
        refunded = { refundPaymentId: await moveRefund(dependencies, tx, fee, toAccountId), toAccountId };
      }
      await insertRefund(tx, {
        id,
        feePaymentId: fee.id,
        customerId: fee.customer_id,
        amountCents: fee.amount_cents,
        requestedBy: actor.staffId,
        requestReason: reason,
        refunded,
      });
      await recordAudit(
        tx,
        auditEntryOf(actor, {
          action: refunded ? 'fee.refunded' : 'fee.refund_requested',
          subject: fee.id,
          outcome: 'success',
          details: { reason, refundId: id, customerId: fee.customer_id, amountCents: Number(fee.amount_cents), toAccountId: refunded?.toAccountId ?? null },
        }),
      );
      const row = await findRefund(tx, id);
      if (!row) throw new Error(`fee refund ${id} was written and not found`);
      return { kind: refunded ? 'refunded' : 'awaiting_approval', refund: presentRefund(row) };
    }),
  );
}

/**
 * `POST /staff/fee-refunds/{id}/approve|reject`: a request awaiting approval decided by a second
 * staff member. The requester approving their own is refused
 * (four eyes) and audited. Decisions of one request are taken one at a time under a lock on its
 * row, so two approvals at once move the money once; the second answers `already_decided`.
 */
export async function decideFeeRefund(
  dependencies: FeeRefundDependencies,
  refundId: string,
  decision: 'approve' | 'reject',
  reason: string,
  actor: StaffActor,
): Promise<FeeRefundOutcome> {
  const { db } = dependencies;
  return retryOnWriteConflict(() =>
    db.transaction(async (tx): Promise<FeeRefundOutcome> => {
      const request = await lockRefund(tx, refundId);
      if (!request) return { kind: 'not_found' };
      const audit = (action: string, outcome: 'success' | 'denied' | 'failure', details: Record<string, string | number | null>) =>
        recordAudit(tx, auditEntryOf(actor, { action, subject: request.fee_payment_id, outcome, details: { reason, refundId: request.id, ...details } }));
      if (request.status !== 'awaiting_approval') {
        await audit(`fee.refund_${decision}_refused`, 'failure', { refusal: 'already_decided', status: request.status });
        return { kind: 'already_decided' };
      }
      if (decision === 'approve') {
        if (request.requested_by === actor.staffId) {
          await audit('fee.refund_four_eyes_refused', 'denied', { refusal: 'same_staff', requestedBy: request.requested_by });
          return { kind: 'same_staff' };
        }
        // Independent, as a held transfer's second approver must be (decision 050): not linked to the requester by grants of access.
        if (await approversLinked(tx, actor.staffId, [request.requested_by])) {
          await audit('fee.refund_four_eyes_refused', 'denied', { refusal: 'linked_approvers', requestedBy: request.requested_by });
          return { kind: 'linked_staff' };
        }
      }
      let moved: { refundPaymentId: string; toAccountId: string } | null = null;
      if (decision === 'approve') {
        const fee = await lockFeePayment(tx, request.fee_payment_id);
        if (!fee) throw new Error(`fee ${request.fee_payment_id} of refund ${request.id} is not a completed fee`);
        const toAccountId = await refundTargetAccount(tx, fee.from_account_id);
        if (!toAccountId) return { kind: 'no_open_account' };
        moved = { refundPaymentId: await moveRefund(dependencies, tx, fee, toAccountId), toAccountId };
      }
      const status = decision === 'approve' ? 'refunded' : 'rejected';
      if (
        !(await decideRefund(tx, request.id, {
          status,
          decidedBy: actor.staffId,
          reason,
          refundPaymentId: moved?.refundPaymentId ?? null,
          toAccountId: moved?.toAccountId ?? null,
        }))
      )
        throw new Error(`fee refund ${request.id} was locked awaiting approval and could not be decided`);
      await audit(decision === 'approve' ? 'fee.refund_approved' : 'fee.refund_rejected', 'success', {
        requestedBy: request.requested_by,
        customerId: request.customer_id,
        amountCents: Number(request.amount_cents),
        toAccountId: moved?.toAccountId ?? null,
      });
      const row = await findRefund(tx, request.id);
      if (!row) throw new Error(`fee refund ${request.id} disappeared`);
      return { kind: status, refund: presentRefund(row) };
    }),
  );
}
