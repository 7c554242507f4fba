import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import type { BalanceSheet, IncomeStatement, ReportLine, TrialBalance } from '@strongroom/contracts/books.ts';
import type { Config } from '../../config.ts';
import { operatorAccounts, transferCodes } from '../../ledger/codes.ts';
import { createTransfers, createTransfersIn } from '../../ledger/create-transfers.ts';
import { bankDate } from '../../platform/bank-date.ts';
import { addDays } from '../../platform/business-calendar.ts';
import type { StaffActor } from '../../platform/request-actor.ts';
import { productIds } from '../../test/accounts.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { ownTransfer, paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { createTestStaff } from '../../test/staff.ts';
import { runOpsCommand } from '../ops/registry.ts';
import { requestAdjustment } from './adjustments.ts';
import { glBalancesFromLedger, glBalancesThrough } from './balances.ts';
import { closeBooksThrough } from './close.ts';
import { balanceSheet, incomeStatement, trialBalance } from './reports.ts';
import {
  expectedBalanceSheet,
  expectedCustomerBalances,
  expectedIncomeStatement,
  expectedTrialBalance,
  figuresOf,
  readRawBooks,
  type RawBooks,
} from './test-month.ts';

/**
 * Issue 35 items 1 and 2 (docs/books.md, "Reports"): the trial balance, balance sheet and income
 * statement, every line compared with test-month.ts's computation from the raw rows of
 * ledger_transfers, ledger_accounts, customer_accounts, customer_account_products and
 * deposit_products (it shares no code with chart.ts, balances.ts or reports.ts), over activity
 * made through the bank's own paths: funded accounts, an own transfer, external payments settled by
 * the rail, a fee, an adjusting entry, and postings of the year before. Then a closed day's reports stay the same after more activity.
 */

const figures = (lines: readonly ReportLine[]) => lines.map(({ name: _name, ...figure }) => figure);
const sum = (lines: readonly ReportLine[], field: 'debitCents' | 'creditCents' | 'balanceCents') =>
  lines.reduce((total, line) => total + (line[field] ?? 0), 0);
/** The oracle's trial balance lines of `asOf` (test-month.ts). */
const expectedTrial = (books: RawBooks, asOf: string) => expectedTrialBalance(books, asOf).lines;
/** The oracle's balance sheet lines of `asOf`: assets, liabilities, then equity. */
const expectedSheet = (books: RawBooks, asOf: string) => {
  const { assets, liabilities, equity } = expectedBalanceSheet(books, asOf);
  return [...assets.lines, ...liabilities.lines, ...equity.lines];
};

describeEachDatabase("the books' reports, line by line against the raw ledger rows", (database) => {
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ config } = built), { environment: { RAIL_SPEED: 'instant' } });
  let today: string;
  let lastYear: string;
  let ada: PayingCustomer;
  let finance: StaffActor;

  const ledgerAccountOf = async (accountId: string) => {
    const [row] = await database().query<{ ledger_account_id: string }>('SELECT ledger_account_id FROM customer_accounts WHERE id = $1', [accountId]);
    if (!row) throw new Error('no such account');
    return row.ledger_account_id;
  };
  const feeFrom = async (who: PayingCustomer, amountCents: bigint) => {
    const [outcome] = await createTransfers(database(), [
      {
        id: randomUUID(),
        debitAccountId: await ledgerAccountOf(who.checking.id),
        creditAccountId: operatorAccounts.feesIncome,
        amountCents,
        ledger: 840,
        code: transferCodes.fee,
      },
    ]);
    expect(outcome?.result).toBe('ok');
  };
  const adjust = async (debitAccount: string, creditAccount: string, amountCents: bigint) => {
    const outcome = await requestAdjustment(
      { db: database(), config },
      { debitAccount, creditAccount, amountCents, reason: 'Month-end accrual for the test' },
      finance,
    );
    expect(outcome.kind).toBe('posted');
  };
  const reportsOf = async (asOf: string) => ({
    trial: await trialBalance(database(), asOf),
    sheet: await balanceSheet(database(), asOf),
    income: await incomeStatement(database(), `${asOf.slice(0, 4)}-01-01`, asOf),
  });

  beforeAll(async () => {
    today = await bankDate(database(), config);
    lastYear = `${Number(today.slice(0, 4)) - 1}-07-01`;
    const member = await createTestStaff(database(), config, 'finance');
    finance = { staffId: member.id, role: 'finance', requestId: 'reports-test' };
    // The year before: fees earned and interest paid, booked on a day of that year (nothing is closed yet).
    await database().transaction(async (tx) => {
      await tx.query(`SELECT set_config('strongroom.posted_on', $1, true)`, [lastYear]);
      const outcomes = await createTransfersIn(tx, [
        {
          id: randomUUID(),
          debitAccountId: operatorAccounts.settlementAch,
          creditAccountId: operatorAccounts.feesIncome,
          amountCents: 5_000n,
          ledger: 840,
          code: transferCodes.fee,
        },
        {
          id: randomUUID(),
          debitAccountId: operatorAccounts.interestExpense,
          creditAccountId: operatorAccounts.settlementAch,
          amountCents: 1_234n,
          ledger: 840,
          code: transferCodes.interest,
        },
      ]);
      expect(outcomes.map((outcome) => outcome.result)).toEqual(['ok', 'ok']);
    });
    ada = await kit.customer({ fundCents: 500_000n, savingsCents: 120_000 });
    const grace = await kit.customer({ fundCents: 250_000n });
    for (const [who, amountCents] of [
      [ada, 45_050],
      [grace, 12_345],
    ] as const) {
      const paid = await kit.payOtherBank(who, { toAccountNumber: '123456789', accountName: 'Ada Lovelace', amountCents, message: 'Rent' });
      expect(paid.statusCode, paid.body).toBe(201);
    }
    await kit.runJobs();
    await feeFrom(grace, 695n);
    await adjust('marketingExpense', 'bankCapital', 2_500n);
  });

  it('prints every account of the chart with the figures the raw rows give, debits equal to credits', async () => {
    const raw = await readRawBooks(database());
    const { trial } = await reportsOf(today);
    expect(figures(trial.lines)).toEqual(expectedTrial(raw, today));
    expect(trial.totals).toEqual({ debitCents: sum(trial.lines, 'debitCents'), creditCents: sum(trial.lines, 'creditCents') });
    expect(trial.totals).toEqual(expectedTrialBalance(raw, today).totals);
    expect(trial.totals.debitCents).toBe(trial.totals.creditCents);
    expect(trial.balanced).toBe(true);
    expect(trial.closed).toBe(false);
    // The year before's net income ($50.00 - $12.34) is retained earnings; this year's fee and marketing show on their own lines.
    expect(trial.lines.find((line) => line.account === '3100')).toMatchObject({ debitCents: 0, creditCents: 3_766 });
    expect(trial.lines.find((line) => line.account === '4100')).toMatchObject({ creditCents: 695 });
    expect(trial.lines.find((line) => line.account === '5100')).toMatchObject({ debitCents: 2_500 });
  });

  it('balances the balance sheet, and its customer deposits tie to the customer accounts to the cent', async () => {
    const raw = await readRawBooks(database());
    const { sheet } = await reportsOf(today);
    expect(figures(sheet.lines)).toEqual(expectedSheet(raw, today));
    expect(figures(sheet.assets.lines).every((line) => line.type === 'asset')).toBe(true);
    expect(sheet.totals.assetsCents).toBe(sum(sheet.assets.lines, 'balanceCents'));
    expect(sheet.totals.liabilitiesCents).toBe(sum(sheet.liabilities.lines, 'balanceCents'));
    expect(sheet.totals.equityCents).toBe(sum(sheet.equity.lines, 'balanceCents'));
    const expected = expectedBalanceSheet(raw, today);
    expect([sheet.totals.assetsCents, sheet.totals.liabilitiesCents, sheet.totals.equityCents]).toEqual([
      expected.assets.totalCents,
      expected.liabilities.totalCents,
      expected.equity.totalCents,
    ]);
    expect(sheet.totals.assetsCents).toBe(sheet.totals.liabilitiesCents + sheet.totals.equityCents);
    expect(sheet.totals.liabilitiesAndEquityCents).toBe(sheet.totals.assetsCents);
    expect(sheet.balanced).toBe(true);
    const customers = Number(expectedCustomerBalances(raw, today));
    // Ada's $5,000.00 less $450.50 paid out, Grace's $2,500.00 less $123.45 and a $6.95 fee.
    expect(customers).toBe(500_000 - 45_050 + 250_000 - 12_345 - 695);
    expect(expected.depositsCents).toBe(customers);
    expect(sheet.customerDeposits).toEqual({ balanceSheetCents: customers, customerAccountsCents: customers, tied: true });
    expect(sheet.equity.lines.map((line) => [line.account, line.balanceCents])).toEqual([
      ['3000', expectedSheet(raw, today).find((line) => line.account === '3000')?.balanceCents],
      ['3100', 3_766],
      ['3200', 695 - 2_500],
    ]);
  });

  it("gives any range's income and expenses, net income included", async () => {
    const raw = await readRawBooks(database());
    for (const [from, to] of [
      [`${today.slice(0, 4)}-01-01`, today],
      [lastYear, today],
      [lastYear, lastYear],
      [addDays(lastYear, 1), addDays(today, -1)],
    ] as const) {
      const statement = await incomeStatement(database(), from, to);
      const expected = expectedIncomeStatement(raw, from, to);
      expect(figures(statement.lines), `${from}..${to}`).toEqual([...expected.income.lines, ...expected.expenses.lines]);
      const incomeCents = sum(statement.income.lines, 'balanceCents');
      const expensesCents = sum(statement.expenses.lines, 'balanceCents');
      expect(statement.totals).toEqual({ incomeCents, expensesCents, netIncomeCents: incomeCents - expensesCents });
      expect(statement.totals, `${from}..${to}`).toEqual({
        incomeCents: expected.income.totalCents,
        expensesCents: expected.expenses.totalCents,
        netIncomeCents: expected.netIncomeCents,
      });
    }
    expect((await incomeStatement(database(), lastYear, today)).totals).toEqual({
      incomeCents: 5_000 + 695,
      expensesCents: 1_234 + 2_500,
      netIncomeCents: 5_695 - 3_734,
    });
  });

  it("prints a closed day's reports the same after more activity, which is booked on the open day", async () => {
    expect(await closeBooksThrough(database(), today, 'reports-test')).toEqual({ closed: [today] });
    const closed = await reportsOf(today);
    expect([closed.trial.closed, closed.sheet.closed, closed.income.closed]).toEqual([true, true, true]);

    const moved = await kit.pay(ada, '/transfers', ownTransfer(ada.checking.id, ada.savings.id, 10_000, 'More savings'));
    expect(moved.statusCode, moved.body).toBe(201);
    await feeFrom(ada, 300n);
    await adjust('marketingExpense', 'settlementAch', 700n);

    const after: { trial: TrialBalance; sheet: BalanceSheet; income: IncomeStatement } = await reportsOf(today);
    expect(after).toEqual(closed);
    const tomorrow = addDays(today, 1);
    const raw = await readRawBooks(database());
    const open = await reportsOf(tomorrow);
    expect(open.trial.closed).toBe(false);
    expect(figures(open.trial.lines)).toEqual(expectedTrial(raw, tomorrow));
    expect(figures(open.sheet.lines)).toEqual(expectedSheet(raw, tomorrow));
    expect(open.sheet.customerDeposits.tied).toBe(true);
    expect(open.sheet.balanced).toBe(true);
    expect((await incomeStatement(database(), tomorrow, tomorrow)).totals).toEqual({ incomeCents: 300, expensesCents: 700, netIncomeCents: -400 });
  });
});

/**
 * docs/books.md, "The chart of accounts": a customer moves a checking account to another product
 * between two closes. On any day the account's whole balance is in the line of the product in force
 * that day (customer_account_products): the closed day keeps it in the old product's line, the
 * days from the change on in the new one's, and check-books finds nothing changed.
 */
describeEachDatabase('the books when an account changes product', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built));
  let today: string;
  let ada: PayingCustomer;
  const ops = (command: string, args: string[]) =>
    runOpsCommand({ database: async () => database(), config, liveEvents: app.services.liveEvents }, command, args);

  const feeFrom = async (who: PayingCustomer, amountCents: bigint) => {
    const [account] = await database().query<{ ledger_account_id: string }>('SELECT ledger_account_id FROM customer_accounts WHERE id = $1', [who.checking.id]);
    if (!account) throw new Error('no such account');
    const [outcome] = await createTransfers(database(), [
      {
        id: randomUUID(),
        debitAccountId: account.ledger_account_id,
        creditAccountId: operatorAccounts.feesIncome,
        amountCents,
        ledger: 840,
        code: transferCodes.fee,
      },
    ]);
    expect(outcome?.result).toBe('ok');
  };
  const reportsOf = async (asOf: string) => ({
    trial: await trialBalance(database(), asOf),
    sheet: await balanceSheet(database(), asOf),
    income: await incomeStatement(database(), `${asOf.slice(0, 4)}-01-01`, asOf),
  });
  const changeProduct = async (productId: string) => {
    const changed = await ada.browser.put(`/api/v1/accounts/${ada.checking.id}/product`, { productId });
    expect(changed.statusCode, changed.body).toBe(200);
  };
  /** 2111 Easy Checking and 2112 Gold Checking on the balance sheet of `day`, which must balance and tie. */
  const checkingLines = async (day: string) => {
    const sheet = await balanceSheet(database(), day);
    expect(sheet.balanced).toBe(true);
    expect(sheet.customerDeposits.tied).toBe(true);
    const line = (account: string) => sheet.liabilities.lines.find((candidate) => candidate.account === account)?.balanceCents;
    return { easy: line('2111'), gold: line('2112') };
  };
  /** Every line of the trial balance and balance sheet of `day` against the raw rows (test-month.ts), and the snapshot path against the ledger alone. */
  const expectTies = async (day: string) => {
    const books = await readRawBooks(database());
    expect(figuresOf((await trialBalance(database(), day)).lines), `trial balance of ${day}`).toEqual(expectedTrialBalance(books, day).lines);
    const sheet = await balanceSheet(database(), day);
    const expected = expectedBalanceSheet(books, day);
    expect(figuresOf(sheet.lines), `balance sheet of ${day}`).toEqual([...expected.assets.lines, ...expected.liabilities.lines, ...expected.equity.lines]);
    expect(expected.depositsCents).toBe(Number(expectedCustomerBalances(books, day)));
    expect(await glBalancesThrough(database(), day)).toEqual(await glBalancesFromLedger(database(), day));
  };
  const expectCheckBooksOk = async (closedDaysChecked: number) => {
    const checked = await ops('check-books', []);
    expect(checked.exitCode, checked.output).toBe(0);
    expect(JSON.parse(checked.output)).toEqual({ ok: true, asOf: today, closedDaysChecked, violations: [] });
  };

  beforeAll(async () => {
    today = await bankDate(database(), config);
    ada = await kit.customer({ fundCents: 300_000n });
    await kit.customer({ fundCents: 100_000n });
    await feeFrom(ada, 695n);
  });

  it("keeps a closed day's lines, and puts the account's whole balance in the new product's line from the change on", async () => {
    const [closed, next, after] = [today, addDays(today, 1), addDays(today, 2)];
    await closeBooksThrough(database(), closed, 'reports-test');
    const closedReports = await reportsOf(closed);
    expect(await checkingLines(closed)).toEqual({ easy: 300_000 - 695 + 100_000, gold: 0 });

    // The day is closed: the change is in force from the open day, the day after.
    await changeProduct(productIds.goldChecking);
    const history = await database().query<{ product_id: string; from_day: string }>(
      `SELECT product_id, to_char(from_day, 'YYYY-MM-DD') AS from_day FROM customer_account_products WHERE account_id = $1 ORDER BY from_day`,
      [ada.checking.id],
    );
    expect(history.map((row) => [row.product_id, row.from_day])).toEqual([
      [productIds.easyChecking, '0001-01-01'],
      [productIds.goldChecking, next],
    ]);
    await feeFrom(ada, 300n);

    expect(await reportsOf(closed)).toEqual(closedReports);
    // The closed day's kept lines plus the open day's fee, Ada's balance moved to Gold Checking whole.
    expect(await checkingLines(next)).toEqual({ easy: 100_000, gold: 300_000 - 695 - 300 });
    await expectTies(closed);
    await expectTies(next);
    await expectCheckBooksOk(1);

    // The next day closes too: its reports read the same from its own kept lines.
    const nextReports = await reportsOf(next);
    expect(await closeBooksThrough(database(), next, 'reports-test')).toEqual({ closed: [next] });
    expect(await reportsOf(next)).toEqual({
      trial: { ...nextReports.trial, closed: true },
      sheet: { ...nextReports.sheet, closed: true },
      income: { ...nextReports.income, closed: true },
    });
    await expectCheckBooksOk(2);

    // And back again after that close: both closed days keep their lines, the day after has it all in Easy Checking.
    await changeProduct(productIds.easyChecking);
    expect(await reportsOf(closed)).toEqual(closedReports);
    expect(await checkingLines(next)).toEqual({ easy: 100_000, gold: 300_000 - 695 - 300 });
    expect(await checkingLines(after)).toEqual({ easy: 300_000 - 695 - 300 + 100_000, gold: 0 });
    for (const day of [closed, next, after]) await expectTies(day);
    await expectCheckBooksOk(2);
  });
});
