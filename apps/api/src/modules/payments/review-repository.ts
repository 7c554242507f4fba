import { batchedPerDatabase, createBatchedLookup } from '../../db/batched-lookup.ts';
import type { Queryable } from '../../db/database.ts';

/**
 * What the review rules (review-rules.ts, D1 and D10) read of a customer's earlier payments: payees
 * paid before, what new payees took lately, and today's deposits. Reads only: the payments table
 * is written in repository.ts alone.
 */

/**
 * A payee paid successfully before, completed or pending (D10: the first payment to a new payee
 * needs a step-up); the ones asked at the same moment are read in one statement.
 */
export function hasPaidPayee(db: Queryable, customerId: string, payeeKey: string): Promise<boolean> {
  return hasPaidPayeeBatched(db, { customerId, payeeKey });
}

interface PayeeOfCustomer {
  customerId: string;
  payeeKey: string;
}

async function readPaidPayees(db: Queryable, asked: readonly PayeeOfCustomer[]): Promise<boolean[]> {
  const rows = await db.query<{ position: string }>(
    // LIMIT 1 in a LATERAL keeps PostgreSQL walking payments_customer_payee for each pair, stopping
    // at the first payment that counts. As EXISTS it planned a semi-join that read the whole
    // payments table for every batch (issue 37: a tenth of an internal transfer's database time).
    `SELECT a.position::text AS position FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS a (customer_id, payee_key, position)
       CROSS JOIN LATERAL (SELECT 1 FROM payments p
                            WHERE p.customer_id = a.customer_id AND p.payee_key = a.payee_key AND p.status IN ('completed', 'pending')
                            LIMIT 1) AS paid`,
    [asked.map((pair) => pair.customerId), asked.map((pair) => pair.payeeKey)],
    { name: 'payments_paid_payees' },
  );
  const paid = new Set(rows.map((row) => Number(row.position)));
  return asked.map((_, index) => paid.has(index + 1));
}

const hasPaidPayeeBatched = batchedPerDatabase<PayeeOfCustomer, boolean>(
  (db) => createBatchedLookup({ maxBatch: 200, concurrency: 4, run: (asked) => readPaidPayees(db, asked) }),
  async (db, pair) => (await readPaidPayees(db, [pair]))[0] ?? false,
);

/** What D1's rules need to know of one customer's earlier payments to one payee (review-rules.ts). */
export interface ReviewFacts {
  /** When this customer first paid this payee (any payment not refused), or null if never. */
  firstPaidAt: Date | null;
  /**
   * What this customer sent in the last 24 hours to payees first paid in the last 24 hours (D1's
   * second rule); summed only when one of the payees asked about with it is new (else 0: no rule needs it).
   */
  newPayeeSpendCents: bigint;
}

/**
 * The review facts of several (customer, payee) pairs in one statement (decision 044): a group of
 * payments to other people asks once, however many. Answers in the order asked.
 */
export async function reviewFacts(db: Queryable, asked: readonly { customerId: string; payeeKey: string }[]): Promise<ReviewFacts[]> {
  if (asked.length === 0) return [];
  const rows = await db.query<{ position: string; first_at: Date | null; spent: bigint | null }>(
    `WITH asked AS (
       SELECT a.customer_id, a.payee_key, a.position,
              (SELECT min(p.created_at) FROM payments p
                WHERE p.customer_id = a.customer_id AND p.payee_key = a.payee_key AND p.status IN ('creating', 'completed', 'pending', 'in_review')) AS first_at
         FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS a (customer_id, payee_key, position)),
     -- What went to new payees is summed only for a customer paying a new payee now (never paid,
     -- or first paid within the day; an hour more, so that the application's clock, which decides
     -- newness, can never find a payee new whose spend was not summed).
     customers AS (SELECT DISTINCT customer_id FROM asked WHERE first_at IS NULL OR first_at > now() - interval '25 hours'),
     spent AS (
       SELECT c.customer_id, (
         WITH first_paid AS (
           SELECT payee_key, min(created_at) AS first_at FROM payments
            WHERE customer_id = c.customer_id AND payee_key IS NOT NULL AND status IN ('creating', 'completed', 'pending', 'in_review')
            GROUP BY payee_key)
         SELECT sum(p.amount_cents)::bigint FROM payments p JOIN first_paid f ON f.payee_key = p.payee_key
          WHERE p.customer_id = c.customer_id AND p.status IN ('creating', 'completed', 'pending', 'in_review')
            AND p.created_at > now() - interval '24 hours' AND f.first_at > now() - interval '24 hours') AS total
         FROM customers c)
     SELECT a.position::text AS position, a.first_at, s.total AS spent
       FROM asked a LEFT JOIN spent s ON s.customer_id = a.customer_id`,
    [asked.map((pair) => pair.customerId), asked.map((pair) => pair.payeeKey)],
    { name: 'payments_review_facts' },
  );
  const byPosition = new Map(rows.map((row) => [Number(row.position), row]));
  return asked.map((_, index) => {
    const row = byPosition.get(index + 1);
    return { firstPaidAt: row?.first_at ?? null, newPayeeSpendCents: row?.spent ?? 0n };
  });
}

/**
 * Deposits of the bank's day (in `timeZone`) being made, pending, held or cleared, and whether
 * the customer's first account opened within `recentDays` (or none is open yet).
 */
export async function depositsToday(
  tx: Queryable,
  customerId: string,
  timeZone: string,
  recentDays: number,
): Promise<{ todayCents: bigint; openedRecently: boolean }> {
  const [row] = await tx.query<{ today_cents: bigint; opened_recently: boolean }>(
    `SELECT
       coalesce((SELECT sum(amount_cents) FROM payments
                 WHERE customer_id = $1 AND kind = 'deposit' AND status IN ('creating', 'pending', 'in_review', 'completed')
                   AND created_at >= date_trunc('day', now() AT TIME ZONE $2) AT TIME ZONE $2), 0)::bigint AS today_cents,
       coalesce((SELECT min(opened_at) FROM customer_accounts WHERE customer_id = $1) > now() - make_interval(days => $3), true) AS opened_recently`,
    [customerId, timeZone, recentDays],
  );
  return { todayCents: row?.today_cents ?? 0n, openedRecently: row?.opened_recently ?? true };
}
