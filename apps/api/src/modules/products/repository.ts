import type { InterestTier } from '@strongroom/contracts/products.ts';
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

export function listProductRows(db: Queryable): Promise<ProductRow[]> {
  return db.query<ProductRow>(`SELECT id, code, kind, name, position FROM deposit_products ORDER BY kind, position`);
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
    : db.query<TermsRow>(`SELECT ${termsColumns} FROM deposit_product_terms t ORDER BY t.product_id, t.effective_from`);
}
