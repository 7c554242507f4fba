import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Clock } from '../../db/clock.ts';
import type { Queryable } from '../../db/database.ts';
import { balanceOf, lookupAccounts } from '../../ledger/accounts.ts';
import { addDays } from '../../platform/business-calendar.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { owedCentsOf } from '../accounts/service.ts';
import { moveMoney } from '../payments/service.ts';
import { apyEarnedBps, termsInForce, type TermsRow } from '../products/service.ts';
import { notifyStatementReady } from '../statements/service.ts';
import { unitsPerCent } from './accrual.ts';
import { startOfDayIn } from '../../platform/bank-date.ts';

/** The payment kinds that count as deposits for the monthly fee's deposit waiver: money from outside the customer's own accounts. */
export const waiverDepositKinds = ['deposit', 'internal', 'funding'] as const;

export interface CycleCloseContext {
  timeZone: string;
  bankName: string;
  terms: readonly TermsRow[];
  /** Dates the close's postings; undefined: the database's now(). */
  clock?: Clock;
}

export interface CycleCloseOutcome {
  customerId: string;
  interestCents: bigint;
  feeCents: bigint;
}

interface AccountRow {
  id: string;
  customer_id: string;
  name: string;
  status: string;
  product_id: string;
  ledger_account_id: string;
  owed_ledger_account_id: string | null;
  opened_day: string;
}

const sum = async (tx: Queryable, text: string, values: readonly unknown[]): Promise<bigint> => {
  const [row] = await tx.query<{ total: string | null }>(text, values);
  return BigInt(row?.total ?? '0');
};

/** Half up, for a mean of balances that may be below zero: floor((2 x total + count) / (2 x count)). */
function meanHalfUp(total: bigint, count: bigint): bigint {
  const numerator = 2n * total + count;
  const denominator = 2n * count;
  const quotient = numerator / denominator;
  return numerator % denominator !== 0n && numerator < 0n ? quotient - 1n : quotient;
}

const monthYear = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** "December 2026": the month a cycle ending on `day` closes. */
function monthText(day: string): string {
  return monthYear.format(new Date(`${day}T00:00:00Z`));
}

export function monthStartOf(day: string): string {
  return `${day.slice(0, 8)}01`;
}

/**
 * The monthly fee's outcome at a cycle's end: waived by a rule met (the lowest daily balance, then
 * the month's deposits), else charged as far as the available balance covers it (a fee never makes
 * an overdraft; what it cannot cover is waived). The sentence is the statement's fee note.
 */
export function feeDecision(
  terms: Pick<TermsRow, 'monthly_fee_cents' | 'waiver_min_daily_balance_cents' | 'waiver_monthly_deposits_cents'>,
  facts: { lowestDailyBalanceCents: bigint; depositsCents: bigint; availableCents: bigint },
): { chargeCents: bigint; note: string | null } {
  const fee = terms.monthly_fee_cents;
  if (fee <= 0n) return { chargeCents: 0n, note: null };
  const of = `Monthly maintenance fee of ${formatMoney(fee)}`;
  const minimum = terms.waiver_min_daily_balance_cents;
  if (minimum !== null && facts.lowestDailyBalanceCents >= minimum) {
    return { chargeCents: 0n, note: `${of} waived: the balance stayed at or above ${formatMoney(minimum)} every day.` };
  }
  const deposits = terms.waiver_monthly_deposits_cents;
  if (deposits !== null && facts.depositsCents >= deposits) {
    return { chargeCents: 0n, note: `${of} waived: deposits this month reached ${formatMoney(deposits)}.` };
  }
  const available = facts.availableCents > 0n ? facts.availableCents : 0n;
  if (available >= fee) return { chargeCents: fee, note: `${of} charged.` };
  if (available === 0n) return { chargeCents: 0n, note: `${of} waived: the balance could not cover it.` };
  return {
    chargeCents: available,
    note: `${of}: ${formatMoney(available)} charged; the ${formatMoney(fee - available)} the balance could not cover is waived.`,
  };
}

interface Cycle {
  account: AccountRow;
  day: string;
  month: string;
  periodStart: string;
  /** The cycle's accrual rows: how many, the sum and the lowest of their balances. */
  days: bigint;
  balanceTotal: bigint;
  /** The same sum with each day below zero counted as zero: Regulation DD's balance for the APY earned. */
  positiveBalanceTotal: bigint;
  lowestBalance: bigint;
}

/** 1. Interest: what the accruals up to the day come to in whole cents, less every interest payment the account has had (the fraction carries). */
async function payInterest(tx: Queryable, context: CycleCloseContext, cycle: Cycle): Promise<void> {
  const { account, day } = cycle;
  const accrued = await sum(tx, 'SELECT sum(accrued_units)::text AS total FROM interest_accruals WHERE account_id = $1 AND day <= $2::date', [account.id, day]);
  const paid = await sum(tx, "SELECT sum(amount_cents)::text AS total FROM payments WHERE kind = 'interest' AND to_account_id = $1 AND status = 'completed'", [
    account.id,
  ]);
  const due = accrued / unitsPerCent - paid;
  if (due <= 0n) return;
  const moved = await moveMoney(
    tx,
    {
      id: derivedUuid('interest', account.id, day),
      kind: 'interest',
      customerId: account.customer_id,
      fromAccountId: null,
      toAccountId: account.id,
      amountCents: due,
      counterpartyName: context.bankName,
      message: `Interest for ${cycle.month}`,
    },
    context.clock,
  );
  if (moved.outcome === 'refused') throw new Error(`the ledger refused the interest of account ${account.id} for ${day}: ${moved.code}`);
}

/** Completed deposits into the account (waiverDepositKinds) whose money posted to it in the cycle, in the bank's time zone. */
function cycleDeposits(tx: Queryable, timeZone: string, cycle: Cycle): Promise<bigint> {
  return sum(
    tx,
    `SELECT sum(t.amount)::text AS total
       FROM payments p JOIN ledger_transfers t ON (t.id = p.id OR t.pending_id = p.id)
      WHERE p.to_account_id = $1 AND p.status = 'completed' AND p.kind = ANY($2::text[])
        AND t.credit_account_id = $3 AND t.flags & 10 = 0 AND t.created_at >= $4 AND t.created_at < $5`,
    [
      cycle.account.id,
      [...waiverDepositKinds],
      cycle.account.ledger_account_id,
      startOfDayIn(timeZone, cycle.periodStart),
      startOfDayIn(timeZone, addDays(cycle.day, 1)),
    ],
  );
}

/** 2. The monthly fee of the terms in force on the day, waived or charged (feeDecision): the statement's note. */
async function applyMonthlyFee(tx: Queryable, context: CycleCloseContext, cycle: Cycle, terms: TermsRow): Promise<string | null> {
  const { account, day } = cycle;
  if (terms.monthly_fee_cents <= 0n) return null;
  const ledgerIds = account.owed_ledger_account_id ? [account.ledger_account_id, account.owed_ledger_account_id] : [account.ledger_account_id];
  const ledgerAccounts = await lookupAccounts(tx, ledgerIds);
  const ledger = ledgerAccounts.find((row) => row.id === account.ledger_account_id);
  if (!ledger) throw new Error(`account ${account.id} has no ledger account`);
  const owed = owedCentsOf(ledgerAccounts.find((row) => row.id === account.owed_ledger_account_id));
  const decision = feeDecision(terms, {
    lowestDailyBalanceCents: cycle.lowestBalance,
    depositsCents: await cycleDeposits(tx, context.timeZone, cycle),
    availableCents: balanceOf(ledger).availableCents - owed,
  });
  if (decision.chargeCents > 0n) {
    const moved = await moveMoney(
      tx,
      {
        id: derivedUuid('fee', account.id, day),
        kind: 'fee',
        customerId: account.customer_id,
        fromAccountId: account.id,
        toAccountId: null,
        amountCents: decision.chargeCents,
        counterpartyName: context.bankName,
        message: `Monthly maintenance fee for ${cycle.month}`,
      },
      context.clock,
    );
    if (moved.outcome === 'refused') throw new Error(`the ledger refused the monthly fee of account ${account.id} for ${day}: ${moved.code}`);
  }
  return decision.note;
}

/** The sums of the interest paid into, or the fees taken from, the account by the transfers in (after, through]. */
function onStatement(tx: Queryable, kind: 'interest' | 'fee', accountId: string, afterSequence: bigint, throughSequence: bigint): Promise<bigint> {
  return sum(
    tx,
    `SELECT sum(p.amount_cents)::text AS total FROM payments p JOIN ledger_transfers t ON t.id = p.id
      WHERE p.kind = $1 AND p.status = 'completed' AND ${kind === 'interest' ? 'p.to_account_id' : 'p.from_account_id'} = $2
        AND t.sequence > $3::bigint AND t.sequence <= $4::bigint`,
    [kind, accountId, afterSequence.toString(), throughSequence.toString()],
  );
}

/**
 * 3. The statement: the account's ledger transfers after the previous statement's up to the last
 * one now (the ledger row is locked), tied out against the ledger's posted balance; then the customer is told.
 */
async function writeStatement(tx: Queryable, cycle: Cycle, feeNote: string | null): Promise<CycleCloseOutcome> {
  const { account, day } = cycle;
  const [previous] = await tx.query<{ through_sequence: bigint; closing_balance_cents: bigint }>(
    `SELECT through_sequence, closing_balance_cents FROM monthly_statements
      WHERE account_id = $1 AND period_end < $2::date ORDER BY period_end DESC LIMIT 1`,
    [account.id, day],
  );
  const afterSequence = previous?.through_sequence ?? 0n;
  const opening = previous?.closing_balance_cents ?? 0n;
  const [range] = await tx.query<{ through: string; credits: string; debits: string; posted: string }>(
    `SELECT greatest($2::bigint,
              (SELECT max(sequence) FROM ledger_transfers WHERE credit_account_id = $1),
              (SELECT max(sequence) FROM ledger_transfers WHERE debit_account_id = $1))::text AS through,
            (SELECT coalesce(sum(amount), 0) FROM ledger_transfers WHERE credit_account_id = $1 AND sequence > $2::bigint AND flags & 10 = 0)::text AS credits,
            (SELECT coalesce(sum(amount), 0) FROM ledger_transfers WHERE debit_account_id = $1 AND sequence > $2::bigint AND flags & 10 = 0)::text AS debits,
            (SELECT credits_posted - debits_posted FROM ledger_accounts WHERE id = $1)::text AS posted`,
    [account.ledger_account_id, afterSequence.toString()],
  );
  if (!range) throw new Error(`no ledger figures for account ${account.id}`);
  const credits = BigInt(range.credits);
  const debits = BigInt(range.debits);
  const closing = opening + credits - debits;
  if (closing !== BigInt(range.posted)) {
    throw new Error(
      `the statement of account ${account.id} for ${day} does not tie out: ${opening} + ${credits} - ${debits} is not the ledger's ${range.posted}`,
    );
  }
  const throughSequence = BigInt(range.through);
  const interestCents = await onStatement(tx, 'interest', account.id, afterSequence, throughSequence);
  const feesCents = await onStatement(tx, 'fee', account.id, afterSequence, throughSequence);
  const [year] = await tx.query<{ interest: string; fees: string }>(
    `SELECT coalesce(sum(interest_cents), 0)::text AS interest, coalesce(sum(fees_cents), 0)::text AS fees FROM monthly_statements
      WHERE account_id = $1 AND period_end >= $2::date AND period_end < $3::date`,
    [account.id, `${day.slice(0, 4)}-01-01`, day],
  );
  const average = meanHalfUp(cycle.balanceTotal, cycle.days);
  const statementId = derivedUuid('statement', account.id, day);
  await tx.query(
    `INSERT INTO monthly_statements (id, account_id, customer_id, period_start, period_end, after_sequence, through_sequence,
        opening_balance_cents, closing_balance_cents, credits_cents, debits_cents, average_daily_balance_cents, days,
        interest_cents, interest_year_cents, fees_cents, fees_year_cents, apy_earned_bps, fee_note)
     VALUES ($1, $2, $3, $4::date, $5::date, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
    [
      statementId,
      account.id,
      account.customer_id,
      cycle.periodStart,
      day,
      afterSequence.toString(),
      throughSequence.toString(),
      opening.toString(),
      closing.toString(),
      credits.toString(),
      debits.toString(),
      average.toString(),
      Number(cycle.days),
      interestCents.toString(),
      (interestCents + BigInt(year?.interest ?? '0')).toString(),
      feesCents.toString(),
      (feesCents + BigInt(year?.fees ?? '0')).toString(),
      apyEarnedBps(interestCents, meanHalfUp(cycle.positiveBalanceTotal, cycle.days), Number(cycle.days)),
      feeNote,
    ],
  );
  await notifyStatementReady(tx, {
    statementId,
    customerId: account.customer_id,
    accountId: account.id,
    accountName: account.name,
    periodStart: cycle.periodStart,
    periodEnd: day,
  });
  return { customerId: account.customer_id, interestCents, feeCents: feesCents };
}

/**
 * Closes one account's cycle ending on `day` (the last day of a month), in the caller's
 * transaction: the interest accrued and not yet paid, the monthly fee, and the statement, which
 * tells the customer. A closed account gets its final statement only: its close paid its interest,
 * and it pays no fee. Nothing when the statement is there already (an earlier run committed it all).
 */
export async function closeAccountCycle(tx: Queryable, context: CycleCloseContext, accountId: string, day: string): Promise<CycleCloseOutcome | null> {
  const [account] = await tx.query<AccountRow>(
    `SELECT id, customer_id, name, status, product_id, ledger_account_id, owed_ledger_account_id,
            (opened_at AT TIME ZONE $2)::date::text AS opened_day
       FROM customer_accounts WHERE id = $1 FOR UPDATE`,
    [accountId, context.timeZone],
  );
  if (!account) throw new Error(`no customer account ${accountId}`);
  // The account's row is locked first, as closing an account locks it (account-management/closing.ts): a close and
  // this cycle's close run one after the other, and the second sees what the first paid. Then the account's ledger row, locked to the commit: no transfer of the account lands between the
  // figures read below and the statement that ties them out.
  await tx.query('SELECT id FROM ledger_accounts WHERE id = $1 FOR UPDATE', [account.ledger_account_id]);
  const [done] = await tx.query('SELECT id FROM monthly_statements WHERE account_id = $1 AND period_end = $2::date', [accountId, day]);
  if (done) return null;

  const monthStart = monthStartOf(day);
  const [figures] = await tx.query<{ days: string; total: string | null; positive: string | null; lowest: string | null }>(
    `SELECT count(*)::text AS days, sum(balance_cents)::text AS total, sum(greatest(balance_cents, 0))::text AS positive, min(balance_cents)::text AS lowest
       FROM interest_accruals WHERE account_id = $1 AND day BETWEEN $2::date AND $3::date`,
    [accountId, monthStart, day],
  );
  const days = BigInt(figures?.days ?? '0');
  if (days === 0n) throw new Error(`account ${accountId} has no accrual in the cycle ending ${day}`);
  const cycle: Cycle = {
    account,
    day,
    month: monthText(day),
    periodStart: account.opened_day > monthStart ? account.opened_day : monthStart,
    days,
    balanceTotal: BigInt(figures?.total ?? '0'),
    positiveBalanceTotal: BigInt(figures?.positive ?? '0'),
    lowestBalance: BigInt(figures?.lowest ?? '0'),
  };
  const terms = termsInForce(context.terms, account.product_id, day);
  if (!terms) throw new Error(`product ${account.product_id} has no terms in force on ${day}`);
  let feeNote: string | null = null;
  if (account.status !== 'closed') {
    await payInterest(tx, context, cycle);
    feeNote = await applyMonthlyFee(tx, context, cycle, terms);
  }
  return writeStatement(tx, cycle, feeNote);
}
