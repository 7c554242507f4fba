import type { InterestTier } from '@strongroom/contracts/products.ts';
import { sharedReadPerDatabase } from '../../db/batched-lookup.ts';
import type { Queryable } from '../../db/database.ts';

export interface ProductRow {
  id: string;
  code: string;
  kind: 'checking' | 'savings';
  name: string;
  position: number;
}

/** A product's terms from `effective_from` on (migration 0041): a change is a new row, dated ahead. */
export interface TermsRow {
  id: string;
  product_id: string;
  /** YYYY-MM-DD. */
  effective_from: string;
  monthly_fee_cents: bigint;
  waiver_min_daily_balance_cents: bigint | null;
  waiver_monthly_deposits_cents: bigint | null;
  opening_deposit_cents: bigint;
  interest_tiers: InterestTier[];
}

const termsColumns = `t.id, t.product_id, t.effective_from::text AS effective_from, t.monthly_fee_cents, t.waiver_min_daily_balance_cents,
  t.waiver_monthly_deposits_cents, t.opening_deposit_cents, t.interest_tiers`;

/** The catalogue, read once for every request asking at the same moment (every accounts page does). */
export const listProductRows = sharedReadPerDatabase((db) =>
  db.query<ProductRow>(`SELECT id, code, kind, name, position FROM deposit_products ORDER BY kind, position`),
);

const listAllTermsRows = sharedReadPerDatabase((db) =>
  db.query<TermsRow>(`SELECT ${termsColumns} FROM deposit_product_terms t ORDER BY t.product_id, t.effective_from`),
);

export async function findProductRow(db: Queryable, productId: string): Promise<ProductRow | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(productId)) return undefined;
  const [row] = await db.query<ProductRow>(`SELECT id, code, kind, name, position FROM deposit_products WHERE id = $1`, [productId]);
  return row;
}

/** Every product's terms, oldest first: the service picks the ones in force on a day. */
export function listTermsRows(db: Queryable, productIds?: readonly string[]): Promise<TermsRow[]> {
  return productIds
    ? db.query<TermsRow>(`SELECT ${termsColumns} FROM deposit_product_terms t WHERE t.product_id = ANY($1::uuid[]) ORDER BY t.product_id, t.effective_from`, [
        productIds,
      ])
    : listAllTermsRows(db);
}

/** A terms row as staff see it, with who set it, why and when. */
export interface TermsHistoryRow extends TermsRow {
  reason: string;
  staff_id: string | null;
  created_at: Date;
}

/** Every product's terms history, oldest first within each product. */
export function listTermsHistory(db: Queryable): Promise<TermsHistoryRow[]> {
  return db.query<TermsHistoryRow>(
    `SELECT ${termsColumns}, t.reason, t.staff_id, t.created_at FROM deposit_product_terms t ORDER BY t.product_id, t.effective_from`,
  );
}

/** Locks the product's row until the transaction ends: changes to one product's terms are made one at a time. */
export async function lockProductRow(tx: Queryable, productId: string): Promise<ProductRow | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(productId)) return undefined;
  const [row] = await tx.query<ProductRow>(`SELECT id, code, kind, name, position FROM deposit_products WHERE id = $1 FOR UPDATE`, [productId]);
  return row;
}

export interface NewTerms {
  id: string;
  productId: string;
  effectiveFrom: string;
  monthlyFeeCents: bigint;
  waiverMinDailyBalanceCents: bigint | null;
  waiverMonthlyDepositsCents: bigint | null;
  openingDepositCents: bigint;
  interestTiers: readonly InterestTier[];
  reason: string;
  staffId: string;
}

/**
 * Writes terms from a future date on; terms already scheduled for that same date (not yet in
 * force) are replaced. The caller has checked that the date is after the bank's date.
 */
export async function upsertScheduledTerms(tx: Queryable, terms: NewTerms): Promise<void> {
  await tx.query(
    `INSERT INTO deposit_product_terms
       (id, product_id, effective_from, monthly_fee_cents, waiver_min_daily_balance_cents, waiver_monthly_deposits_cents, opening_deposit_cents, interest_tiers, reason, staff_id)
     VALUES ($1, $2, $3::date, $4, $5, $6, $7, $8::jsonb, $9, $10)
     ON CONFLICT (product_id, effective_from) DO UPDATE SET
       monthly_fee_cents = EXCLUDED.monthly_fee_cents,
       waiver_min_daily_balance_cents = EXCLUDED.waiver_min_daily_balance_cents,
       waiver_monthly_deposits_cents = EXCLUDED.waiver_monthly_deposits_cents,
       opening_deposit_cents = EXCLUDED.opening_deposit_cents,
       interest_tiers = EXCLUDED.interest_tiers,
       reason = EXCLUDED.reason,
       staff_id = EXCLUDED.staff_id,
       created_at = now()`,
    [
      terms.id,
      terms.productId,
      terms.effectiveFrom,
      terms.monthlyFeeCents,
      terms.waiverMinDailyBalanceCents,
      terms.waiverMonthlyDepositsCents,
      terms.openingDepositCents,
      JSON.stringify(terms.interestTiers),
      terms.reason,
      terms.staffId,
    ],
  );
}
