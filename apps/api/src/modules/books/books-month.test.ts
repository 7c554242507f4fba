import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import type { BalanceSheet, IncomeStatement, TrialBalance } from '@strongroom/contracts/books.ts';
import type { Config } from '../../config.ts';
import { TestClock } from '../../db/clock.ts';
import { checkLedger } from '../../ledger/check-ledger.ts';
import { startOfDayIn } from '../../platform/bank-date.ts';
import { cardSuite } from '../../test/cards.ts';
import { TestBrowser } from '../../test/client.ts';
import { waitingIdentityReview } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { activeLoan } from '../../test/loans.ts';
import { ownTransfer, type PayingCustomer } from '../../test/payments.ts';
import { staffBrowser } from '../../test/staff.ts';
import { runOpsCommand } from '../ops/registry.ts';
import { balanceSheet, incomeStatement, trialBalance } from './reports.ts';
import {
  currentYearEarnings,
  expectedBalanceSheet,
  expectedCustomerBalances,
  expectedIncomeStatement,
  expectedTrialBalance,
  figuresOf,
  readRawBooks,
  retainedEarnings,
} from './test-month.ts';

/**
 * Issue 35's main test (docs/books.md, "Reports"): a month of the bank's activity that crosses a
 * year end, made through the bank's own paths (the API, the card network simulator, the rail's
 * settlements and returns, the staff routes, end of day and the ops commands), then every line of the trial balance,
 * the balance sheet and the income statement of closed days compared with a computation from the
 * raw ledger rows written in test-month.ts, to the cent. End of day closes each business day it
 * runs; a closed day's reports never change after more activity; check-books finds a broken
 * snapshot.
 */
const timeZone = 'America/New_York';
/** The bank's end of day last ran on Friday 2031-12-05: the month starts on Monday the 8th. */
const lastRunBefore = '2031-12-05';
const at = (day: string, hour: number) => new Date(startOfDayIn(timeZone, day).getTime() + hour * 3_600_000);
const reason = 'Checked the account history and the documents';

describeEachDatabase('the books over a month across a year end, against a computation from the raw ledger rows', (database) => {
  const clock = new TestClock();
  let app: FastifyInstance;
  let config: Config;
  const kit = cardSuite(database, (built) => ({ app, config } = built), {
    dependencies: { clock },
    environment: { RAIL_SPEED: 'instant', CARD_AUTO_APPROVE_SECONDS: 'off', KYC_AUTO_APPROVE_SECONDS: 'off', BANK_TIME_ZONE: timeZone },
  });
  const ops = async (command: string, args: string[]) =>
    runOpsCommand({ database: async () => database(), config, liveEvents: app.services.liveEvents }, command, args);
  const moveTo = (day: string, hour = 10) => clock.advance(at(day, hour).getTime() - clock.now().getTime());
  const endOfDay = async (through: string) => {
    const run = await ops('end-of-day', ['--through', through]);
    expect(run.exitCode, run.output).toBe(0);
    expect((await checkLedger(database())).violations).toEqual([]);
    return JSON.parse(run.output) as { days: string[]; interestPostedCents: number; feesChargedCents: number };
  };
  const expectCreated = (response: { statusCode: number; body: string }, status = 201) => expect(response.statusCode, response.body).toBe(status);

  let alice: PayingCustomer;
  let bob: PayingCustomer;
  let carol: PayingCustomer;
  let dave: PayingCustomer;
  let eve: PayingCustomer;
  let olga: TestBrowser;
  let omar: TestBrowser;
  let compliance: TestBrowser;
  /** The customer Carol referred. */
  let friend: TestBrowser;
  const runs: { days: string[]; interestPostedCents: number; feesChargedCents: number }[] = [];
  /** Reports of closed days read as soon as each closed, to compare after more activity. */
  const keptReports = new Map<string, { trial: TrialBalance; sheet: BalanceSheet; income: IncomeStatement }>();
  const keepReports = async (day: string) =>
    keptReports.set(day, {
      trial: await trialBalance(database(), day),
      sheet: await balanceSheet(database(), day),
      income: await incomeStatement(database(), `${day.slice(0, 8)}01`, day),
    });

  /** The rail's file of the day: every pending ACH payment settles (the sweep goes by the database's time, which the test clock does not move). */
  const settleByRail = async () => {
    const pending = await database().query<{ id: string }>(`SELECT id FROM payments WHERE status = 'pending' AND rail = 'ach' ORDER BY created_at, id`);
    for (const { id } of pending) {
      const settled = await ops('ach-settle', [id, '--reason', 'Settled in the rail file of the day']);
      expect(settled.exitCode, settled.output).toBe(0);
    }
  };
  const deposit = (who: PayingCustomer, amountCents: number, fundingSourceId = who.fundingSourceId) =>
    kit.pay(who, '/deposits', { accountId: who.checking.id, fundingSourceId, amountCents, reason: 'Pay from my other bank' });
  const report = async (who: PayingCustomer, transferId: string) => {
    const response = await who.browser.post('/api/v1/disputes', { transferId, reason: 'unauthorized', description: 'I do not recognise this payment at all.' });
    expectCreated(response);
    return response.json<{ dispute: { id: string } }>().dispute.id;
  };
  const disputeAct = (browser: TestBrowser, id: string, path: string, body: object = { reason }) => browser.post(`/api/v1/staff/disputes/${id}/${path}`, body);

  beforeAll(async () => {
    olga = (await staffBrowser(app, database(), config, 'operations')).browser;
    omar = (await staffBrowser(app, database(), config, 'operations')).browser;
    compliance = (await staffBrowser(app, database(), config, 'compliance')).browser;
    // Opened (and funded from the bank's capital) before the month; the bank's end of day last ran on the Friday before it.
    alice = await kit.customer({ fundCents: 2_000_000n, savingsCents: 1_000_000, firstName: 'Alice', lastName: 'Able' });
    bob = await kit.customer({ fundCents: 100_000n, savingsCents: 0, firstName: 'Bob', lastName: 'Baker' });
    carol = await kit.customer({ fundCents: 300_000n, savingsCents: 50_000, firstName: 'Carol', lastName: 'Cole' });
    dave = await kit.customer({ fundCents: 200_000n, savingsCents: 50_000, firstName: 'Dave', lastName: 'Dunn' });
    eve = await kit.customer({ fundCents: 0n, savingsCents: 0, firstName: 'Eve', lastName: 'Evans' });

    // Today (the clock still on the machine's time): a debit card purchase cleared, two payments to
    // other banks settled, and each disputed. A dispute is reported within 60 days of the statement
    // that showed the payment, and payments are dated by the database's own time, so they are
    // reported now; their money moves in the month.
    const debit = await kit.activeCard(dave);
    const spent = await kit.purchase(await kit.reveal(dave, debit.id), 4_200);
    expect(spent.status).toBe('approved');
    expectCreated(await kit.network(`${spent.id}/clear`, { amountCents: 4_200 }), 200);
    const gadget = await kit.payOtherBank(dave, { toAccountNumber: '555666777', accountName: 'Quick Gadgets', amountCents: 3_300, message: 'Gadget' });
    expectCreated(gadget);
    const lamp = await kit.payOtherBank(dave, { toAccountNumber: '555666888', accountName: 'Lamp Shop', amountCents: 2_000, message: 'Lamp' });
    expectCreated(lamp);
    await kit.runJobs();
    const cardDispute = await report(dave, spent.id);
    const lostDispute = await report(dave, gadget.json<{ transfer: { id: string } }>().transfer.id);
    const deniedDispute = await report(dave, lamp.json<{ transfer: { id: string } }>().transfer.id);

    // The bank has been running: its end of day last ran on Friday 5 December 2031 (the row end of
    // day writes for a day it finished). Without it the first run would start at today's openings
    // and run every business day up to 2031.
    await database().query(`INSERT INTO business_days (day, covers_from, status, started_at, finished_at) VALUES ($1::date, $1::date, 'done', now(), now())`, [
      lastRunBefore,
    ]);

    // Monday 8 December: a deposit from a verified account settled by the rail, an own transfer, a
    // payment to another customer, one to another bank settled, a new account with its opening
    // deposit, and another checking tier.
    moveTo('2031-12-08');
    expectCreated(await deposit(alice, 30_000));
    expectCreated(await kit.pay(alice, '/transfers', ownTransfer(alice.checking.id, alice.savings.id, 50_000, 'Savings')));
    expectCreated(await kit.payCustomer(alice, bob, { accountName: 'Bob Baker', amountCents: 20_000, message: 'Dinner' }));
    expectCreated(await kit.payOtherBank(alice, { toAccountNumber: '123456789', accountName: 'Grace Landlord', amountCents: 15_000, message: 'Rent' }));
    expectCreated(
      await alice.browser.request({
        method: 'POST',
        url: '/api/v1/accounts',
        payload: { productId: '00000000-0000-4000-8000-00000000d005', fromAccountId: alice.checking.id, openingDepositCents: 250_000, acceptDisclosure: true },
        headers: { 'idempotency-key': 'alice-money-market' },
      }),
    );
    const tier = await alice.browser.put(`/api/v1/accounts/${alice.checking.id}/product`, { productId: '00000000-0000-4000-8000-00000000d002' });
    expect(tier.statusCode, tier.body).toBe(200);
    // Staff credit the card's dispute; end of day credits the other two, whose Regulation E date has passed.
    expectCreated(await disputeAct(olga, cardDispute, 'provisional-credit'), 200);
    await settleByRail();
    runs.push(await endOfDay('2031-12-08'));

    // Tuesday 9 December: a credit card (its line), a purchase authorised and cleared for less, a
    // repayment; a loan offered, accepted and paid out.
    moveTo('2031-12-09');
    const card = await kit.activeCard(carol, { type: 'credit', creditLimitCents: 200_000 });
    const revealed = await kit.reveal(carol, card.id);
    const bought = await kit.purchase(revealed, 12_000, { merchantName: 'Skyways', mcc: '4511' });
    expect(bought.status).toBe('approved');
    expectCreated(await kit.network(`${bought.id}/clear`, { amountCents: 10_000 }), 200);
    expectCreated(await kit.pay(carol, `/cards/${card.id}/payments`, { fromAccountId: carol.checking.id, amountCents: 6_000 }));
    await activeLoan(carol.browser, olga, { reason: 'Income and history support it', amountCents: 100_000, aprBps: 1_200, termMonths: 6 });
    // A friend Carol referred signs up and is approved: Carol's referral bonus, from marketing.
    const { code } = (await carol.browser.get('/api/v1/me/referral')).json<{ code: string }>();
    const email = `${randomUUID()}@example.com`;
    const password = 'compiler nanoseconds 1952';
    expectCreated(
      await new TestBrowser(app).post('/api/v1/auth/signup', {
        firstName: 'Frank',
        lastName: 'Friend',
        email,
        password,
        confirmPassword: password,
        acceptTerms: true,
        referralCode: code,
      }),
    );
    const [friendRow] = await database().query<{ id: string }>('SELECT id FROM customers WHERE email_normalized = lower($1)', [email]);
    const reviewId = await waitingIdentityReview(database(), config.secrets.encryptionKey, friendRow?.id ?? '');
    expectCreated(await compliance.post(`/api/v1/staff/identity-reviews/${reviewId}/decision`, { decision: 'approve', reason: 'Document matches' }), 200);
    friend = await new TestBrowser(app).signInAs(database(), friendRow?.id ?? '');
    await settleByRail();
    runs.push(await endOfDay('2031-12-09'));

    // Thursday 11 December and Monday 15 December: one dispute denied (its credit is taken back on
    // its reversal date, by end of day), the card's resolved for the customer (the network pays it
    // back); a deposit that settled, was spent and was then returned by the other bank (the
    // account owes the bank what it spent).
    moveTo('2031-12-11');
    expectCreated(
      await disputeAct(omar, deniedDispute, 'decision', { decision: 'denied', explanation: 'The shop shows the lamp was delivered.', reason }),
      200,
    );
    expectCreated(await disputeAct(omar, cardDispute, 'decision', { decision: 'customer', explanation: 'The merchant confirmed the error.', reason }), 200);
    expectCreated(await deposit(eve, 20_000));
    await settleByRail();
    runs.push(await endOfDay('2031-12-11'));
    moveTo('2031-12-15');
    const eveDeposit = (await database().query<{ id: string }>(`SELECT id FROM payments WHERE customer_id = $1 AND kind = 'deposit'`, [eve.id]))[0]?.id ?? '';
    expectCreated(await kit.payCustomer(eve, alice, { accountName: 'Alice Able', amountCents: 15_000, message: 'Concert tickets' }));
    const returned = await ops('ach-return', [eveDeposit, '--code', 'R01', '--reason', 'Late return in the rail file of 15 December']);
    expect(returned.exitCode, returned.output).toBe(0);
    runs.push(await endOfDay('2031-12-15'));
    await keepReports('2031-12-15');

    // Monday 22 December: the other dispute resolved for the customer, with nobody to charge (the bank's loss); more spending.
    moveTo('2031-12-22');
    expectCreated(await disputeAct(omar, lostDispute, 'decision', { decision: 'customer', explanation: 'The seller never delivered.', reason }), 200);
    expectCreated(await kit.pay(bob, '/transfers', ownTransfer(bob.checking.id, bob.savings.id, 30_000, 'Savings')));
    // A bill paid to a biller of the directory (added by staff), and an account at another bank
    // linked by Eve (its micro-deposits, the bank's verification expense); the rail settles both.
    const biller = await olga.post('/api/v1/staff/billers', {
      name: 'City Water',
      category: 'water',
      accountNumberPattern: '\\d{10}',
      accountNumberExample: '1234567890',
      paymentMethod: 'ach',
      routingNumber: '011000015',
      accountNumber: '4002008100',
      reason: 'A utility our customers asked for',
    });
    expectCreated(biller);
    const payee = await bob.browser.post('/api/v1/bill-payees', {
      billerId: biller.json<{ biller: { id: string } }>().biller.id,
      accountNumber: '5550004821',
      nickname: 'Water',
    });
    expectCreated(payee);
    expectCreated(
      await kit.payWithStepUp(bob, '/transfers', {
        kind: 'bill',
        fromAccountId: bob.checking.id,
        billPayeeId: payee.json<{ payee: { id: string } }>().payee.id,
        amountCents: 4_200,
        message: 'December',
      }),
    );
    expectCreated(
      await kit.payWithStepUp(eve, '/funding-sources', {
        accountName: 'Eve Evans',
        accountNumber: '5550123',
        routeNumber: '011000015',
        accountType: 'savings',
      }),
    );
    await settleByRail();
    runs.push(await endOfDay('2031-12-22'));

    // The month end: interest on savings and the Gold tier, the monthly fee where no waiver holds.
    moveTo('2031-12-31');
    expectCreated(await kit.payCustomer(bob, carol, { accountName: 'Carol Cole', amountCents: 2_500, message: 'Year-end gift' }));
    runs.push(await endOfDay('2031-12-31'));
    await keepReports('2031-12-31');

    // January: money that comes in pays what Eve owes first; the loan's first instalment with its interest.
    moveTo('2032-01-05');
    expectCreated(await kit.payCustomer(alice, eve, { accountName: 'Eve Evans', amountCents: 10_000, message: 'Refund' }));
    expectCreated(await deposit(dave, 12_500));
    await settleByRail();
    runs.push(await endOfDay('2032-01-08'));
    moveTo('2032-01-09');
    // The loan's schedule runs from its payout (dated by the database's time); the daily job as of its first due date takes the instalment.
    const [loan] = (await carol.browser.get('/api/v1/loans')).json<{ items: { id: string }[] }>().items;
    const detail = await carol.browser.get(`/api/v1/loans/${loan?.id ?? ''}`);
    const firstDue = detail.json<{ schedule: { dueDate: string }[] }>().schedule[0]?.dueDate ?? '';
    const instalment = await ops('loan-repayments', ['--as-of', firstDue]);
    expect(instalment.exitCode, instalment.output).toBe(0);
    expect(JSON.parse(instalment.output)).toMatchObject({ paid: 1 });
    runs.push(await endOfDay('2032-01-09'));
    await keepReports('2032-01-09');

    // Monday 12 January: more activity after the days kept, and one more day closed.
    moveTo('2032-01-12');
    expectCreated(await kit.pay(alice, '/transfers', ownTransfer(alice.savings.id, alice.checking.id, 40_000, 'Holiday')));
    expectCreated(await kit.payOtherBank(bob, { toAccountNumber: '222333444', accountName: 'City Gym', amountCents: 4_500, message: 'Membership' }));
    await settleByRail();
    runs.push(await endOfDay('2032-01-12'));
  }, 240_000);

  it('seeds a month in which every kind of money moved, and end of day closed each business day', async () => {
    const moved = await database().query<{ code: number }>('SELECT DISTINCT code FROM ledger_transfers WHERE flags & 10 = 0 ORDER BY code');
    expect(moved.map((row) => Number(row.code))).toEqual(expect.arrayContaining([3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 20, 21, 23, 24, 25, 26, 27]));
    expect(runs.reduce((sum, run) => sum + run.interestPostedCents, 0)).toBeGreaterThan(0);
    expect(runs.reduce((sum, run) => sum + run.feesChargedCents, 0)).toBeGreaterThan(0);
    const [state] = await database().query<{ closed_through: string }>(`SELECT to_char(closed_through, 'YYYY-MM-DD') AS closed_through FROM books_state`);
    expect(state?.closed_through).toBe('2032-01-12');
    // Each business day end of day ran was closed, with its balances kept.
    const closed = await database().query<{ day: string }>(`SELECT to_char(day, 'YYYY-MM-DD') AS day FROM books_closed_days ORDER BY day`);
    expect(closed.map((row) => row.day)).toEqual(runs.flatMap((run) => run.days));
  });

  /** Every line of the three reports of `day` against the computation from the raw rows, to the cent. */
  async function expectReportsTie(day: string): Promise<void> {
    const books = await readRawBooks(database());
    const monthStart = `${day.slice(0, 8)}01`;

    const trial = await trialBalance(database(), day);
    const expectedTrial = expectedTrialBalance(books, day);
    expect(figuresOf(trial.lines), `trial balance of ${day}`).toEqual(expectedTrial.lines);
    expect(trial.totals).toEqual(expectedTrial.totals);
    expect(trial.totals.debitCents).toBe(trial.totals.creditCents);
    expect(trial).toMatchObject({ asOf: day, closed: true, balanced: true });

    const sheet = await balanceSheet(database(), day);
    const expectedSheet = expectedBalanceSheet(books, day);
    for (const name of ['assets', 'liabilities', 'equity'] as const) {
      expect(figuresOf(sheet[name].lines), `${name} of ${day}`).toEqual(expectedSheet[name].lines);
      expect(sheet[name].totalCents).toBe(expectedSheet[name].totalCents);
    }
    expect(figuresOf(sheet.lines)).toEqual([...expectedSheet.assets.lines, ...expectedSheet.liabilities.lines, ...expectedSheet.equity.lines]);
    expect(sheet.totals).toEqual({
      assetsCents: expectedSheet.assets.totalCents,
      liabilitiesCents: expectedSheet.liabilities.totalCents,
      equityCents: expectedSheet.equity.totalCents,
      liabilitiesAndEquityCents: expectedSheet.liabilities.totalCents + expectedSheet.equity.totalCents,
    });
    expect(expectedSheet.assets.totalCents).toBe(expectedSheet.liabilities.totalCents + expectedSheet.equity.totalCents);
    expect(sheet).toMatchObject({ asOf: day, closed: true, balanced: true });
    // Customer deposits, each way: the 21xx lines, and every customer account's own rows.
    const customerCents = Number(expectedCustomerBalances(books, day));
    expect(expectedSheet.depositsCents).toBe(customerCents);
    expect(sheet.customerDeposits).toEqual({ balanceSheetCents: customerCents, customerAccountsCents: customerCents, tied: true });

    const income = await incomeStatement(database(), monthStart, day);
    const expectedIncome = expectedIncomeStatement(books, monthStart, day);
    expect(figuresOf(income.income.lines), `income from ${monthStart} to ${day}`).toEqual(expectedIncome.income.lines);
    expect(figuresOf(income.expenses.lines), `expenses from ${monthStart} to ${day}`).toEqual(expectedIncome.expenses.lines);
    expect(figuresOf(income.lines)).toEqual([...expectedIncome.income.lines, ...expectedIncome.expenses.lines]);
    expect(income.totals).toEqual({
      incomeCents: expectedIncome.income.totalCents,
      expensesCents: expectedIncome.expenses.totalCents,
      netIncomeCents: expectedIncome.netIncomeCents,
    });
    expect(income).toMatchObject({ from: monthStart, to: day, closed: true });
  }

  it('ties every line of the trial balance, balance sheet and income statement of closed days to the raw ledger rows, to the cent', async () => {
    for (const day of ['2031-12-15', '2031-12-31', '2032-01-02', '2032-01-09', '2032-01-12']) await expectReportsTie(day);
    // And what the month did, as the balance sheet shows it: on the 15th two disputes' provisional
    // credits are out and Eve owes what she spent of the returned deposit; by the year end the
    // denied credit was taken back and the other became the bank's loss.
    const asset = (sheet: BalanceSheet, account: string) => sheet.assets.lines.find((line) => line.account === account)?.balanceCents;
    const mid = await balanceSheet(database(), '2031-12-15');
    expect({ suspense: asset(mid, '1300'), owed: asset(mid, '1200') }).toEqual({ suspense: 5_300, owed: 15_000 });
    const yearEnd = await balanceSheet(database(), '2031-12-31');
    expect({ suspense: asset(yearEnd, '1300'), owed: asset(yearEnd, '1200') }).toEqual({ suspense: 0, owed: 15_000 });
  });

  it('closes the year into equity: December’s net income is what 3200 grew by, and January carries the year in retained earnings', async () => {
    const equityLine = (sheet: BalanceSheet, account: string) => sheet.equity.lines.find((line) => line.account === account)?.balanceCents;
    const december = await incomeStatement(database(), '2031-12-01', '2031-12-31');
    const before = await balanceSheet(database(), '2031-11-30');
    const yearEnd = await balanceSheet(database(), '2031-12-31');
    const january = await balanceSheet(database(), '2032-01-09');
    // The month moved interest, fees, the bank's dispute loss and a loan's interest: none of it is zero.
    const figure = (account: string) => december.lines.find((line) => line.account === account)?.balanceCents;
    expect(figure('5000')).toBeGreaterThan(0);
    expect(figure('4100')).toBeGreaterThan(0);
    expect(figure('5300')).toBe(3_300);
    expect(figure('5100')).toBe(1_000);
    expect(figure('5200')).toBeGreaterThan(0);
    expect(december.totals.netIncomeCents).toBe((equityLine(yearEnd, currentYearEarnings) ?? 0) - (equityLine(before, currentYearEarnings) ?? 0));
    expect(equityLine(yearEnd, retainedEarnings)).toBe(0);
    expect(equityLine(january, retainedEarnings)).toBe((equityLine(yearEnd, retainedEarnings) ?? 0) + (equityLine(yearEnd, currentYearEarnings) ?? 0));
    expect(equityLine(january, retainedEarnings)).not.toBe(0);
    const januaryIncome = await incomeStatement(database(), '2032-01-01', '2032-01-09');
    expect(equityLine(january, currentYearEarnings)).toBe(januaryIncome.totals.netIncomeCents);
    expect(januaryIncome.lines.find((line) => line.account === '4000')?.balanceCents).toBeGreaterThan(0);
  });

  it('shows customer deposits equal to the balances each customer sees, less what overdrawn accounts owe the bank', async () => {
    const sheet = await balanceSheet(database(), '2032-01-12');
    let shown = 0;
    for (const browser of [alice, bob, carol, dave, eve].map((who) => who.browser).concat(friend)) {
      const response = await browser.get('/api/v1/accounts');
      expect(response.statusCode).toBe(200);
      for (const account of response.json<{ balanceCents: number }[]>()) shown += account.balanceCents;
    }
    const overdrawn = sheet.assets.lines.find((line) => line.account === '1200')?.balanceCents ?? 0;
    expect(overdrawn).toBe(5_000);
    expect(shown).toBe(sheet.customerDeposits.balanceSheetCents - overdrawn);
    expect(sheet.customerDeposits.customerAccountsCents).toBe(sheet.customerDeposits.balanceSheetCents);
  });

  it('answers the same reports of a closed day after more activity and more closed days', async () => {
    expect([...keptReports.keys()]).toEqual(['2031-12-15', '2031-12-31', '2032-01-09']);
    for (const [day, kept] of keptReports) {
      expect(await trialBalance(database(), day)).toEqual(kept.trial);
      expect(await balanceSheet(database(), day)).toEqual(kept.sheet);
      expect(await incomeStatement(database(), `${day.slice(0, 8)}01`, day)).toEqual(kept.income);
    }
  });

  it('check-books passes on the month, and fails naming the day and the account when a closed day’s kept balance is changed', async () => {
    const passed = await ops('check-books', []);
    expect(passed.exitCode, passed.output).toBe(0);
    expect(JSON.parse(passed.output)).toMatchObject({ ok: true, asOf: '2032-01-12', violations: [] });
    expect(JSON.parse(passed.output).closedDaysChecked).toBeGreaterThanOrEqual(runs.length);

    // A kept balance cannot be updated (a trigger forbids it): the fault is made with the trigger off, in one transaction.
    const tamper = (cents: number) =>
      database().transaction(async (tx) => {
        await tx.query('ALTER TABLE books_day_balances DISABLE TRIGGER books_day_balances_final');
        await tx.query(`UPDATE books_day_balances SET debits_cents = debits_cents + $1 WHERE day = '2031-12-15' AND gl_account = '5400'`, [cents]);
        await tx.query('ALTER TABLE books_day_balances ENABLE TRIGGER books_day_balances_final');
      });
    await expect(
      database().query(`UPDATE books_day_balances SET debits_cents = debits_cents + 1 WHERE day = '2031-12-15' AND gl_account = '5400'`),
    ).rejects.toThrow(/a closed day's books never change/);
    await tamper(1);
    try {
      const failed = await ops('check-books', []);
      expect(failed.exitCode, failed.output).toBe(1);
      const result = JSON.parse(failed.output) as { ok: boolean; violations: { check: string; detail: string }[] };
      expect(result.ok).toBe(false);
      expect(result.violations).toEqual([{ check: 'closed_day_changed', detail: expect.stringMatching(/^2031-12-15 5400: closed with debits 1 /) }]);
    } finally {
      await tamper(-1);
    }
    expect((await ops('check-books', [])).exitCode).toBe(0);
  });
});
