import type { Queryable } from '../../db/database.ts';
import type { TermsRow } from '../products/service.ts';

/** Every product's terms, oldest first (the products module's columns): a run picks each day's with termsInForce. */
export function allProductTerms(db: Queryable): Promise<TermsRow[]> {
  return db.query<TermsRow>(
    `SELECT id, product_id, effective_from::text AS effective_from, monthly_fee_cents, waiver_min_daily_balance_cents,
            waiver_monthly_deposits_cents, opening_deposit_cents, interest_tiers
       FROM deposit_product_terms ORDER BY product_id, effective_from`,
  );
}
