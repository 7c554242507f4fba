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

/** One row of `catalogueRead`: one terms row of a product, with the product and the last business day run. */
interface CatalogueRow extends TermsRow {
  last_day_run: string | null;
  code: string;
  kind: ProductRow['kind'];
  name: string;
  position: number;
}

/** The catalogue as `catalogueRows` answers it. */
export interface CatalogueRows {
  /** The last business day the end-of-day job ran (YYYY-MM-DD), null before its first run. */
  lastDayRun: string | null;
  products: ProductRow[];
  /** Every product's terms, oldest first within each product. */
  terms: TermsRow[];
}

/**
 * Every product with its terms, and the last business day run, which says which terms are in
 * force: in one statement instead of three, read once for every request asking at the same moment
 * (every accounts page does, issue 37). A product appears once per terms row it has. An empty
 * catalogue answers no row and so no day: no account can exist without a product to read it for.
 */
const catalogueRead = sharedReadPerDatabase((db) =>
  db.query<CatalogueRow>(
    `SELECT (SELECT max(day)::text FROM business_days WHERE status = 'done') AS last_day_run, p.code, p.kind, p.name, p.position, ${termsColumns}
       FROM deposit_products p JOIN deposit_product_terms t ON t.product_id = p.id
      ORDER BY p.kind, p.position, t.product_id, t.effective_from`,
    [],
    // Prepared once per connection, not planned at each call (0.13 ms).
    { name: 'deposit_catalogue_and_last_day' },
  ),
);

export async function catalogueRows(db: Queryable): Promise<CatalogueRows> {
  const rows = await catalogueRead(db);
  const products = new Map<string, ProductRow>();
  const terms: TermsRow[] = [];
  for (const { last_day_run: _lastDayRun, code, kind, name, position, ...termsRow } of rows) {
    if (!products.has(termsRow.product_id)) products.set(termsRow.product_id, { id: termsRow.product_id, code, kind, name, position });
    terms.push(termsRow);
  }
  return { lastDayRun: rows[0]?.last_day_run ?? null, products: [...products.values()], terms };
}

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
