import type { Queryable } from '../../db/database.ts';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A monthly_statements row (migration 0041) as the statements module reads it. */
export interface MonthlyStatementRow {
  id: string;
  account_id: string;
  customer_id: string;
  /** YYYY-MM-DD. */
  period_start: string;
  period_end: string;
  after_sequence: bigint;
  through_sequence: bigint;
  opening_balance_cents: bigint;
  closing_balance_cents: bigint;
  credits_cents: bigint;
  debits_cents: bigint;
  average_daily_balance_cents: bigint;
  days: number;
  interest_cents: bigint;
  interest_year_cents: bigint;
  fees_cents: bigint;
  fees_year_cents: bigint;
  apy_earned_bps: number;
  fee_note: string | null;
  created_at: Date;
}

const columns = `s.id, s.account_id, s.customer_id, to_char(s.period_start, 'YYYY-MM-DD') AS period_start, to_char(s.period_end, 'YYYY-MM-DD') AS period_end,
  s.after_sequence, s.through_sequence, s.opening_balance_cents, s.closing_balance_cents, s.credits_cents, s.debits_cents,
  s.average_daily_balance_cents, s.days, s.interest_cents, s.interest_year_cents, s.fees_cents, s.fees_year_cents, s.apy_earned_bps,
  s.fee_note, s.created_at`;

/**
 * The account's monthly statements, newest first, or undefined when the account is not this
 * customer's (someone else's account answers like a missing one). A closed account keeps its statements.
 */
export async function listMonthlyStatements(db: Queryable, customerId: string, accountId: string): Promise<MonthlyStatementRow[] | undefined> {
  if (!uuidPattern.test(accountId)) return undefined;
  const [account] = await db.query<{ id: string }>('SELECT id FROM customer_accounts WHERE id = $1 AND customer_id = $2', [accountId, customerId]);
  if (!account) return undefined;
  return db.query<MonthlyStatementRow>(
    `SELECT ${columns} FROM monthly_statements s WHERE s.account_id = $1 AND s.customer_id = $2 ORDER BY s.period_end DESC`,
    [accountId, customerId],
  );
}

/** One statement of this customer's account; another account's statement, or another customer's, is not found. */
export async function findMonthlyStatement(
  db: Queryable,
  customerId: string,
  accountId: string,
  statementId: string,
): Promise<MonthlyStatementRow | undefined> {
  if (!uuidPattern.test(accountId) || !uuidPattern.test(statementId)) return undefined;
  const [row] = await db.query<MonthlyStatementRow>(
    `SELECT ${columns} FROM monthly_statements s
       JOIN customer_accounts a ON a.id = s.account_id AND a.customer_id = s.customer_id
      WHERE s.id = $1 AND s.account_id = $2 AND s.customer_id = $3`,
    [statementId, accountId, customerId],
  );
  return row;
}
