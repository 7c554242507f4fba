import type { BalanceSheet, IncomeStatement, ReportLine, TrialBalance } from '@strongroom/contracts/books.ts';
import type { Queryable } from '../../db/database.ts';
import { addDays } from '../../platform/business-calendar.ts';
import { centsToJson } from '../../platform/money.ts';
import { customerAccountBalancesThrough, glBalancesThrough, type GlBalance } from './balances.ts';
import { glAccounts, type GlAccount } from './chart.ts';
import { closedThrough } from './close.ts';

/**
 * The three reports of the bank's books (docs/books.md, "Reports"), built from the general
 * ledger's cumulative balances (balances.ts). Income and expenses are closed into equity at each
 * year end, virtually: the trial balance and the balance sheet carry the years before the as-of
 * date's year as retained earnings (3100), so income and expense accounts show this year only.
 * Every chart account is a line, zeros included, so two days' reports compare line by line.
 */

/** Whether `day` is on or before the last closed business day: its figures never change. */
async function isClosed(db: Queryable, day: string): Promise<boolean> {
  const through = await closedThrough(db);
  return through !== null && day <= through;
}

function isIncomeOrExpense(gl: GlAccount): boolean {
  return gl.type === 'income' || gl.type === 'expense';
}

/** Net income (income less expenses) of the balances' income and expense accounts. */
function netIncome(balances: ReadonlyMap<string, GlBalance>): bigint {
  let net = 0n;
  for (const { gl, debits, credits } of balances.values()) if (isIncomeOrExpense(gl)) net += credits - debits;
  return net;
}

/** The last day of the year before `asOf`'s: what the year-end close carried into retained earnings. */
function priorYearEnd(asOf: string): string {
  return `${Number(asOf.slice(0, 4)) - 1}-12-31`;
}

interface YearSplit {
  /** Cumulative balances through asOf. */
  through: Map<string, GlBalance>;
  /** Net income of every year before asOf's year (retained earnings). */
  retainedCents: bigint;
  /** Each income and expense account's balance at the prior year end, which the close moved to equity. */
  closedIntoEquity: Map<string, GlBalance>;
}

async function yearSplit(db: Queryable, asOf: string): Promise<YearSplit> {
  const through = await glBalancesThrough(db, asOf);
  const closedIntoEquity = await glBalancesThrough(db, priorYearEnd(asOf));
  return { through, retainedCents: netIncome(closedIntoEquity), closedIntoEquity };
}

function line(gl: GlAccount, cents: Pick<ReportLine, 'debitCents' | 'creditCents' | 'balanceCents'>): ReportLine {
  return { account: gl.account, name: gl.name, type: gl.type, ...cents };
}

/** A trial balance line: the account's net in the column it falls on, 0 in the other. */
function trialLine(gl: GlAccount, debits: bigint, credits: bigint): { line: ReportLine; debit: bigint; credit: bigint } {
  const net = debits - credits;
  const debit = net > 0n ? net : 0n;
  const credit = net < 0n ? -net : 0n;
  return { line: line(gl, { debitCents: centsToJson(debit), creditCents: centsToJson(credit) }), debit, credit };
}

export async function trialBalance(db: Queryable, asOf: string): Promise<TrialBalance> {
  const { through, retainedCents, closedIntoEquity } = await yearSplit(db, asOf);
  const lines: ReportLine[] = [];
  let debitTotal = 0n;
  let creditTotal = 0n;
  for (const { gl, debits, credits } of through.values()) {
    let entry: ReturnType<typeof trialLine>;
    if (gl.account === glAccounts.retainedEarnings.account) {
      entry = trialLine(gl, retainedCents < 0n ? -retainedCents : 0n, retainedCents > 0n ? retainedCents : 0n);
    } else if (isIncomeOrExpense(gl)) {
      const closed = closedIntoEquity.get(gl.account);
      entry = trialLine(gl, debits - (closed?.debits ?? 0n), credits - (closed?.credits ?? 0n));
    } else {
      entry = trialLine(gl, debits, credits);
    }
    lines.push(entry.line);
    debitTotal += entry.debit;
    creditTotal += entry.credit;
  }
  return {
    report: 'trial-balance',
    asOf,
    closed: await isClosed(db, asOf),
    lines,
    totals: { debitCents: centsToJson(debitTotal), creditCents: centsToJson(creditTotal) },
    balanced: debitTotal === creditTotal,
  };
}

/** Customer deposits are the 21xx liability accounts: one per product, and 2190 for deposits without one. */
function isCustomerDeposits(gl: GlAccount): boolean {
  return gl.type === 'liability' && gl.account.startsWith('21');
}

function section(entries: readonly { gl: GlAccount; cents: bigint }[]): { lines: ReportLine[]; total: bigint } {
  return {
    lines: entries.map(({ gl, cents }) => line(gl, { balanceCents: centsToJson(cents) })),
    total: entries.reduce((sum, { cents }) => sum + cents, 0n),
  };
}

export async function balanceSheet(db: Queryable, asOf: string): Promise<BalanceSheet> {
  const { through, retainedCents } = await yearSplit(db, asOf);
  const assets: { gl: GlAccount; cents: bigint }[] = [];
  const liabilities: { gl: GlAccount; cents: bigint }[] = [];
  const equity: { gl: GlAccount; cents: bigint }[] = [];
  for (const { gl, debits, credits } of through.values()) {
    // A contra asset's credit balance comes out negative here, as it is presented: less than the assets it reduces.
    if (gl.type === 'asset') assets.push({ gl, cents: debits - credits });
    else if (gl.type === 'liability') liabilities.push({ gl, cents: credits - debits });
    else if (gl.account === glAccounts.retainedEarnings.account) equity.push({ gl, cents: retainedCents });
    else if (gl.account === glAccounts.currentYearEarnings.account) equity.push({ gl, cents: netIncome(through) - retainedCents });
    else if (gl.type === 'equity') equity.push({ gl, cents: credits - debits });
  }
  const assetSection = section(assets);
  const liabilitySection = section(liabilities);
  const equitySection = section(equity);
  const depositsCents = liabilities.filter(({ gl }) => isCustomerDeposits(gl)).reduce((sum, { cents }) => sum + cents, 0n);
  const customerAccountsCents = await customerAccountBalancesThrough(db, asOf);
  return {
    report: 'balance-sheet',
    asOf,
    closed: await isClosed(db, asOf),
    lines: [...assetSection.lines, ...liabilitySection.lines, ...equitySection.lines],
    assets: { lines: assetSection.lines, totalCents: centsToJson(assetSection.total) },
    liabilities: { lines: liabilitySection.lines, totalCents: centsToJson(liabilitySection.total) },
    equity: { lines: equitySection.lines, totalCents: centsToJson(equitySection.total) },
    totals: {
      assetsCents: centsToJson(assetSection.total),
      liabilitiesCents: centsToJson(liabilitySection.total),
      equityCents: centsToJson(equitySection.total),
      liabilitiesAndEquityCents: centsToJson(liabilitySection.total + equitySection.total),
    },
    balanced: assetSection.total === liabilitySection.total + equitySection.total,
    customerDeposits: {
      balanceSheetCents: centsToJson(depositsCents),
      customerAccountsCents: centsToJson(customerAccountsCents),
      tied: depositsCents === customerAccountsCents,
    },
  };
}

/** What the days from `from` through `to` added to each income and expense account. The caller checks from <= to. */
export async function incomeStatement(db: Queryable, from: string, to: string): Promise<IncomeStatement> {
  const end = await glBalancesThrough(db, to);
  const start = await glBalancesThrough(db, addDays(from, -1));
  const income: { gl: GlAccount; cents: bigint }[] = [];
  const expenses: { gl: GlAccount; cents: bigint }[] = [];
  for (const { gl, debits, credits } of end.values()) {
    const before = start.get(gl.account);
    const debited = debits - (before?.debits ?? 0n);
    const credited = credits - (before?.credits ?? 0n);
    if (gl.type === 'income') income.push({ gl, cents: credited - debited });
    else if (gl.type === 'expense') expenses.push({ gl, cents: debited - credited });
  }
  const incomeSection = section(income);
  const expenseSection = section(expenses);
  return {
    report: 'income-statement',
    from,
    to,
    closed: await isClosed(db, to),
    lines: [...incomeSection.lines, ...expenseSection.lines],
    income: { lines: incomeSection.lines, totalCents: centsToJson(incomeSection.total) },
    expenses: { lines: expenseSection.lines, totalCents: centsToJson(expenseSection.total) },
    totals: {
      incomeCents: centsToJson(incomeSection.total),
      expensesCents: centsToJson(expenseSection.total),
      netIncomeCents: centsToJson(incomeSection.total - expenseSection.total),
    },
  };
}
