import { randomUUID } from 'node:crypto';
import type { ProductTerms, ProductTermsChange, StaffProduct, StaffProductList } from '@strongroom/contracts/products.ts';
import type { Config } from '../../config.ts';
import type { Clock } from '../../db/clock.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { auditEntryOf, type StaffActor } from '../../platform/request-actor.ts';
import { bankDate } from '../../platform/bank-date.ts';
import { apyBps } from './apy.ts';
import { listProductRows, listTermsHistory, lockProductRow, upsertScheduledTerms, type ProductRow, type TermsHistoryRow, type TermsRow } from './repository.ts';
import { termsInForce, waiverTextOf } from './service.ts';

export interface ProductDependencies {
  db: Database;
  config: Pick<Config, 'bankTimeZone'>;
  clock?: Clock;
}

function presentTerms(row: TermsHistoryRow, current: TermsRow | undefined, day: string): ProductTerms {
  return {
    id: row.id,
    effectiveFrom: row.effective_from,
    state: row.effective_from > day ? 'scheduled' : row.id === current?.id ? 'current' : 'past',
    monthlyFeeCents: Number(row.monthly_fee_cents),
    waiverMinDailyBalanceCents: row.waiver_min_daily_balance_cents === null ? null : Number(row.waiver_min_daily_balance_cents),
    waiverMonthlyDepositsCents: row.waiver_monthly_deposits_cents === null ? null : Number(row.waiver_monthly_deposits_cents),
    openingDepositCents: Number(row.opening_deposit_cents),
    tiers: row.interest_tiers.map((tier) => ({ ...tier, apyBps: apyBps(tier.rateBps) })),
    waiverText: waiverTextOf(row),
    reason: row.reason,
    staffId: row.staff_id,
    createdAt: row.created_at.toISOString(),
  };
}

function presentStaffProduct(product: ProductRow, history: readonly TermsHistoryRow[], day: string): StaffProduct {
  const own = history.filter((row) => row.product_id === product.id);
  const current = termsInForce(own, product.id, day);
  return { id: product.id, code: product.code, kind: product.kind, name: product.name, terms: own.map((row) => presentTerms(row, current, day)) };
}

/** `GET /staff/products`: every product with its terms, past, in force on the bank's date, and scheduled. */
export async function staffProducts(dependencies: ProductDependencies): Promise<StaffProductList> {
  const { db } = dependencies;
  const [day, products, history] = await Promise.all([bankDate(db, dependencies.config, dependencies.clock), listProductRows(db), listTermsHistory(db)]);
  return { bankDate: day, items: products.map((product) => presentStaffProduct(product, history, day)) };
}

export type TermsChangeOutcome = { kind: 'scheduled'; product: StaffProduct } | { kind: 'not_found' } | { kind: 'effective_date_in_past'; bankDate: string };

/** The terms' facts an audit entry records, as one line of JSON (audit details hold plain values). */
function termsForAudit(terms: TermsRow | undefined): string | null {
  if (!terms) return null;
  return JSON.stringify({
    effectiveFrom: terms.effective_from,
    monthlyFeeCents: Number(terms.monthly_fee_cents),
    waiverMinDailyBalanceCents: terms.waiver_min_daily_balance_cents === null ? null : Number(terms.waiver_min_daily_balance_cents),
    waiverMonthlyDepositsCents: terms.waiver_monthly_deposits_cents === null ? null : Number(terms.waiver_monthly_deposits_cents),
    openingDepositCents: Number(terms.opening_deposit_cents),
    tiers: terms.interest_tiers,
  });
}

async function historyOf(db: Queryable, productId: string): Promise<TermsHistoryRow[]> {
  return (await listTermsHistory(db)).filter((row) => row.product_id === productId);
}

/**
 * `POST /staff/products/{id}/terms` (issue 32 item 1): new terms from a date after the bank's date
 * on. A change never rewrites the past: terms of the bank's date or before are never written, so
 * what a past day earned or cost stays as it was. New terms for a date already scheduled replace
 * them (they have not taken effect). Changes to one product are taken one at a time under a lock
 * on its row; the audit entry records the reason and the terms before (those that would have
 * been in force on that date) and after.
 */
export async function scheduleTerms(
  dependencies: ProductDependencies,
  productId: string,
  change: ProductTermsChange,
  actor: StaffActor,
): Promise<TermsChangeOutcome> {
  const { db } = dependencies;
  const outcome = await db.transaction(async (tx): Promise<TermsChangeOutcome | { kind: 'written'; before: TermsRow | undefined }> => {
    const product = await lockProductRow(tx, productId);
    if (!product) return { kind: 'not_found' };
    const day = await bankDate(tx, dependencies.config, dependencies.clock);
    if (change.effectiveFrom <= day) return { kind: 'effective_date_in_past', bankDate: day };
    const before = termsInForce(await historyOf(tx, productId), productId, change.effectiveFrom);
    await upsertScheduledTerms(tx, {
      id: randomUUID(),
      productId,
      effectiveFrom: change.effectiveFrom,
      monthlyFeeCents: BigInt(change.monthlyFeeCents),
      waiverMinDailyBalanceCents: change.waiverMinDailyBalanceCents === null ? null : BigInt(change.waiverMinDailyBalanceCents),
      waiverMonthlyDepositsCents: change.waiverMonthlyDepositsCents === null ? null : BigInt(change.waiverMonthlyDepositsCents),
      openingDepositCents: BigInt(change.openingDepositCents),
      interestTiers: change.tiers.map((tier) => ({ fromCents: tier.fromCents, rateBps: tier.rateBps })),
      reason: change.reason,
      staffId: actor.staffId,
    });
    const after = termsInForce(await historyOf(tx, productId), productId, change.effectiveFrom);
    await recordAudit(
      tx,
      auditEntryOf(actor, {
        action: 'product.terms_scheduled',
        subject: productId,
        outcome: 'success',
        details: {
          reason: change.reason,
          product: product.code,
          effectiveFrom: change.effectiveFrom,
          replacedScheduled: before?.effective_from === change.effectiveFrom,
          before: termsForAudit(before),
          after: termsForAudit(after),
        },
      }),
    );
    return { kind: 'written', before };
  });
  if (outcome.kind !== 'written') return outcome;
  const list = await staffProducts(dependencies);
  const product = list.items.find((item) => item.id === productId);
  if (!product) throw new Error(`product ${productId} disappeared after its terms were scheduled`);
  return { kind: 'scheduled', product };
}
