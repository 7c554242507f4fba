import { batchedPerDatabase, createBatchedLookup } from '../../db/batched-lookup.ts';
import type { Queryable } from '../../db/database.ts';

/** One customer's year so far in the bank's calendar: dates YYYY-MM-DD, the bank's time zone for instants. */
export interface EarningsQuery {
  customerId: string;
  yearStart: string;
  monthStart: string;
  /** The bank's date: nothing after it counts. */
  through: string;
  timeZone: string;
}

/**
 * An account's interest accrued this year (migration 0041's units), as decimal strings: this
 * month's, and of what is not paid yet (the days after its last statement, whose transaction posted
 * the interest up to its end), this month's and this year's.
 */
export interface AccrualSumsRow {
  account_id: string;
  closed: boolean;
  month_units: string;
  unpaid_month_units: string;
  unpaid_year_units: string;
}

/** What interest, fees and fee refunds moved for an account this year, and this month. */
export interface ChargeSumsRow {
  account_id: string;
  kind: 'interest' | 'fee' | 'fee_refund';
  month_cents: bigint;
  year_cents: bigint;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One row of `readEarningsSums`: an account's accruals, or one kind of its charges. */
type EarningsSumsRow = ({ position: string; part: 'accrual' } & AccrualSumsRow) | ({ position: string; part: 'charge' } & ChargeSumsRow);

/** What one customer's accounts accrued and were charged this year (`earningsSumsOf`). */
export interface EarningsSums {
  accruals: AccrualSumsRow[];
  charges: ChargeSumsRow[];
}

/**
 * Interest accrued, per account, and interest paid, fees charged and fees refunded, per account and
 * kind: two reads in one statement (issue 37), each row saying which it is. The arrays come through
 * a subquery PostgreSQL does not flatten, so it keeps the prepared statement's generic plan
 * instead of planning each batch afresh (0.3 ms a batch).
 */
async function readEarningsSums(db: Queryable, queries: readonly EarningsQuery[]): Promise<EarningsSums[]> {
  const rows = await db.query<EarningsSumsRow>(
    `WITH w AS (
       SELECT w.* FROM (SELECT $1::uuid[] AS customers, $2::date[] AS year_starts, $3::date[] AS month_starts, $4::date[] AS throughs, $5::text[] AS zones OFFSET 0) AS batch
         CROSS JOIN LATERAL unnest(batch.customers, batch.year_starts, batch.month_starts, batch.throughs, batch.zones)
           WITH ORDINALITY AS w (customer_id, year_start, month_start, through, time_zone, position)
     )
     -- Each customer's accounts, and each account's accruals, through index probes (a LATERAL that
     -- PostgreSQL cannot make a join: OFFSET 0, an aggregate), which the generic plan cannot turn
     -- into reads of the whole tables (decision 081). An account with no accrual this year has no row.
     SELECT w.position::text AS position, 'accrual' AS part, a.id AS account_id, a.status = 'closed' AS closed, NULL::text AS kind,
            i.month_units, i.unpaid_month_units, i.unpaid_year_units, NULL::bigint AS month_cents, NULL::bigint AS year_cents
       FROM w
       CROSS JOIN LATERAL (SELECT a.id, a.status FROM customer_accounts a WHERE a.customer_id = w.customer_id OFFSET 0) a
       CROSS JOIN LATERAL (SELECT coalesce(max(s.period_end), '-infinity'::date) AS paid_through FROM monthly_statements s WHERE s.account_id = a.id) paid
       CROSS JOIN LATERAL (
         SELECT coalesce(sum(i.accrued_units) FILTER (WHERE i.day >= w.month_start), 0)::text AS month_units,
                coalesce(sum(i.accrued_units) FILTER (WHERE i.day >= w.month_start AND i.day > paid.paid_through), 0)::text AS unpaid_month_units,
                coalesce(sum(i.accrued_units) FILTER (WHERE i.day > paid.paid_through), 0)::text AS unpaid_year_units
           FROM interest_accruals i WHERE i.account_id = a.id AND i.day BETWEEN w.year_start AND w.through
         HAVING count(*) > 0) i
     UNION ALL
     -- Per customer in a LATERAL, so each is a probe of payments_customer_charges (migration 0053)
     -- whatever the statistics say: as a join, planned while payments was small, it read the whole
     -- table for every batch of accounts pages (issue 37).
     SELECT w.position::text, 'charge', c.account_id, NULL, c.kind, NULL, NULL, NULL, c.month_cents, c.year_cents
       FROM w CROSS JOIN LATERAL (
         SELECT p.kind, CASE p.kind WHEN 'fee' THEN p.from_account_id ELSE p.to_account_id END AS account_id,
                coalesce(sum(p.amount_cents) FILTER (WHERE p.created_at >= w.month_start::timestamp AT TIME ZONE w.time_zone), 0)::bigint AS month_cents,
                sum(p.amount_cents)::bigint AS year_cents
           FROM payments p
          WHERE p.customer_id = w.customer_id AND p.kind IN ('interest', 'fee', 'fee_refund') AND p.status = 'completed'
            AND p.created_at >= w.year_start::timestamp AT TIME ZONE w.time_zone AND p.created_at < (w.through + 1)::timestamp AT TIME ZONE w.time_zone
          GROUP BY p.kind, 2) AS c`,
    [
      queries.map((query) => query.customerId),
      queries.map((query) => query.yearStart),
      queries.map((query) => query.monthStart),
      queries.map((query) => query.through),
      queries.map((query) => query.timeZone),
    ],
    { name: 'account_earnings_sums_by_customers' },
  );
  const sums: EarningsSums[] = queries.map(() => ({ accruals: [], charges: [] }));
  for (const row of rows) {
    const of = sums[Number(row.position) - 1];
    if (!of) continue;
    if (row.part === 'accrual') {
      of.accruals.push({
        account_id: row.account_id,
        closed: row.closed,
        month_units: row.month_units,
        unpaid_month_units: row.unpaid_month_units,
        unpaid_year_units: row.unpaid_year_units,
      });
    } else {
      of.charges.push({ account_id: row.account_id, kind: row.kind, month_cents: row.month_cents, year_cents: row.year_cents });
    }
  }
  return sums;
}

// Two statements in flight, not four: only pages read it, and larger batches cost a read less (decision 081).
const earningsSumsBatched = batchedPerDatabase<EarningsQuery, EarningsSums>(
  (db) => createBatchedLookup({ maxBatch: 200, concurrency: 2, run: (queries) => readEarningsSums(db, queries) }),
  async (db, query) => (await readEarningsSums(db, [query]))[0] ?? { accruals: [], charges: [] },
);

/**
 * The interest each of a customer's accounts accrued this year, closed ones included, and the
 * interest paid into each this year and the fees charged and refunded. The customers asked for at
 * the same moment (every accounts page and dashboard reads these) are read in one statement
 * (db/batched-lookup.ts, decision 044). A malformed id has nothing, and never joins (and fails) a
 * statement shared with others.
 */
export function earningsSumsOf(db: Queryable, query: EarningsQuery): Promise<EarningsSums> {
  return uuidPattern.test(query.customerId)
    ? earningsSumsBatched(db, { ...query, customerId: query.customerId.toLowerCase() })
    : Promise.resolve({ accruals: [], charges: [] });
}
