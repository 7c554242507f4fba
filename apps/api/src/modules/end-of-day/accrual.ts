import type { Queryable } from '../../db/database.ts';
import { addDays } from '../../platform/business-calendar.ts';
import { rateForBalance, termsInForce, type TermsRow } from '../products/service.ts';
import { startOfDayIn } from '../../platform/bank-date.ts';

/**
 * A cent is 1,335,900,000 accrual units (10,000 basis points x 365 x 366, migration 0041), so one
 * day's interest at any rate in basis points, in a year of 365 days or of 366, is a whole number.
 */
export const unitsPerCent = 1_335_900_000n;

/** Accounts whose accruals one statement writes: a day of the largest bank stays a few statements. */
const accrualBatchSize = 5_000;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/**
 * One day's interest in units: balance x rate / 10,000 / days in the year, in 1/1,335,900,000 cent:
 * balance x rateBps x 366 in a year of 365 days, x 365 in a leap year. Nothing on a balance at or
 * below zero or at a zero rate.
 */
export function dailyAccrualUnits(balanceCents: bigint, rateBps: number, day: string): bigint {
  if (balanceCents <= 0n || rateBps <= 0) return 0n;
  const perDay = isLeapYear(Number(day.slice(0, 4))) ? 365n : 366n;
  return balanceCents * BigInt(rateBps) * perDay;
}

interface BalanceRow {
  id: string;
  product_id: string;
  balance: string;
}

/**
 * The end-of-day ledger balance of every customer account open on `day` (opened on or before it,
 * not closed before it) that has no accrual for it yet: the posted balance of its ledger account at
 * the start of the next day in the bank's time zone, that is its posted counters now less what the
 * posted transfers dated at or after that instant added (a transfer counts as posted unless it is a
 * pending one or a void, as check-ledger counts them; a pending transfer's post counts when it posts).
 */
async function endOfDayBalances(db: Queryable, timeZone: string, day: string, accountId: string | null): Promise<BalanceRow[]> {
  return db.query<BalanceRow>(
    `WITH later AS (
       SELECT account_id, sum(delta) AS delta FROM (
         SELECT credit_account_id AS account_id, amount AS delta FROM ledger_transfers WHERE created_at >= $2 AND flags & 10 = 0
         UNION ALL
         SELECT debit_account_id, -amount FROM ledger_transfers WHERE created_at >= $2 AND flags & 10 = 0
       ) AS moves GROUP BY account_id
     )
     SELECT a.id, a.product_id, (l.credits_posted - l.debits_posted - coalesce(later.delta, 0))::text AS balance
       FROM customer_accounts a
       JOIN ledger_accounts l ON l.id = a.ledger_account_id
       LEFT JOIN later ON later.account_id = l.id
      WHERE a.opened_at < $2 AND (a.closed_at IS NULL OR a.closed_at >= $3)
        AND NOT EXISTS (SELECT 1 FROM interest_accruals i WHERE i.account_id = a.id AND i.day = $1::date)
        AND ($4::uuid IS NULL OR a.id = $4::uuid)
      ORDER BY a.id`,
    [day, startOfDayIn(timeZone, addDays(day, 1)), startOfDayIn(timeZone, day), accountId],
  );
}

/**
 * Writes `day`'s accrual of every account open that day, zero-rate ones included (their daily
 * balances decide fee waivers): its end-of-day balance, the rate its product's terms in force that
 * day give that balance, and the exact interest in units. Set-based: one read and one insert per
 * batch of accounts, whatever their number. A rerun writes nothing twice (ON CONFLICT DO NOTHING).
 */
export async function accrueDay(db: Queryable, timeZone: string, terms: readonly TermsRow[], day: string, accountId: string | null = null): Promise<number> {
  const balances = await endOfDayBalances(db, timeZone, day, accountId);
  for (let start = 0; start < balances.length; start += accrualBatchSize) {
    const batch = balances.slice(start, start + accrualBatchSize);
    const rows = batch.map((row) => {
      const inForce = termsInForce(terms, row.product_id, day);
      if (!inForce) throw new Error(`product ${row.product_id} has no terms in force on ${day}`);
      const balance = BigInt(row.balance);
      const rate = rateForBalance(inForce.interest_tiers, balance);
      return { id: row.id, balance, rate, units: dailyAccrualUnits(balance, rate, day) };
    });
    await db.query(
      `INSERT INTO interest_accruals (account_id, day, balance_cents, rate_bps, accrued_units)
       SELECT account_id, $1::date, balance, rate, units
         FROM unnest($2::uuid[], $3::bigint[], $4::integer[], $5::numeric[]) AS r (account_id, balance, rate, units)
       ON CONFLICT (account_id, day) DO NOTHING`,
      [day, rows.map((row) => row.id), rows.map((row) => row.balance.toString()), rows.map((row) => row.rate), rows.map((row) => row.units.toString())],
    );
  }
  return balances.length;
}

/**
 * The days of one account not accrued yet, from the day after its last accrual (or its opening day)
 * up to the day before `beforeDay`, each as the end-of-day job would have: what closing an account
 * accrues before it pays the interest (docs/deposit-products.md, "Opening, changing and closing
 * accounts"), so that the days since the last end of day are paid too. Days already accrued are
 * left as they are.
 */
export async function accrueAccountBefore(db: Queryable, timeZone: string, terms: readonly TermsRow[], accountId: string, beforeDay: string): Promise<void> {
  const [row] = await db.query<{ from_day: string | null }>(
    `SELECT greatest((SELECT max(day) + 1 FROM interest_accruals WHERE account_id = a.id), (a.opened_at AT TIME ZONE $2)::date)::text AS from_day
       FROM customer_accounts a WHERE a.id = $1`,
    [accountId, timeZone],
  );
  if (!row?.from_day) return;
  for (let day = row.from_day; day < beforeDay; day = addDays(day, 1)) await accrueDay(db, timeZone, terms, day, accountId);
}
