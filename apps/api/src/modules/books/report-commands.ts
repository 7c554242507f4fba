import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { bankDate } from '../../platform/bank-date.ts';
import { OpsUsageError, ok, type OpsCommand } from '../../platform/ops-command.ts';
import { isCalendarDate } from '../../platform/business-calendar.ts';
import { glBalancesFromLedgerOn, type GlBalance } from './balances.ts';
import { isMappedCode } from './chart.ts';
import { balanceSheet, incomeStatement, trialBalance } from './reports.ts';

/**
 * The books' reports and their check from the ops CLI (PRODUCT.md section 7, "The bank's books";
 * docs/books.md): `trial-balance --as-of D`, `balance-sheet --as-of D`,
 * `income-statement --from D --to D` print the same JSON as the back office's reports, and
 * `check-books` verifies that the books still tie to the ledger.
 */

/** The dates of `args`, which must be exactly the flags named, each once with a date: `dates(...)('from')`. */
function dates(command: string, args: readonly string[], names: readonly string[]): (name: string) => string {
  const usage = `${command} takes ${names.map((name) => `--${name} YYYY-MM-DD`).join(' ')}`;
  if (args.length !== names.length * 2) throw new OpsUsageError(usage);
  const found = new Map<string, string>();
  for (let index = 0; index < args.length; index += 2) {
    const flag = args[index] ?? '';
    const value = args[index + 1] ?? '';
    const name = flag.replace(/^--/, '');
    if (!flag.startsWith('--') || !names.includes(name) || found.has(name)) throw new OpsUsageError(usage);
    if (!isCalendarDate(value)) throw new OpsUsageError(`not a date: ${value}`);
    found.set(name, value);
  }
  return (name) => {
    const value = found.get(name);
    if (value === undefined) throw new Error(`${name} is not one of the flags read`);
    return value;
  };
}

export interface BooksViolation {
  check: 'unmapped_code' | 'closed_day_changed' | 'trial_balance_unbalanced' | 'balance_sheet_unbalanced' | 'customer_deposits_untied';
  detail: string;
}

/**
 * What check-books verifies (docs/books.md, "Checks"): every ledger account code has a place in the
 * chart; each closed day's kept balances equal what the ledger's rows give for that day today (a
 * posting slipped into a closed day, or a snapshot written wrong, shows here); the trial balance
 * and the balance sheet as of the bank's date balance; customer deposits on the balance sheet equal
 * the sum of the customer accounts' balances.
 */
export async function checkBooks(
  db: Queryable,
  config: Pick<Config, 'bankTimeZone'>,
): Promise<{ asOf: string; closedDaysChecked: number; violations: BooksViolation[] }> {
  const asOf = await bankDate(db, config);
  const codes = await db.query<{ code: number }>('SELECT DISTINCT code FROM ledger_accounts ORDER BY code');
  const unmapped = codes.map((row) => Number(row.code)).filter((code) => !isMappedCode(code));
  // Without a place for every code the balances cannot be grouped: that is the one violation to fix first.
  if (unmapped.length > 0) {
    return {
      asOf,
      closedDaysChecked: 0,
      violations: unmapped.map((code) => ({ check: 'unmapped_code', detail: `ledger account code ${code} has no general-ledger account` })),
    };
  }
  const violations: BooksViolation[] = [];
  const closedDays = await db.query<{ day: string }>(`SELECT to_char(day, 'YYYY-MM-DD') AS day FROM books_closed_days ORDER BY day`);
  const fromLedgerOn = await glBalancesFromLedgerOn(
    db,
    closedDays.map((row) => row.day),
  );
  const kept = await db.query<{ day: string; gl_account: string; debits_cents: string; credits_cents: string }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, gl_account, debits_cents::text, credits_cents::text FROM books_day_balances`,
  );
  const keptByDay = new Map<string, Map<string, (typeof kept)[number]>>();
  for (const row of kept) keptByDay.set(row.day, (keptByDay.get(row.day) ?? new Map()).set(row.gl_account, row));
  for (const { day } of closedDays) {
    const keptByAccount = keptByDay.get(day) ?? new Map<string, (typeof kept)[number]>();
    const fromLedger = fromLedgerOn.get(day) ?? new Map<string, GlBalance>();
    for (const account of [...new Set([...keptByAccount.keys(), ...fromLedger.keys()])].sort()) {
      const snapshot = keptByAccount.get(account);
      const ledger = fromLedger.get(account);
      const keptDebits = BigInt(snapshot?.debits_cents ?? '0');
      const keptCredits = BigInt(snapshot?.credits_cents ?? '0');
      if (keptDebits !== (ledger?.debits ?? 0n) || keptCredits !== (ledger?.credits ?? 0n)) {
        violations.push({
          check: 'closed_day_changed',
          detail: `${day} ${account}: closed with debits ${keptDebits} credits ${keptCredits}, the ledger now gives debits ${ledger?.debits ?? 0n} credits ${ledger?.credits ?? 0n}`,
        });
      }
    }
  }
  const trial = await trialBalance(db, asOf);
  if (!trial.balanced)
    violations.push({ check: 'trial_balance_unbalanced', detail: `${asOf}: debits ${trial.totals.debitCents}, credits ${trial.totals.creditCents}` });
  const sheet = await balanceSheet(db, asOf);
  if (!sheet.balanced) {
    violations.push({
      check: 'balance_sheet_unbalanced',
      detail: `${asOf}: assets ${sheet.totals.assetsCents}, liabilities and equity ${sheet.totals.liabilitiesAndEquityCents}`,
    });
  }
  if (!sheet.customerDeposits.tied) {
    violations.push({
      check: 'customer_deposits_untied',
      detail: `${asOf}: customer deposits ${sheet.customerDeposits.balanceSheetCents} on the balance sheet, ${sheet.customerDeposits.customerAccountsCents} in the customer accounts`,
    });
  }
  return { asOf, closedDaysChecked: closedDays.length, violations };
}

export const bookReportCommands: readonly OpsCommand[] = [
  {
    name: 'trial-balance',
    summary: "Print the bank's trial balance as of a business day (JSON)",
    usage: 'trial-balance --as-of YYYY-MM-DD',
    async run(context, args) {
      const asOf = dates('trial-balance', args, ['as-of'])('as-of');
      return ok(await trialBalance(await context.database(), asOf));
    },
  },
  {
    name: 'balance-sheet',
    summary: "Print the bank's balance sheet as of a business day (JSON)",
    usage: 'balance-sheet --as-of YYYY-MM-DD',
    async run(context, args) {
      const asOf = dates('balance-sheet', args, ['as-of'])('as-of');
      return ok(await balanceSheet(await context.database(), asOf));
    },
  },
  {
    name: 'income-statement',
    summary: "Print the bank's income statement for a range of business days (JSON)",
    usage: 'income-statement --from YYYY-MM-DD --to YYYY-MM-DD',
    async run(context, args) {
      const date = dates('income-statement', args, ['from', 'to']);
      const [from, to] = [date('from'), date('to')];
      if (from > to) throw new OpsUsageError(`--from ${from} is after --to ${to}`);
      return ok(await incomeStatement(await context.database(), from, to));
    },
  },
  {
    name: 'check-books',
    summary: 'Verify that the books tie to the ledger: closed days unchanged, reports balanced, customer deposits tied, every account code mapped (JSON)',
    usage: 'check-books',
    async run(context, args) {
      if (args.length !== 0) throw new OpsUsageError('check-books takes no arguments');
      const result = await checkBooks(await context.database(), context.config);
      return { ...ok({ ok: result.violations.length === 0, ...result }), exitCode: result.violations.length === 0 ? 0 : 1 };
    },
  },
];
