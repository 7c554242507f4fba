import type { AuditEntry } from '../../platform/audit.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { PaymentDependencies } from './dependencies.ts';
import { decideHeldPayment } from './settlement.ts';
import { approversLinked } from '../../platform/four-eyes.ts';
import { deleteApprovals, insertApproval, lockPaymentStatus } from './staff-repository.ts';

/**
 * A staff member's decision on a held payment, with four eyes (docs/product.md section 6): a release
 * of FOUR_EYES_CENTS or more needs two different staff members, and independent ones (decision
 * 050): an approver linked to the first by grants of back-office access (one granted the other,
 * directly or through others, or one person granted both) could hold both sets of credentials, so
 * it answers `approvers_linked`, refused as the same person is. The first approval is a row of
 * payment_review_approvals; the second, by someone else, releases it through `decideHeldPayment`.
 * Approvals of one payment are taken one at a time under a lock on its row, so two people
 * approving at once are first and second, never both first; and `decideHeldPayment`'s
 * conditional status change lets only one release or rejection win.
 */
export type HeldReviewOutcome =
  'released' | 'rejected' | 'awaiting_second_approval' | 'not_found' | 'already_decided' | 'four_eyes_required' | 'approvers_linked';

/** Why a release was refused for four eyes, as the audit row names it. */
type FourEyesRefusal = 'no_staff_named' | 'same_approver' | 'linked_approvers';

export interface HeldReviewActor {
  /** A staff member's id; null for the ops CLI acting on no one's behalf (it may not release a four-eyes payment). */
  staffId: string | null;
  audit: Pick<AuditEntry, 'ip' | 'userAgent' | 'requestId'>;
}

type ReviewDependencies = Pick<PaymentDependencies, 'db' | 'config' | 'liveEvents'>;

type ReviewStep =
  'not_found' | 'already_decided' | 'decide' | 'awaiting_second_approval' | { firstApprover: string } | { refused: FourEyesRefusal; firstApprover?: string };

export async function reviewHeldPayment(
  dependencies: ReviewDependencies,
  paymentId: string,
  decision: { action: 'release' | 'reject'; reason: string },
  actor: HeldReviewActor,
): Promise<HeldReviewOutcome> {
  const { db, config } = dependencies;
  const decidedBy = actor.staffId ?? 'ops-cli';
  const step = await db.transaction(async (tx): Promise<ReviewStep> => {
    const payment = await lockPaymentStatus(tx, paymentId);
    if (!payment) return 'not_found';
    if (payment.status !== 'in_review') return 'already_decided';
    if (decision.action === 'reject') {
      await deleteApprovals(tx, paymentId);
      return 'decide';
    }
    if (payment.amount_cents < config.fourEyesCents) return 'decide';
    if (!actor.staffId) return { refused: 'no_staff_named' };
    const approvals = await tx.query<{ staff_id: string }>('SELECT staff_id FROM payment_review_approvals WHERE payment_id = $1', [paymentId]);
    const approvers = approvals.map((approval) => approval.staff_id);
    if (approvers.includes(actor.staffId)) return { refused: 'same_approver' };
    const [first] = approvers;
    // A grant that let someone act as this approver was committed before this request could use
    // it, so this read in the approval's transaction sees it.
    if (first && (await approversLinked(tx, actor.staffId, approvers))) return { refused: 'linked_approvers', firstApprover: first };
    await insertApproval(tx, paymentId, actor.staffId, decision.reason);
    return first ? { firstApprover: first } : 'awaiting_second_approval';
  });
  if (step === 'not_found' || step === 'already_decided') return step;
  const audit: Pick<AuditEntry, 'actorType' | 'actorId' | 'ip' | 'userAgent' | 'requestId' | 'subject'> = {
    actorType: 'staff',
    actorId: decidedBy,
    ...actor.audit,
    subject: paymentId,
  };
  if (step === 'awaiting_second_approval') {
    await recordAudit(db, { ...audit, action: 'payment.review_first_approval', outcome: 'success', details: { reason: decision.reason } });
    return step;
  }
  if (step !== 'decide' && 'refused' in step) {
    const details: AuditEntry['details'] = {
      reason: decision.reason,
      refusal: step.refused,
      ...(step.firstApprover ? { firstApprover: step.firstApprover } : {}),
    };
    await recordAudit(db, { ...audit, action: 'payment.review_four_eyes_refused', outcome: 'denied', details });
    return step.refused === 'linked_approvers' ? 'approvers_linked' : 'four_eyes_required';
  }
  const details: AuditEntry['details'] = step === 'decide' ? {} : { firstApprover: step.firstApprover };
  return decideHeldPayment(dependencies, { paymentId, action: decision.action, reason: decision.reason, decidedBy }, { ...actor.audit, details });
}
