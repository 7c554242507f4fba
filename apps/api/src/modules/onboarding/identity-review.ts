import { z } from 'zod';
import type { Database } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { JobRunner } from '../../platform/jobs/job-runner.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import type { Mailer } from '../../platform/messaging/mailer.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { auditEntryOf, type AuditAction, type StaffActor } from '../../platform/request-actor.ts';
import { openCustomerAccounts } from '../accounts/service.ts';
import { findCustomerById } from '../customers/service.ts';
import { holdBonusOfDuplicate, settleReferralBonuses } from '../referrals/service.ts';
import { decideIdentityReview } from './repository.ts';

export const autoApproveJobKind = 'identity.auto-approve';
const autoApprovePayloadSchema = z.object({ reviewId: z.uuid() });

export interface IdentityDecisionDependencies {
  db: Database;
  mailer: Mailer;
  bankName: string;
  liveEvents: LiveEvents;
}

export interface IdentityDecision {
  reviewId: string;
  decision: 'approved' | 'rejected';
  reason?: string;
  /** The staff member who decided (their request, for the audit entry), or 'sandbox' for the automatic approval. */
  decidedBy: StaffActor | 'sandbox';
}

/**
 * Decides an identity review once. Approval opens the customer's checking and savings accounts
 * (before the decision is recorded, and idempotently, so a crash in between loses nothing) and
 * tells the customer by email and by a notification written with the decision, as does a
 * rejection with its reason. The audit entry is written with the decision; the email follows the
 * commit (a mail server is outside the transaction: a crash in that moment loses it), then the
 * referral bonuses, which a repeated approval finishes.
 */
export async function decideIdentity(dependencies: IdentityDecisionDependencies, decision: IdentityDecision): Promise<'decided' | 'already_decided'> {
  const { db } = dependencies;
  const [review] = await db.query<{ customer_id: string; status: string }>('SELECT customer_id, status FROM identity_reviews WHERE id = $1', [
    decision.reviewId,
  ]);
  if (!review || review.status !== 'submitted') {
    // A repeated approval (a replayed job, a second member of staff) finishes a bonus a crash left unpaid, and pays nothing twice.
    if (review?.status === 'approved') await settleReferralBonuses(dependencies, review.customer_id);
    return 'already_decided';
  }
  if (decision.decision === 'approved') await openCustomerAccounts(db, review.customer_id);
  const rejected = decision.decision === 'rejected';
  // A staff approval keeps its reason too; only a rejection's reason is shown to the customer.
  const reason = rejected ? (decision.reason ?? 'The document could not be read') : (decision.reason ?? null);
  const customerId = await db.transaction(async (tx) => {
    const decided = await decideIdentityReview(tx, {
      reviewId: decision.reviewId,
      status: decision.decision,
      reason,
      decidedBy: decision.decidedBy === 'sandbox' ? 'sandbox' : decision.decidedBy.staffId,
    });
    if (decided) {
      // With the approval, before any settlement can see the bonus as due: a friend who shares a
      // phone, an ID number or a browser with another customer earns nothing until staff decide.
      if (!rejected) await holdBonusOfDuplicate(tx, decided);
      await notifyCustomer(
        tx,
        !rejected || reason === null
          ? {
              customerId: decided,
              kind: 'identity_approved',
              name: 'Identity verified',
              text: 'Your identity has been verified and your accounts are open.',
              link: '/dashboard',
            }
          : {
              customerId: decided,
              kind: 'identity_rejected',
              name: 'Identity not verified',
              text: `We could not verify your identity: ${reason.replace(/[.\s]+$/, '')}. Sign in and send a new document.`,
              link: '/registeration',
            },
      );
      // With the decision, so a crash cannot leave one without the other.
      const entry: AuditAction = {
        action: 'identity.decision',
        subject: decision.reviewId,
        outcome: 'success',
        details: { decision: decision.decision, ...(reason === null ? {} : { reason }) },
      };
      await recordAudit(tx, decision.decidedBy === 'sandbox' ? { actorType: 'system', actorId: 'sandbox', ...entry } : auditEntryOf(decision.decidedBy, entry));
    }
    return decided;
  });
  if (!customerId) return 'already_decided';
  dependencies.liveEvents.publish(customerId, 'notifications');
  if (decision.decision === 'approved') dependencies.liveEvents.publish(customerId, 'accounts');
  const customer = await findCustomerById(db, customerId);
  if (customer) {
    const approved = decision.decision === 'approved';
    await dependencies.mailer.send({
      to: customer.email,
      subject: approved ? `Your ${dependencies.bankName} accounts are open` : 'We could not confirm your identity',
      text: approved
        ? `Hello ${customer.first_name},\n\nWe confirmed your identity. Your checking and savings accounts are open and ready.\n\n${dependencies.bankName}`
        : `Hello ${customer.first_name},\n\nWe could not confirm your identity: ${decision.reason ?? 'the document could not be read'}. Sign in to send a new document.\n\n${dependencies.bankName}`,
    });
  }
  // After the email: a crash while paying bonuses is finished by a repeated approval (above), which
  // sends nothing, so the email must not wait for the bonuses (faults/jobs-under-crashes.test.ts).
  if (decision.decision === 'approved') await settleReferralBonuses(dependencies, customerId);
  return 'decided';
}

export function registerIdentityJobs(jobs: JobRunner, dependencies: IdentityDecisionDependencies): void {
  jobs.register(autoApproveJobKind, async (payload) => {
    const { reviewId } = autoApprovePayloadSchema.parse(payload);
    await decideIdentity(dependencies, { reviewId, decision: 'approved', decidedBy: 'sandbox' });
  });
}
