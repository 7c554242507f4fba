import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { moveMoney } from '../modules/payments/service.ts';
import { notifyStatementReady } from '../modules/statements/monthly-notices.ts';

/**
 * TEST FIXTURE, not the bank's code: writes a monthly_statements row the way the end-of-day job
 * does at a cycle's end (modules/end-of-day), for tests of the statements that must not wait for
 * a month to pass. The sequence range runs from the account's previous statement (or the start)
 * to its newest transfer; every figure is summed from the ledger and the payments beside it, then
 * the customer is told, in the same transaction, as the job does.
 */
export interface FixtureStatement {
  id: string;
  afterSequence: bigint;
  throughSequence: bigint;
  openingCents: bigint;
  creditsCents: bigint;
  debitsCents: bigint;
  closingCents: bigint;
  interestCents: bigint;
  interestYearCents: bigint;
  feesCents: bigint;
  feesYearCents: bigint;
  averageDailyBalanceCents: bigint;
  days: number;
  apyEarnedBps: number;
}

interface Sums {
  signed_before: string;
  credits: string;
  debits: string;
  interest: string;
  fees: string;
  through_sequence: bigint;
  after_sequence: bigint;
}

export async function writeStatementLikeEndOfDay(
  db: Database,
  statement: { customerId: string; accountId: string; periodStart: string; periodEnd: string; feeNote?: string | null },
): Promise<FixtureStatement> {
  return db.transaction(async (tx) => {
    const [account] = await tx.query<{ ledger_account_id: string; name: string }>(
      'SELECT ledger_account_id, name FROM customer_accounts WHERE id = $1 AND customer_id = $2',
      [statement.accountId, statement.customerId],
    );
    if (!account) throw new Error(`fixture: account ${statement.accountId} is not customer ${statement.customerId}'s`);
    const [sums] = await tx.query<Sums>(
      `WITH bounds AS (
         SELECT coalesce((SELECT max(through_sequence) FROM monthly_statements WHERE account_id = $2), 0)::bigint AS after_sequence,
                coalesce((SELECT max(sequence) FROM ledger_transfers WHERE debit_account_id = $1 OR credit_account_id = $1), 0)::bigint AS through_sequence),
       lines AS (
         SELECT t.sequence, t.amount, t.credit_account_id = $1 AS is_credit, p.kind
           FROM ledger_transfers t LEFT JOIN payments p ON p.id = coalesce(t.pending_id, t.id)
          WHERE (t.debit_account_id = $1 OR t.credit_account_id = $1) AND t.flags & 10 = 0)
       SELECT b.after_sequence, b.through_sequence,
         coalesce(sum(CASE WHEN l.is_credit THEN l.amount ELSE -l.amount END) FILTER (WHERE l.sequence <= b.after_sequence), 0)::text AS signed_before,
         coalesce(sum(l.amount) FILTER (WHERE l.is_credit AND l.sequence > b.after_sequence AND l.sequence <= b.through_sequence), 0)::text AS credits,
         coalesce(sum(l.amount) FILTER (WHERE NOT l.is_credit AND l.sequence > b.after_sequence AND l.sequence <= b.through_sequence), 0)::text AS debits,
         coalesce(sum(l.amount) FILTER (WHERE l.kind = 'interest' AND l.sequence > b.after_sequence AND l.sequence <= b.through_sequence), 0)::text AS interest,
         coalesce(sum(l.amount) FILTER (WHERE l.kind = 'fee' AND l.sequence > b.after_sequence AND l.sequence <= b.through_sequence), 0)::text AS fees
       FROM bounds b LEFT JOIN lines l ON true
       GROUP BY b.after_sequence, b.through_sequence`,
      [account.ledger_account_id, statement.accountId],
    );
    if (!sums) throw new Error('fixture: the sums answered no row');
    const [earlier] = await tx.query<{ interest: string; fees: string }>(
      `SELECT coalesce(sum(interest_cents), 0)::text AS interest, coalesce(sum(fees_cents), 0)::text AS fees FROM monthly_statements
        WHERE account_id = $1 AND date_trunc('year', period_end) = date_trunc('year', $2::date)`,
      [statement.accountId, statement.periodEnd],
    );
    const openingCents = BigInt(sums.signed_before);
    const creditsCents = BigInt(sums.credits);
    const debitsCents = BigInt(sums.debits);
    const closingCents = openingCents + creditsCents - debitsCents;
    const interestCents = BigInt(sums.interest);
    const feesCents = BigInt(sums.fees);
    // Not a day-by-day average (the job's): the mean of the opening and closing balances is enough for a fixture.
    const averageDailyBalanceCents = (openingCents + closingCents) / 2n;
    const days = Math.round((Date.parse(statement.periodEnd) - Date.parse(statement.periodStart)) / 86_400_000) + 1;
    const figures: FixtureStatement = {
      id: randomUUID(),
      afterSequence: sums.after_sequence,
      throughSequence: sums.through_sequence,
      openingCents,
      creditsCents,
      debitsCents,
      closingCents,
      interestCents,
      interestYearCents: interestCents + BigInt(earlier?.interest ?? '0'),
      feesCents,
      feesYearCents: feesCents + BigInt(earlier?.fees ?? '0'),
      averageDailyBalanceCents,
      days,
      apyEarnedBps: apyEarnedBps(interestCents, averageDailyBalanceCents, days),
    };
    await tx.query(
      `INSERT INTO monthly_statements (id, account_id, customer_id, period_start, period_end, after_sequence, through_sequence,
         opening_balance_cents, closing_balance_cents, credits_cents, debits_cents, average_daily_balance_cents, days,
         interest_cents, interest_year_cents, fees_cents, fees_year_cents, apy_earned_bps, fee_note)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
      [
        figures.id,
        statement.accountId,
        statement.customerId,
        statement.periodStart,
        statement.periodEnd,
        figures.afterSequence.toString(),
        figures.throughSequence.toString(),
        openingCents.toString(),
        closingCents.toString(),
        creditsCents.toString(),
        debitsCents.toString(),
        averageDailyBalanceCents.toString(),
        days,
        interestCents.toString(),
        figures.interestYearCents.toString(),
        feesCents.toString(),
        figures.feesYearCents.toString(),
        figures.apyEarnedBps,
        statement.feeNote ?? null,
      ],
    );
    await notifyStatementReady(tx, {
      statementId: figures.id,
      customerId: statement.customerId,
      accountId: statement.accountId,
      accountName: account.name,
      periodStart: statement.periodStart,
      periodEnd: statement.periodEnd,
    });
    return figures;
  });
}

/**
 * Regulation DD Appendix A, Part II, written out again here (not imported from products, which
 * would tie the modules in a cycle): 10,000 x [(1 + interest / balance)^(365 / days) - 1], rounded.
 */
function apyEarnedBps(interestCents: bigint, averageDailyBalanceCents: bigint, days: number): number {
  if (interestCents <= 0n || averageDailyBalanceCents <= 0n) return 0;
  return Math.round(((1 + Number(interestCents) / Number(averageDailyBalanceCents)) ** (365 / days) - 1) * 10_000);
}

/** TEST FIXTURE: interest paid to, or a monthly fee taken from, an account now, as the end-of-day job moves them. */
export async function moveBankMoney(
  db: Database,
  customerId: string,
  accountId: string,
  kind: 'interest' | 'fee' | 'fee_refund',
  amountCents: bigint,
): Promise<string> {
  return db.transaction(async (tx) => {
    const id = randomUUID();
    const moved = await moveMoney(tx, {
      id,
      kind,
      customerId,
      fromAccountId: kind === 'fee' ? accountId : null,
      toAccountId: kind === 'fee' ? null : accountId,
      amountCents,
      counterpartyName: 'Strongroom',
      message: { interest: 'Interest paid', fee: 'Monthly maintenance fee', fee_refund: 'Fee refunded' }[kind],
    });
    if (moved.outcome !== 'made') throw new Error(`fixture: the ${kind} was refused: ${moved.code}`);
    return id;
  });
}
