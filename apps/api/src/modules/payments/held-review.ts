import type { AuditEntry } from '../../platform/audit.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { PaymentDependencies } from './dependencies.ts';
import { decideHeldPayment } from './settlement.ts';
import { deleteApprovals, insertApproval, lockPaymentStatus } from './staff-repository.ts';

/**
 * A staff member's decision on a held payment, with four eyes (PRODUCT.md section 6): a release
 * of FOUR_EYES_CENTS or more needs two different staff members. The first approval is a row of
 * payment_review_approvals; the second, by someone else, releases it through `decideHeldPayment`.
 * Approvals of one payment are taken one at a time under a lock on its row, so two people
 * approving at once are first and second, never both first; and `decideHeldPayment`'s
 * conditional status change lets only one release or rejection win.
 */
export type HeldReviewOutcome = 'released' | 'rejected' | 'awaiting_second_approval' | 'not_found' | 'already_decided' | 'four_eyes_required';

export interface HeldReviewActor {
  /** A staff member's id; null for the ops CLI acting on no one's behalf (it may not release a four-eyes payment). */
  staffId: string | null;
  audit: Pick<AuditEntry, 'ip' | 'userAgent' | 'requestId'>;
}

type ReviewDependencies = Pick<PaymentDependencies, 'db' | 'config' | 'liveEvents'>;

export async function reviewHeldPayment(
  dependencies: ReviewDependencies,
  paymentId: string,
  decision: { action: 'release' | 'reject'; reason: string },
  actor: HeldReviewActor,
): Promise<HeldReviewOutcome> {
  const { db, config } = dependencies;
  const decidedBy = actor.staffId ?? 'ops-cli';
  const step = await db.transaction(async (tx): Promise<HeldReviewOutcome | { firstApprover: string } | 'decide'> => {
    const payment = await lockPaymentStatus(tx, paymentId);
    if (!payment) return 'not_found';
    if (payment.status !== 'in_review') return 'already_decided';
    if (decision.action === 'reject') {
      await deleteApprovals(tx, paymentId);
      return 'decide';
    }
    if (payment.amount_cents < config.fourEyesCents) return 'decide';
    if (!actor.staffId) return 'four_eyes_required';
    const approvals = await tx.query<{ staff_id: string }>('SELECT staff_id FROM payment_review_approvals WHERE payment_id = $1', [paymentId]);
    if (approvals.some((approval) => approval.staff_id === actor.staffId)) return 'four_eyes_required';
    await insertApproval(tx, paymentId, actor.staffId, decision.reason);
    const first = approvals[0];
    return first ? { firstApprover: first.staff_id } : 'awaiting_second_approval';
  });
  if (step === 'awaiting_second_approval' || step === 'four_eyes_required') {
    await recordAudit(db, {
      actorType: 'staff',
      actorId: decidedBy,
      ...actor.audit,
      action: step === 'awaiting_second_approval' ? 'payment.review_first_approval' : 'payment.review_four_eyes_refused',
      subject: paymentId,
      outcome: step === 'awaiting_second_approval' ? 'success' : 'denied',
      details: { reason: decision.reason },
    });
    return step;
  }
  if (step === 'not_found' || step === 'already_decided' || step === 'released' || step === 'rejected') return step;
  const details: AuditEntry['details'] = step === 'decide' ? {} : { firstApprover: step.firstApprover };
  return decideHeldPayment(dependencies, { paymentId, action: decision.action, reason: decision.reason, decidedBy }, { ...actor.audit, details });
}
