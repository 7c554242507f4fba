import { sharedSignals, type DuplicateCustomer, type StaffReferralBonus } from '@strongroom/contracts/staff-identity.ts';
import type { Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import { auditEntryOf, type StaffActor } from '../../platform/request-actor.ts';
import { customersSharingIdentity } from '../customers/service.ts';
import { decideHeldReferral, findReferralOfReferred, findStaffReferral, holdReferral, lockPendingReferralOf, type StaffReferralRow } from './repository.ts';
import { settleReferralBonuses, type ReferralDependencies } from './settlement.ts';

/**
 * Self-referral (issue 30 item 8, docs/decisions/051): a friend who shares a verified phone, an ID
 * number or a browser with the referrer, or with any other customer, may be the same person signing
 * up again. Their bonus is held when their identity is approved, in the approval's transaction (so
 * no settlement can pay it first), and waits for staff: paid (then as any other bonus) or refused,
 * each with a reason and an audit entry.
 */
export async function holdBonusOfDuplicate(tx: Queryable, referredCustomerId: string): Promise<void> {
  const referral = await lockPendingReferralOf(tx, referredCustomerId);
  if (!referral) return;
  const sharing = await customersSharingIdentity(tx, referredCustomerId);
  if (sharing.length === 0) return;
  const heldBecause = sharedSignals.filter((signal) => sharing.some((customer) => customer.shares.includes(signal)));
  if (!(await holdReferral(tx, referral.id, heldBecause))) return;
  await recordAudit(tx, {
    actorType: 'system',
    action: 'referral.bonus_held',
    subject: referral.id,
    outcome: 'success',
    details: {
      referredCustomerId,
      heldBecause: heldBecause.join(','),
      sharesWithReferrer: sharing.some((customer) => customer.customerId === referral.referrer_customer_id),
      sharingCustomers: sharing.length,
    },
  });
}

/** Who else shares this customer's identity, for the staff's identity review. */
export async function duplicatesOf(db: Queryable, customerId: string): Promise<DuplicateCustomer[]> {
  const [sharing, referral] = await Promise.all([customersSharingIdentity(db, customerId), findReferralOfReferred(db, customerId)]);
  return sharing.map((customer) => ({
    customerId: customer.customerId,
    name: `${customer.firstName} ${customer.lastName}`,
    shares: customer.shares,
    referrer: customer.customerId === referral?.referrer_customer_id,
  }));
}

function presentBonus(row: StaffReferralRow): StaffReferralBonus {
  return {
    id: row.id,
    status: row.status,
    bonusCents: Number(row.bonus_cents),
    referrerCustomerId: row.referrer_customer_id,
    referrerName: `${row.referrer_first_name} ${row.referrer_last_name}`,
    heldBecause: sharedSignals.filter((signal) => row.held_because?.includes(signal)),
    decidedBy: row.decided_by,
    decidedAt: row.decided_at?.toISOString() ?? null,
    decisionReason: row.decision_reason,
  };
}

/** The bonus this customer's sign-up would pay their referrer, as staff see it; null when nobody referred them. */
export async function referralBonusOf(db: Queryable, referredCustomerId: string): Promise<StaffReferralBonus | null> {
  const row = await findReferralOfReferred(db, referredCustomerId);
  return row ? presentBonus(row) : null;
}

export interface HeldBonusDecision {
  referralId: string;
  decision: 'pay' | 'refuse';
  reason: string;
}

/**
 * `POST /staff/referral-bonuses/{id}/decision`: a held bonus paid or refused, once (a second
 * decision, or one on a bonus that was never held, answers 409 `already_decided`). The decision and
 * its audit entry are one transaction; a paid bonus is then settled like any other, exactly once.
 */
export async function decideHeldBonus(dependencies: ReferralDependencies, actor: StaffActor, decision: HeldBonusDecision): Promise<StaffReferralBonus> {
  const { db } = dependencies;
  const existing = isUuid(decision.referralId) ? await findStaffReferral(db, decision.referralId) : undefined;
  if (!existing) throw new AppError('not_found', 'No such referral bonus');
  const referredCustomerId = await db.transaction(async (tx) => {
    const referred = await decideHeldReferral(tx, {
      referralId: existing.id,
      pay: decision.decision === 'pay',
      staffId: actor.staffId,
      reason: decision.reason,
    });
    if (!referred) return undefined;
    await recordAudit(
      tx,
      auditEntryOf(actor, {
        action: 'referral.bonus_decision',
        subject: existing.id,
        outcome: 'success',
        details: { decision: decision.decision, reason: decision.reason },
      }),
    );
    return referred;
  });
  if (!referredCustomerId) throw new AppError('already_decided', 'This referral bonus is not waiting for a decision');
  if (decision.decision === 'pay') await settleReferralBonuses(dependencies, referredCustomerId);
  const decided = await findStaffReferral(db, existing.id);
  if (!decided) throw new Error(`referral ${existing.id} vanished`);
  return presentBonus(decided);
}
