import type { InterestTier } from '@strongroom/contracts/products.ts';
import { batchedPerDatabase, createBatchedLookup } from '../../db/batched-lookup.ts';
import type { Queryable } from '../../db/database.ts';
import { accountToShowOf, shownAccountsColumns, shownAccountsJoins, uuidPattern, type AccountToShow, type AccountToShowRow } from './repository.ts';

/** Whose accounts page, and today's date in the bank's time zone (YYYY-MM-DD), which the bank's date is worked out from. */
export interface AccountsPageQuery {
  customerId: string;
  today: string;
  timeZone: string;
}

/**
 * What an account shown on the accounts page earns (earnings.ts turns it into figures): its
 * product's name and the interest tiers of the terms in force on the bank's date (null when the
 * product or its terms are missing, which earnings.ts refuses), and this year's interest as
 * `earnings-repository.ts` sums it: accrued this month and accrued and not paid yet (migration
 * 0041's units, decimal strings), and paid this year (cents).
 */
export interface ShownAccountEarnings {
  productName: string | null;
  interestTiers: InterestTier[] | null;
  monthUnits: string;
  unpaidYearUnits: string;
  interestPaidYearCents: bigint;
}

export interface AccountsPage {
  /** The bank's date (docs/deposit-products.md, "The business day"), YYYY-MM-DD. */
  bankDate: string;
  identityApproved: boolean;
  accounts: Array<AccountToShow & { earnings: ShownAccountEarnings }>;
}

type AccountsPageRow = (AccountToShowRow | { position: string; identity_approved: boolean; id: null }) & {
  bank_date: string;
  product_name: string | null;
  interest_tiers: InterestTier[] | null;
  month_units: string;
  unpaid_year_units: string;
  interest_paid_year_cents: bigint;
};

/**
 * The accounts page (`GET /accounts`) in one statement: the accounts as they are shown
 * (repository.ts), the bank's date (the later of today and the last business day run, as
 * platform/bank-date.ts works it out), each account's product and the terms in force that day, and
 * its interest this year: the same sums as the dashboard's (earnings-repository.ts), for the open
 * accounts the page shows. It was three statements (the accounts, the catalogue with the last day
 * run, the earnings), each a round trip that cost more than the reading (issue 37, decision 085).
 */
async function readAccountsPages(db: Queryable, queries: readonly AccountsPageQuery[]): Promise<AccountsPage[]> {
  const rows = await db.query<AccountsPageRow>(
    `SELECT w.position::text AS position, w.through::text AS bank_date, ${shownAccountsColumns},
            product.name AS product_name, terms.interest_tiers,
            coalesce(accrued.month_units, '0') AS month_units, coalesce(accrued.unpaid_year_units, '0') AS unpaid_year_units,
            coalesce(paid.cents, 0)::bigint AS interest_paid_year_cents
       -- The batch through a subquery PostgreSQL does not flatten, as the accounts to show
       -- (repository.ts); the bank's date worked out once for each page (OFFSET 0), the last business
       -- day run read once for the whole batch.
       FROM (SELECT $1::uuid[] AS ids, $2::date[] AS todays, $3::text[] AS zones OFFSET 0) AS batch
       CROSS JOIN LATERAL unnest(batch.ids, batch.todays, batch.zones) WITH ORDINALITY AS asked (customer_id, today, time_zone, position)
       CROSS JOIN LATERAL (
         SELECT asked.customer_id, asked.position, asked.time_zone, day.through,
                date_trunc('year', day.through::timestamp)::date AS year_start, date_trunc('month', day.through::timestamp)::date AS month_start
           FROM (SELECT greatest(asked.today, (SELECT max(b.day) FROM business_days b WHERE b.status = 'done')) AS through) day
         OFFSET 0
       ) w
       ${shownAccountsJoins}
       LEFT JOIN LATERAL (SELECT p.name FROM deposit_products p WHERE p.id = a.product_id) product ON true
       LEFT JOIN LATERAL (
         SELECT t.interest_tiers FROM deposit_product_terms t
          WHERE t.product_id = a.product_id AND t.effective_from <= w.through
          ORDER BY t.effective_from DESC LIMIT 1
       ) terms ON true
       -- Interest is paid by the statement that closes a month: what accrued after the last one is unpaid.
       LEFT JOIN LATERAL (SELECT max(s.period_end) AS through FROM monthly_statements s WHERE s.account_id = a.id) statement ON a.id IS NOT NULL
       LEFT JOIN LATERAL (
         SELECT sum(i.accrued_units) FILTER (WHERE i.day >= w.month_start)::text AS month_units,
                sum(i.accrued_units) FILTER (WHERE statement.through IS NULL OR i.day > statement.through)::text AS unpaid_year_units
           FROM interest_accruals i WHERE i.account_id = a.id AND i.day BETWEEN w.year_start AND w.through
       ) accrued ON a.id IS NOT NULL
       -- A probe of payments_customer_charges (migration 0053), as the dashboard's sums are.
       LEFT JOIN LATERAL (
         SELECT sum(p.amount_cents) AS cents FROM payments p
          WHERE p.customer_id = w.customer_id AND p.kind IN ('interest', 'fee', 'fee_refund') AND p.status = 'completed'
            AND p.kind = 'interest' AND p.to_account_id = a.id
            AND p.created_at >= w.year_start::timestamp AT TIME ZONE w.time_zone AND p.created_at < (w.through + 1)::timestamp AT TIME ZONE w.time_zone
       ) paid ON a.id IS NOT NULL
      ORDER BY w.position, a.opened_at, a.type`,
    [queries.map((query) => query.customerId), queries.map((query) => query.today), queries.map((query) => query.timeZone)],
    { name: 'customer_accounts_page' },
  );
  const pages: AccountsPage[] = queries.map((query) => ({ bankDate: query.today, identityApproved: false, accounts: [] }));
  for (const row of rows) {
    const page = pages[Number(row.position) - 1];
    if (!page) continue;
    page.bankDate = row.bank_date;
    page.identityApproved = row.identity_approved;
    const account = accountToShowOf(row);
    if (!account) continue;
    page.accounts.push({
      ...account,
      earnings: {
        productName: row.product_name,
        interestTiers: row.interest_tiers,
        monthUnits: row.month_units,
        unpaidYearUnits: row.unpaid_year_units,
        interestPaidYearCents: row.interest_paid_year_cents,
      },
    });
  }
  return pages;
}

// Two statements in flight, as the accounts to show (decision 081).
const accountsPagesBatched = batchedPerDatabase<AccountsPageQuery, AccountsPage>(
  (db) => createBatchedLookup({ maxBatch: 200, concurrency: 2, run: (queries) => readAccountsPages(db, queries) }),
  async (db, query) => (await readAccountsPages(db, [query]))[0] ?? { bankDate: query.today, identityApproved: false, accounts: [] },
);

/**
 * One customer's accounts page; the pages asked for at the same moment come from one statement
 * (db/batched-lookup.ts, decision 044). A malformed id has no accounts, and never joins (and
 * fails) a statement shared with others; nor does a malformed date.
 */
export function accountsPageOf(db: Queryable, query: AccountsPageQuery): Promise<AccountsPage> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(query.today)) throw new Error(`not a date: ${query.today}`);
  return uuidPattern.test(query.customerId)
    ? accountsPagesBatched(db, { ...query, customerId: query.customerId.toLowerCase() })
    : Promise.resolve({ bankDate: query.today, identityApproved: false, accounts: [] });
}
