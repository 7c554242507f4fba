import type { Queryable } from '../../db/database.ts';

/**
 * An independent computation of the bank's books (docs/books.md, "The chart of accounts" and
 * "Reports"), for books-month.test.ts: read from the raw ledger rows and mapped by a table of its
 * own, written from the chart's documentation, so that it shares no code with balances.ts or
 * reports.ts. Every figure is a bigint of cents.
 */

type GlType = 'asset' | 'liability' | 'equity' | 'income' | 'expense';

/** Where each ledger account code is booked, as docs/books.md lists it; 'deposits' goes by the customer account's product. */
const glNumberOfCode: Readonly<Record<number, string>> = {
  1: 'deposits',
  2: 'deposits',
  3: '1100',
  4: '1110',
  5: '1200',
  100: '3000',
  110: '1010',
  111: '1020',
  112: '1030',
  120: '4100',
  121: '4000',
  130: '5100',
  131: '5000',
  132: '5200',
  133: '5300',
  134: '5400',
  140: '1100',
  150: '1300',
};

/** The fixed accounts of the chart; the 21xx deposit accounts come from the products. */
const fixedAccounts = [
  '1010',
  '1020',
  '1030',
  '1100',
  '1110',
  '1200',
  '1300',
  '2190',
  '3000',
  '3100',
  '3200',
  '4000',
  '4100',
  '5000',
  '5100',
  '5200',
  '5300',
  '5400',
];
export const retainedEarnings = '3100';
export const currentYearEarnings = '3200';

export function typeOf(account: string): GlType {
  const types: Record<string, GlType> = { '1': 'asset', '2': 'liability', '3': 'equity', '4': 'income', '5': 'expense' };
  const type = types[account.slice(0, 1)];
  if (!type) throw new Error(`no type for account ${account}`);
  return type;
}

/** Posted money: a plain or post-pending row; a pending reservation (2) or a void (8) moves none. */
interface PostedRow {
  amount: bigint;
  postedOn: string;
  debit: string;
  credit: string;
}

export interface RawBooks {
  rows: PostedRow[];
  /** Ledger account id -> general-ledger account number ('deposits' for a customer's deposit account: see depositLines). */
  glOfLedgerAccount: Map<string, string>;
  /**
   * A customer's deposit ledger account id -> the lines it is booked to, from the product history
   * (customer_account_products), oldest first: on a day, the latest one in force then takes the
   * account's whole balance.
   */
  depositLines: Map<string, { fromDay: string; account: string }[]>;
  /** Every account of the chart, by number. */
  chart: string[];
  /** Each customer account's ledger account id (customer_accounts.ledger_account_id). */
  customerLedgerAccounts: Set<string>;
}

/** Reads the raw rows once: the posted transfers, the ledger accounts with their codes, the customer accounts and their products over time. */
export async function readRawBooks(db: Queryable): Promise<RawBooks> {
  const transfers = await db.query<{ amount: string; posted_on: string; debit_account_id: string; credit_account_id: string; flags: number }>(
    `SELECT amount::text AS amount, to_char(posted_on, 'YYYY-MM-DD') AS posted_on, debit_account_id, credit_account_id, flags FROM ledger_transfers`,
  );
  const accounts = await db.query<{ id: string; code: number }>('SELECT id, code FROM ledger_accounts');
  const customers = await db.query<{ ledger_account_id: string }>('SELECT ledger_account_id FROM customer_accounts');
  const history = await db.query<{ ledger_account_id: string; from_day: string; kind: string; position: number }>(
    `SELECT a.ledger_account_id, to_char(h.from_day, 'YYYY-MM-DD') AS from_day, p.kind, p.position
       FROM customer_account_products h JOIN customer_accounts a ON a.id = h.account_id JOIN deposit_products p ON p.id = h.product_id`,
  );
  const products = await db.query<{ kind: string; position: number }>('SELECT kind, position FROM deposit_products');
  const depositNumber = (kind: string, position: number) => `${kind === 'checking' ? '211' : '212'}${position >= 1 && position <= 9 ? position : 0}`;
  const linesOf = new Map<string, { fromDay: string; account: string }[]>();
  for (const row of history) {
    const lines = linesOf.get(row.ledger_account_id) ?? [];
    lines.push({ fromDay: row.from_day, account: depositNumber(row.kind, Number(row.position)) });
    linesOf.set(row.ledger_account_id, lines);
  }
  for (const lines of linesOf.values()) lines.sort((left, right) => (left.fromDay < right.fromDay ? -1 : left.fromDay > right.fromDay ? 1 : 0));
  const glOfLedgerAccount = new Map<string, string>();
  const depositLines = new Map<string, { fromDay: string; account: string }[]>();
  for (const account of accounts) {
    const mapped = glNumberOfCode[Number(account.code)];
    if (!mapped) throw new Error(`the oracle has no account for code ${account.code}`);
    const lines = linesOf.get(account.id);
    if (mapped === 'deposits' && lines) depositLines.set(account.id, lines);
    // A deposit account no customer account points at is booked to 2190.
    glOfLedgerAccount.set(account.id, mapped === 'deposits' ? (lines ? 'deposits' : '2190') : mapped);
  }
  const chart = [...new Set([...fixedAccounts, ...products.map((product) => depositNumber(product.kind, product.position))])].sort();
  return {
    rows: transfers
      .filter((row) => (Number(row.flags) & 10) === 0)
      .map((row) => ({ amount: BigInt(row.amount), postedOn: row.posted_on, debit: row.debit_account_id, credit: row.credit_account_id })),
    glOfLedgerAccount,
    depositLines,
    chart,
    customerLedgerAccounts: new Set(customers.map((row) => row.ledger_account_id)),
  };
}

/** Where a ledger account is booked on `day`: a customer's deposit account by its product in force that day. */
function glOn(books: RawBooks, ledgerAccountId: string, day: string): string {
  const mapped = books.glOfLedgerAccount.get(ledgerAccountId) ?? '';
  if (mapped !== 'deposits') return mapped;
  const inForce = (books.depositLines.get(ledgerAccountId) ?? []).filter((line) => line.fromDay <= day).at(-1);
  if (!inForce) throw new Error(`no product in force on ${day} for deposit account ${ledgerAccountId}`);
  return inForce.account;
}

export interface Sides {
  debits: bigint;
  credits: bigint;
}

/**
 * Each chart account's posted debits and credits of the rows booked from `from` (inclusive; null:
 * the start) through `through`, customer deposits in the line of the product in force on `through`.
 */
export function sidesBetween(books: RawBooks, from: string | null, through: string): Map<string, Sides> {
  const sides = new Map(books.chart.map((account) => [account, { debits: 0n, credits: 0n }]));
  for (const row of books.rows) {
    if (row.postedOn > through || (from !== null && row.postedOn < from)) continue;
    const debit = sides.get(glOn(books, row.debit, through));
    const credit = sides.get(glOn(books, row.credit, through));
    if (!debit || !credit) throw new Error(`a transfer between accounts outside the chart: ${row.debit} -> ${row.credit}`);
    debit.debits += row.amount;
    credit.credits += row.amount;
  }
  return sides;
}

const dayBefore = (day: string) => new Date(Date.parse(`${day}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const yearStartOf = (day: string) => `${day.slice(0, 4)}-01-01`;

/** Income less expenses of the rows booked in the window. */
function netIncomeOf(sides: Map<string, Sides>): bigint {
  let net = 0n;
  for (const [account, { debits, credits }] of sides) if (typeOf(account) === 'income' || typeOf(account) === 'expense') net += credits - debits;
  return net;
}

export interface ExpectedLine {
  account: string;
  type: GlType;
  debitCents?: number;
  creditCents?: number;
  balanceCents?: number;
}

const cents = (value: bigint) => Number(value);

/**
 * The trial balance as of `day`: each account's net in the column it falls on. Income and expense
 * accounts carry the as-of year only; the years before are closed into retained earnings (3100).
 */
export function expectedTrialBalance(books: RawBooks, day: string) {
  const cumulative = sidesBetween(books, null, day);
  const thisYear = sidesBetween(books, yearStartOf(day), day);
  const retained = netIncomeOf(sidesBetween(books, null, dayBefore(yearStartOf(day))));
  const lines: ExpectedLine[] = books.chart.map((account) => {
    const type = typeOf(account);
    let net: bigint;
    if (account === retainedEarnings) net = -retained;
    else if (account === currentYearEarnings) net = 0n;
    else {
      const sides = (type === 'income' || type === 'expense' ? thisYear : cumulative).get(account) ?? { debits: 0n, credits: 0n };
      net = sides.debits - sides.credits;
    }
    return { account, type, debitCents: cents(net > 0n ? net : 0n), creditCents: cents(net < 0n ? -net : 0n) };
  });
  const debitCents = lines.reduce((sum, line) => sum + (line.debitCents ?? 0), 0);
  const creditCents = lines.reduce((sum, line) => sum + (line.creditCents ?? 0), 0);
  return { lines, totals: { debitCents, creditCents } };
}

/** The balance sheet as of `day`: assets (a contra line negative), liabilities, and equity with the two virtual earnings lines. */
export function expectedBalanceSheet(books: RawBooks, day: string) {
  const cumulative = sidesBetween(books, null, day);
  const retained = netIncomeOf(sidesBetween(books, null, dayBefore(yearStartOf(day))));
  const currentYear = netIncomeOf(sidesBetween(books, yearStartOf(day), day));
  const section = (type: GlType) =>
    books.chart
      .filter((account) => typeOf(account) === type)
      .map((account) => {
        const { debits, credits } = cumulative.get(account) ?? { debits: 0n, credits: 0n };
        let balance = type === 'asset' ? debits - credits : credits - debits;
        if (account === retainedEarnings) balance = retained;
        if (account === currentYearEarnings) balance = currentYear;
        return { account, type, balanceCents: cents(balance) };
      });
  const assets = section('asset');
  const liabilities = section('liability');
  const equity = section('equity');
  const total = (lines: ExpectedLine[]) => lines.reduce((sum, line) => sum + (line.balanceCents ?? 0), 0);
  const deposits = liabilities.filter((line) => line.account.startsWith('21')).reduce((sum, line) => sum + (line.balanceCents ?? 0), 0);
  return {
    assets: { lines: assets, totalCents: total(assets) },
    liabilities: { lines: liabilities, totalCents: total(liabilities) },
    equity: { lines: equity, totalCents: total(equity) },
    depositsCents: deposits,
  };
}

/** The income statement of the rows booked from `from` through `to`. */
export function expectedIncomeStatement(books: RawBooks, from: string, to: string) {
  const window = sidesBetween(books, from, to);
  const section = (type: GlType) =>
    books.chart
      .filter((account) => typeOf(account) === type)
      .map((account) => {
        const { debits, credits } = window.get(account) ?? { debits: 0n, credits: 0n };
        return { account, type, balanceCents: cents(type === 'income' ? credits - debits : debits - credits) };
      });
  const income = section('income');
  const expenses = section('expense');
  const total = (lines: ExpectedLine[]) => lines.reduce((sum, line) => sum + (line.balanceCents ?? 0), 0);
  return {
    income: { lines: income, totalCents: total(income) },
    expenses: { lines: expenses, totalCents: total(expenses) },
    netIncomeCents: total(income) - total(expenses),
  };
}

/** The sum of every customer account's balance booked through `day`, from the rows of their ledger accounts alone. */
export function expectedCustomerBalances(books: RawBooks, day: string): bigint {
  let balance = 0n;
  for (const row of books.rows) {
    if (row.postedOn > day) continue;
    if (books.customerLedgerAccounts.has(row.credit)) balance += row.amount;
    if (books.customerLedgerAccounts.has(row.debit)) balance -= row.amount;
  }
  return balance;
}

/** A report's lines as the oracle states them (number, type and cents; names are the chart's words). */
export function figuresOf(lines: readonly { account: string; type: string; debitCents?: number; creditCents?: number; balanceCents?: number }[]) {
  return lines.map(({ account, type, debitCents, creditCents, balanceCents }) => ({
    account,
    type,
    ...(debitCents === undefined ? {} : { debitCents }),
    ...(creditCents === undefined ? {} : { creditCents }),
    ...(balanceCents === undefined ? {} : { balanceCents }),
  }));
}
