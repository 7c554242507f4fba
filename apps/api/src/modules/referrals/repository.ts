import type { Queryable } from '../../db/database.ts';

export async function findReferralCode(db: Queryable, customerId: string): Promise<string | undefined> {
  const [row] = await db.query<{ code: string }>('SELECT code FROM referral_codes WHERE customer_id = $1', [customerId]);
  return row?.code;
}

/** Gives the customer this code unless they have one or another customer holds it; answers whether it was stored. */
export async function insertReferralCode(db: Queryable, customerId: string, code: string): Promise<boolean> {
  const rows = await db.query('INSERT INTO referral_codes (customer_id, code) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1', [customerId, code]);
  return rows.length > 0;
}

export async function findCodeOwner(db: Queryable, code: string): Promise<string | undefined> {
  const [row] = await db.query<{ customer_id: string }>('SELECT customer_id FROM referral_codes WHERE code = $1', [code]);
  return row?.customer_id;
}

export async function insertReferral(
  db: Queryable,
  referral: { id: string; referrerCustomerId: string; referredCustomerId: string; bonusCents: bigint; bonusTransferId: string },
): Promise<void> {
  await db.query(
    `INSERT INTO referrals (id, referrer_customer_id, referred_customer_id, status, bonus_cents, bonus_transfer_id)
     VALUES ($1, $2, $3, 'pending', $4, $5) ON CONFLICT (referred_customer_id) DO NOTHING`,
    [referral.id, referral.referrerCustomerId, referral.referredCustomerId, referral.bonusCents, referral.bonusTransferId],
  );
}

export type ReferralState = 'pending' | 'held' | 'paid' | 'refused';

export interface ReferralRow {
  id: string;
  status: ReferralState;
  bonus_cents: bigint;
  created_at: Date;
  paid_at: Date | null;
}

/** The referrer's own referrals, newest first: no column of the referred customer is read. */
export async function listReferrals(db: Queryable, referrerCustomerId: string, limit: number): Promise<ReferralRow[]> {
  return db.query<ReferralRow>(
    `SELECT id, status, bonus_cents, created_at, paid_at FROM referrals
      WHERE referrer_customer_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [referrerCustomerId, limit],
  );
}

export async function referralTotals(db: Queryable, referrerCustomerId: string): Promise<{ pending: number; paid: number; paidCents: bigint }> {
  const [row] = await db.query<{ pending: number; paid: number; paid_cents: bigint }>(
    `SELECT count(*) FILTER (WHERE status IN ('pending', 'held'))::int AS pending,
            count(*) FILTER (WHERE status = 'paid')::int AS paid,
            coalesce(sum(bonus_cents) FILTER (WHERE status = 'paid'), 0)::bigint AS paid_cents
       FROM referrals WHERE referrer_customer_id = $1`,
    [referrerCustomerId],
  );
  return { pending: row?.pending ?? 0, paid: row?.paid ?? 0, paidCents: BigInt(row?.paid_cents ?? 0n) };
}

export interface DueBonusRow {
  id: string;
  referrer_customer_id: string;
  referred_customer_id: string;
  referred_first_name: string;
  bonus_cents: bigint;
  bonus_transfer_id: string;
  checking_account_id: string;
  checking_ledger_account_id: string;
}

/**
 * Pending referrals that can be paid now, where this customer is either side: the referred
 * customer's identity is approved and the referrer has an open checking account.
 */
export async function dueBonuses(db: Queryable, customerId: string, limit: number): Promise<DueBonusRow[]> {
  return db.query<DueBonusRow>(
    `SELECT r.id, r.referrer_customer_id, r.referred_customer_id, referred.first_name AS referred_first_name,
            r.bonus_cents, r.bonus_transfer_id, checking.id AS checking_account_id, checking.ledger_account_id AS checking_ledger_account_id
       FROM referrals r
       JOIN customers referred ON referred.id = r.referred_customer_id
       JOIN LATERAL (
         SELECT id, ledger_account_id FROM customer_accounts
          WHERE customer_id = r.referrer_customer_id AND type = 'checking' AND status <> 'closed' AND ledger_account_id IS NOT NULL
          ORDER BY opened_at LIMIT 1
       ) checking ON true
      WHERE r.status = 'pending'
        AND (r.referred_customer_id = $1 OR r.referrer_customer_id = $1)
        AND EXISTS (SELECT 1 FROM identity_reviews ir WHERE ir.customer_id = r.referred_customer_id AND ir.status = 'approved')
      ORDER BY r.created_at LIMIT $2`,
    [customerId, limit],
  );
}

/** Marks a referral paid once; answers false when another caller already did. */
export async function markReferralPaid(db: Queryable, referralId: string): Promise<boolean> {
  const rows = await db.query("UPDATE referrals SET status = 'paid', paid_at = now() WHERE id = $1 AND status = 'pending' RETURNING 1", [referralId]);
  return rows.length > 0;
}

/** The referral that brought this customer, while nothing was decided about its bonus; locked for the decision. */
export async function lockPendingReferralOf(tx: Queryable, referredCustomerId: string): Promise<{ id: string; referrer_customer_id: string } | undefined> {
  const [row] = await tx.query<{ id: string; referrer_customer_id: string }>(
    "SELECT id, referrer_customer_id FROM referrals WHERE referred_customer_id = $1 AND status = 'pending' FOR UPDATE",
    [referredCustomerId],
  );
  return row;
}

export async function holdReferral(tx: Queryable, referralId: string, heldBecause: readonly string[]): Promise<boolean> {
  const rows = await tx.query("UPDATE referrals SET status = 'held', held_because = $2 WHERE id = $1 AND status = 'pending' RETURNING 1", [
    referralId,
    heldBecause,
  ]);
  return rows.length > 0;
}

/**
 * Staff's decision on a held bonus, once: paid goes back to `pending` (the settlement pays it, or
 * waits for the referrer's checking account), refused ends it. Answers the referred customer, or
 * undefined when the bonus was not held (missing, decided already, or never held).
 */
export async function decideHeldReferral(
  tx: Queryable,
  decision: { referralId: string; pay: boolean; staffId: string; reason: string },
): Promise<string | undefined> {
  const [row] = await tx.query<{ referred_customer_id: string }>(
    `UPDATE referrals SET status = CASE WHEN $2 THEN 'pending' ELSE 'refused' END, decided_by = $3, decision_reason = $4, decided_at = now()
      WHERE id = $1 AND status = 'held' RETURNING referred_customer_id`,
    [decision.referralId, decision.pay, decision.staffId, decision.reason],
  );
  return row?.referred_customer_id;
}

export interface StaffReferralRow {
  id: string;
  status: ReferralState;
  bonus_cents: bigint;
  referrer_customer_id: string;
  referrer_first_name: string;
  referrer_last_name: string;
  held_because: string[] | null;
  decided_by: string | null;
  decided_at: Date | null;
  decision_reason: string | null;
}

const staffReferralColumns = `r.id, r.status, r.bonus_cents, r.referrer_customer_id, referrer.first_name AS referrer_first_name,
  referrer.last_name AS referrer_last_name, r.held_because, r.decided_by, r.decided_at, r.decision_reason`;

/** For staff: the referral that brought this customer, with the referrer's name. */
export async function findReferralOfReferred(db: Queryable, referredCustomerId: string): Promise<StaffReferralRow | undefined> {
  const [row] = await db.query<StaffReferralRow>(
    `SELECT ${staffReferralColumns} FROM referrals r JOIN customers referrer ON referrer.id = r.referrer_customer_id WHERE r.referred_customer_id = $1`,
    [referredCustomerId],
  );
  return row;
}

export async function findStaffReferral(db: Queryable, referralId: string): Promise<StaffReferralRow | undefined> {
  const [row] = await db.query<StaffReferralRow>(
    `SELECT ${staffReferralColumns} FROM referrals r JOIN customers referrer ON referrer.id = r.referrer_customer_id WHERE r.id = $1`,
    [referralId],
  );
  return row;
}
