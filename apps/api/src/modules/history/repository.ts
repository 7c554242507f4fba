import type { PaymentKind } from '@strongroom/contracts/payments.ts';
import type { Queryable } from '../../db/database.ts';
import type { StoredPaymentStatus } from '../payments/repository.ts';

/** One side of one payment on one of the customer's accounts. */
export interface LineRow {
  id: string;
  side: 'in' | 'out';
  account_id: string;
  kind: PaymentKind;
  status: StoredPaymentStatus;
  amount_cents: bigint;
  message: string;
  counterparty_name: string;
  counterparty_bank_name: string | null;
  details: Record<string, string>;
  created_at: Date;
  /** The timestamp as PostgreSQL prints it, to the microsecond: the cursor keeps it exactly. */
  created_text: string;
}

export interface LineCursor {
  createdText: string;
  id: string;
  side: 'in' | 'out';
}

const lineColumns = `p.id, p.kind, p.status, p.amount_cents, p.message, p.counterparty_name, p.counterparty_bank_name, p.details, p.created_at, p.created_at::text AS created_text`;

/**
 * A page of history lines, newest first, after the cursor. Money out is every payment from the
 * accounts (not refused); money in is every payment into them, except an internal transfer from
 * someone else that is not yet completed (a held payment is the sender's business until released).
 * Keyset pagination on (created_at, id, side): no line is skipped or repeated between pages.
 */
export async function listLines(db: Queryable, accountIds: readonly string[], cursor: LineCursor | null, limit: number): Promise<LineRow[]> {
  const after = cursor ?? { createdText: 'infinity', id: 'ffffffff-ffff-ffff-ffff-ffffffffffff', side: 'out' as const };
  return db.query<LineRow>(
    `SELECT * FROM (
       (SELECT ${lineColumns}, 'out' AS side, p.from_account_id AS account_id FROM payments p
        WHERE p.from_account_id = ANY($1::uuid[]) AND p.status NOT IN ('creating', 'failed')
          AND (p.created_at, p.id, 'out') < ($2::timestamptz, $3::uuid, $4::text)
        ORDER BY p.created_at DESC, p.id DESC LIMIT $5)
       UNION ALL
       (SELECT ${lineColumns}, 'in' AS side, p.to_account_id AS account_id FROM payments p
        WHERE p.to_account_id = ANY($1::uuid[]) AND p.status NOT IN ('creating', 'failed')
          AND (p.kind <> 'internal' OR p.status = 'completed' OR p.from_account_id = ANY($1::uuid[]))
          AND (p.created_at, p.id, 'in') < ($2::timestamptz, $3::uuid, $4::text)
        ORDER BY p.created_at DESC, p.id DESC LIMIT $5)
     ) AS lines
     ORDER BY created_at DESC, id DESC, side DESC
     LIMIT $5`,
    [accountIds, after.createdText, after.id, after.side, limit],
  );
}

export interface MonthFlowRow {
  month: string;
  code: number | null;
  money_in: bigint | null;
  money_out: bigint | null;
}

/**
 * Money in and out of the customer's accounts this month in the bank's time zone, straight from
 * the ledger (D8): posted transfers only (a plain posted transfer or the post of a pending one),
 * and none between two of the customer's own accounts.
 */
export async function monthFlowsByCode(db: Queryable, customerId: string, timeZone: string): Promise<MonthFlowRow[]> {
  return db.query<MonthFlowRow>(
    `WITH mine AS (SELECT ledger_account_id AS id FROM customer_accounts WHERE customer_id = $1 AND ledger_account_id IS NOT NULL),
          bounds AS (SELECT date_trunc('month', now() AT TIME ZONE $2) AT TIME ZONE $2 AS start, to_char(now() AT TIME ZONE $2, 'YYYY-MM') AS month),
          moves AS (
            SELECT t.code, t.amount,
                   t.credit_account_id IN (SELECT id FROM mine) AS into_mine,
                   t.debit_account_id IN (SELECT id FROM mine) AS from_mine
            FROM ledger_transfers t, bounds
            WHERE (t.debit_account_id IN (SELECT id FROM mine) OR t.credit_account_id IN (SELECT id FROM mine))
              AND t.flags & 10 = 0 AND t.created_at >= bounds.start)
     SELECT bounds.month, moves.code,
            sum(moves.amount) FILTER (WHERE moves.into_mine AND NOT moves.from_mine)::bigint AS money_in,
            sum(moves.amount) FILTER (WHERE moves.from_mine AND NOT moves.into_mine)::bigint AS money_out
     FROM bounds LEFT JOIN moves ON true
     GROUP BY bounds.month, moves.code`,
    [customerId, timeZone],
  );
}
