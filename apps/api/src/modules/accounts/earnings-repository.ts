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

const columnsOf = (queries: readonly EarningsQuery[]) => [
  queries.map((query) => query.customerId),
  queries.map((query) => query.yearStart),
  queries.map((query) => query.monthStart),
  queries.map((query) => query.through),
  queries.map((query) => query.timeZone),
];

function byPosition<Row>(count: number, rows: readonly (Row & { position: string })[]): Row[][] {
  const lists: Row[][] = Array.from({ length: count }, () => []);
  for (const { position, ...row } of rows) lists[Number(position) - 1]?.push(row as Row);
  return lists;
}

async function readAccrualSums(db: Queryable, queries: readonly EarningsQuery[]): Promise<AccrualSumsRow[][]> {
  const rows = await db.query<AccrualSumsRow & { position: string }>(
    `SELECT w.position::text AS position, a.id AS account_id, a.status = 'closed' AS closed,
            coalesce(sum(i.accrued_units) FILTER (WHERE i.day >= w.month_start), 0)::text AS month_units,
            coalesce(sum(i.accrued_units) FILTER (WHERE i.day >= w.month_start AND i.day > paid.paid_through), 0)::text AS unpaid_month_units,
            coalesce(sum(i.accrued_units) FILTER (WHERE i.day > paid.paid_through), 0)::text AS unpaid_year_units
       FROM unnest($1::uuid[], $2::date[], $3::date[], $4::date[], $5::text[]) WITH ORDINALITY AS w (customer_id, year_start, month_start, through, time_zone, position)
       JOIN customer_accounts a ON a.customer_id = w.customer_id
       CROSS JOIN LATERAL (SELECT coalesce(max(s.period_end), '-infinity'::date) AS paid_through FROM monthly_statements s WHERE s.account_id = a.id) paid
       JOIN interest_accruals i ON i.account_id = a.id AND i.day BETWEEN w.year_start AND w.through
      GROUP BY w.position, a.id, a.status`,
    columnsOf(queries),
    { name: 'account_accrual_sums_by_customers' },
  );
  return byPosition(queries.length, rows);
}

async function readChargeSums(db: Queryable, queries: readonly EarningsQuery[]): Promise<ChargeSumsRow[][]> {
  // Dated in the bank's time zone: from the year's first midnight there up to the end of the bank's date.
  const rows = await db.query<ChargeSumsRow & { position: string }>(
    // Per customer in a LATERAL, so each is a probe of payments_customer_charges (migration 0053)
    // whatever the statistics say: as a join, planned while payments was small, it read the whole
    // table for every batch of accounts pages (issue 37).
    `SELECT w.position::text AS position, c.kind, c.account_id, c.month_cents, c.year_cents
       FROM unnest($1::uuid[], $2::date[], $3::date[], $4::date[], $5::text[]) WITH ORDINALITY AS w (customer_id, year_start, month_start, through, time_zone, position)
       CROSS JOIN LATERAL (
         SELECT p.kind, CASE p.kind WHEN 'fee' THEN p.from_account_id ELSE p.to_account_id END AS account_id,
                coalesce(sum(p.amount_cents) FILTER (WHERE p.created_at >= w.month_start::timestamp AT TIME ZONE w.time_zone), 0)::bigint AS month_cents,
                sum(p.amount_cents)::bigint AS year_cents
           FROM payments p
          WHERE p.customer_id = w.customer_id AND p.kind IN ('interest', 'fee', 'fee_refund') AND p.status = 'completed'
            AND p.created_at >= w.year_start::timestamp AT TIME ZONE w.time_zone AND p.created_at < (w.through + 1)::timestamp AT TIME ZONE w.time_zone
          GROUP BY p.kind, 2) AS c`,
    columnsOf(queries),
    { name: 'account_charge_sums_by_customers' },
  );
  return byPosition(queries.length, rows);
}

/** A malformed id has nothing, and never joins (and fails) a statement shared with others. */
function batched<Row>(read: (db: Queryable, queries: readonly EarningsQuery[]) => Promise<Row[][]>): (db: Queryable, query: EarningsQuery) => Promise<Row[]> {
  const lookup = batchedPerDatabase<EarningsQuery, Row[]>(
    (db) => createBatchedLookup({ maxBatch: 200, concurrency: 4, run: (queries) => read(db, queries) }),
    async (db, query) => (await read(db, [query]))[0] ?? [],
  );
  return (db, query) => (uuidPattern.test(query.customerId) ? lookup(db, { ...query, customerId: query.customerId.toLowerCase() }) : Promise.resolve([]));
}

/**
 * The interest each of a customer's accounts accrued this year, closed ones included. The customers
 * asked for at the same moment (every accounts page and dashboard reads these) are read in one
 * statement (db/batched-lookup.ts, decision 044).
 */
export const accrualSumsOf = batched(readAccrualSums);

/** The interest paid into each of a customer's accounts this year, and the fees charged and refunded, in one statement as above. */
export const chargeSumsOf = batched(readChargeSums);
