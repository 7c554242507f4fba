import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LoanDetailResponse } from '@strongroom/contracts/loans.ts';
import { noAccountMessages } from '@strongroom/contracts/messages.ts';
import { neutralFreezeCustomerMessage } from '@strongroom/contracts/staff-customers.ts';
import type { Config } from '../../config.ts';
import { lookupAccounts } from '../../ledger/accounts.ts';
import { operatorAccounts } from '../../ledger/codes.ts';
import { TestBrowser } from '../../test/client.ts';
import { insertBareCustomer } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { ownTransfer, paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { acceptLoanOffer, activeLoan, applyForLoan, offeredLoan, validApplication } from '../../test/loans.ts';
import { staffBrowser } from '../../test/staff.ts';
import { pdfText, toolMissing } from '../../test/statements.ts';
import { runOpsCommand } from '../ops/registry.ts';
import { addMonths } from './schedule.ts';
import { bankToday } from './service.ts';

describeEachDatabase('loans: the whole life of a loan', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built), { environment: { RAIL_SPEED: 'instant' } });
  let operations: TestBrowser;

  beforeAll(async () => {
    operations = (await staffBrowser(app, database(), config, 'operations')).browser;
  });

  const apply = (who: PayingCustomer, body?: object, key?: string) => applyForLoan(who.browser, body, key);
  const repay = (who: PayingCustomer, loanId: string, body: object, key: string = randomUUID()) =>
    who.browser.request({ method: 'POST', url: `/api/v1/loans/${loanId}/repayments`, payload: body, headers: { 'idempotency-key': key } });
  const detail = async (who: PayingCustomer, loanId: string): Promise<LoanDetailResponse> => {
    const response = await who.browser.get(`/api/v1/loans/${loanId}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const runJob = async (asOf: string) => {
    const result = await runOpsCommand({ database: async () => database(), config, liveEvents: app.services.liveEvents }, 'loan-repayments', ['--as-of', asOf]);
    expect(result.exitCode, result.output).toBe(0);
    return JSON.parse(result.output) as { paid: number; late: number; paidOff: number };
  };
  const notificationsNamed = async (who: PayingCustomer, name: string) => {
    const response = await who.browser.get('/api/v1/notifications');
    const body = response.json<{ items: { name: string; text: string }[] } | { name: string; text: string }[]>();
    const items = Array.isArray(body) ? body : body.items;
    return items.filter((item) => item.name === name);
  };
  const historyDescriptions = async (who: PayingCustomer) => {
    const response = await who.browser.get(`/api/v1/transactions?accountId=${who.checking.id}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ items: { description: string; amountCents: number; kind: string }[] }>().items;
  };
  const dashboardLoanCount = async (who: PayingCustomer) => (await who.browser.get('/api/v1/dashboard')).json<{ loanCount: number }>().loanCount;

  it('goes from application to paid off, every cent through the ledger', async () => {
    const dana = await kit.customer({ fundCents: 5_000n });
    const loansReceivableBefore = (await lookupAccounts(database(), [operatorAccounts.loansReceivable]))[0];
    const interestIncomeBefore = (await lookupAccounts(database(), [operatorAccounts.interestIncome]))[0];

    // Apply, with a replay of the same key answering the same loan.
    const key = randomUUID();
    const applied = await apply(dana, validApplication, key);
    expect(applied.statusCode, applied.body).toBe(201);
    const loan = applied.json().loan;
    expect(loan).toMatchObject({ status: 'submitted', requestedAmountCents: 120_000, amountCents: null, balanceCents: null, durationMonths: 12 });
    const replay = await apply(dana, validApplication, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.json().loan.id).toBe(loan.id);
    expect((await dana.browser.get('/api/v1/loans')).json().items).toHaveLength(1);
    expect(await dashboardLoanCount(dana)).toBe(1);
    expect(await detail(dana, loan.id)).toMatchObject({ schedule: [], disclosure: null });

    // A second application while this one waits.
    const second = await apply(dana);
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('loan_application_open');

    // The back office sees the application, the accounts and the income into checking.
    const queue = await operations.get('/api/v1/staff/loans?status=submitted');
    expect(queue.statusCode, queue.body).toBe(200);
    const item = queue.json().items.find((entry: { loan: { id: string } }) => entry.loan.id === loan.id);
    expect(item).toMatchObject({
      customerId: dana.id,
      recentIncomeCents: 5_000,
      suggestedAprBps: 799,
      decidedBy: null,
    });
    expect(item.accounts.map((account: { type: string }) => account.type).sort()).toEqual(['checking', 'savings']);
    expect(item.suggestedMonthlyPaymentCents).toBeGreaterThan(10_000);
    // The payment over a twelfth of the stated income.
    expect(item.debtToIncomeBps).toBe(Math.round((item.suggestedMonthlyPaymentCents * 12 * 10_000) / 6_000_000));

    // Approved below the amount asked for: the published case, 100.00 at 12% over 6 months.
    const approved = await operations.post(`/api/v1/staff/loans/${loan.id}/decision`, {
      decision: 'approve',
      reason: 'Income and history support it',
      amountCents: 10_000,
      aprBps: 1_200,
      termMonths: 6,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().loan.loan).toMatchObject({ status: 'offered', amountCents: 10_000, aprBps: 1_200, termMonths: 6, balanceCents: null });
    const twice = await operations.post(`/api/v1/staff/loans/${loan.id}/decision`, { decision: 'reject', reason: 'Changed my mind' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('already_decided');

    // An approval is an offer (decision 058): the terms and disclosure are shown, nothing is paid.
    const offer = await detail(dana, loan.id);
    expect(offer.loan.status).toBe('offered');
    expect(offer.disclosure).toEqual({ amountFinancedCents: 10_000, financeChargeCents: 353, aprBps: 1_200.08, totalOfPaymentsCents: 10_353 });
    expect((await kit.balances(dana)).checking.balanceCents).toBe(5_000);
    expect(await notificationsNamed(dana, 'Loan offer')).toHaveLength(1);
    expect(await notificationsNamed(dana, 'Loan paid out')).toHaveLength(0);
    const acceptKey = randomUUID();
    await acceptLoanOffer(dana.browser, loan.id, acceptKey);
    await acceptLoanOffer(dana.browser, loan.id, acceptKey);

    // The money is in checking once, in history with the loan's words, and the schedule and disclosure are shown.
    expect((await kit.balances(dana)).checking.balanceCents).toBe(15_000);
    expect((await historyDescriptions(dana))[0]).toMatchObject({ description: 'Loan disbursement', amountCents: 10_000, kind: 'loan_disbursement' });
    expect(await notificationsNamed(dana, 'Loan paid out')).toHaveLength(1);
    const active = await detail(dana, loan.id);
    // The bank's calendar day of the payout (its time zone), not the UTC date of the instant: they differ for hours each night.
    const disbursedOn = bankToday(config.bankTimeZone, new Date(active.loan.disbursedAt ?? ''));
    const due = (number: number) => addMonths(disbursedOn, number);
    expect(active.schedule.map((line) => line.paymentCents)).toEqual([1725, 1725, 1725, 1725, 1725, 1728]);
    expect(active.schedule.map((line) => line.dueDate)).toEqual([1, 2, 3, 4, 5, 6].map(due));
    expect(active.disclosure).toEqual({ amountFinancedCents: 10_000, financeChargeCents: 353, aprBps: 1_200.08, totalOfPaymentsCents: 10_353 });
    expect(active.loan).toMatchObject({ nextDueDate: due(1), nextPaymentCents: 1725 });

    // Before the first due date nothing is taken; on it, the first instalment.
    expect(await runJob(disbursedOn)).toMatchObject({ paid: 0, late: 0 });
    expect(await runJob(due(1))).toMatchObject({ paid: 1, late: 0 });
    expect(await runJob(due(1))).toMatchObject({ paid: 0, late: 0 });
    expect((await kit.balances(dana)).checking.balanceCents).toBe(15_000 - 1_725);
    expect((await historyDescriptions(dana))[0]).toMatchObject({ description: 'Loan repayment - instalment 1 of 6', amountCents: -1_725 });

    // Without the money the second instalment is late: one notice a day, and a new try each day.
    const drained = await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 15_000 - 1_725 - 1_000, 'Put away'));
    expect(drained.statusCode, drained.body).toBe(201);
    expect(await runJob(due(2))).toMatchObject({ paid: 0, late: 1 });
    expect(await runJob(due(2))).toMatchObject({ paid: 0, late: 1 });
    expect(await notificationsNamed(dana, 'Loan instalment late')).toHaveLength(1);
    expect((await detail(dana, loan.id)).schedule[1]?.status).toBe('late');
    const nextDay = new Date(`${due(2)}T00:00:00Z`);
    nextDay.setUTCDate(nextDay.getUTCDate() + 1);
    const dayAfter = nextDay.toISOString().slice(0, 10);
    expect(await runJob(dayAfter)).toMatchObject({ paid: 0, late: 1 });
    expect(await notificationsNamed(dana, 'Loan instalment late')).toHaveLength(2);

    // A late borrower can pay: the payment goes to the late amount first, its interest ($0.84) then
    // its principal; what is left of the instalment stays late (decision 058).
    const whileLate = await repay(dana, loan.id, { fromAccountId: dana.savings.id, amountCents: 1_000 });
    expect(whileLate.statusCode, whileLate.body).toBe(201);
    const partlyPaid: LoanDetailResponse = whileLate.json();
    expect(partlyPaid.schedule[1]).toMatchObject({ status: 'late', paymentCents: 725, interestCents: 0, principalCents: 725 });
    expect(partlyPaid.schedule.slice(2).map((line) => line.paymentCents)).toEqual([1725, 1725, 1725, 1728]);
    const fromSavings = (await dana.browser.get(`/api/v1/transactions?accountId=${dana.savings.id}`)).json<{
      items: { description: string; amountCents: number }[];
    }>();
    expect(fromSavings.items[0]).toMatchObject({ description: 'Loan repayment - late instalment 2', amountCents: -1_000 });

    // The money comes back; the next day's run takes what is left of the late instalment.
    const back = await kit.pay(dana, '/transfers', ownTransfer(dana.savings.id, dana.checking.id, 5_000, 'Back'));
    expect(back.statusCode, back.body).toBe(201);
    nextDay.setUTCDate(nextDay.getUTCDate() + 1);
    expect(await runJob(nextDay.toISOString().slice(0, 10))).toMatchObject({ paid: 1, late: 0 });
    const afterLate = await detail(dana, loan.id);
    expect(afterLate.schedule.map((line) => line.status)).toEqual(['paid', 'paid', 'due', 'due', 'due', 'due']);
    expect(afterLate.loan.balanceCents).toBe(6_734);
    expect((await historyDescriptions(dana))[0]).toMatchObject({ description: 'Loan repayment - instalment 2 of 6', amountCents: -725 });

    // More than is owed is refused with the payoff amount; someone else's account is no account.
    const tooMuch = await repay(dana, loan.id, { fromAccountId: dana.savings.id, amountCents: 6_735 });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().error).toMatchObject({ code: 'loan_repayment_too_large', message: expect.stringContaining('The payoff amount is $67.34') });
    const other = await kit.customer({ fundCents: 10_000n });
    const fromOther = await repay(dana, loan.id, { fromAccountId: other.checking.id, amountCents: 100 });
    expect(fromOther.statusCode).toBe(404);

    // An early repayment pays principal and shortens the schedule; its replay moves money once.
    const earlyKey = randomUUID();
    const early = await repay(dana, loan.id, { fromAccountId: dana.savings.id, amountCents: 3_000 }, earlyKey);
    expect(early.statusCode, early.body).toBe(201);
    const afterEarly: LoanDetailResponse & { transferId: string } = early.json();
    expect(afterEarly.loan.balanceCents).toBe(3_734);
    const unpaid = afterEarly.schedule.filter((line) => line.status !== 'paid');
    expect(unpaid.length).toBeLessThan(4);
    expect(unpaid.reduce((sum, line) => sum + line.principalCents, 0)).toBe(3_734);
    expect(unpaid[0]).toMatchObject({ number: 3, dueDate: due(3), interestCents: 37 });
    const savingsAfterEarly = (await kit.balances(dana)).savings.balanceCents;
    const replayed = await repay(dana, loan.id, { fromAccountId: dana.savings.id, amountCents: 3_000 }, earlyKey);
    expect(replayed.statusCode).toBe(201);
    expect(replayed.json().transferId).toBe(afterEarly.transferId);
    expect((await kit.balances(dana)).savings.balanceCents).toBe(savingsAfterEarly);
    const lines = await historyDescriptions(dana);
    expect(lines.map((line) => line.description)).toEqual(
      expect.arrayContaining(['Loan disbursement', 'Loan repayment - instalment 1 of 6', 'Loan repayment - instalment 2 of 6']),
    );

    // Paying the payoff amount closes the loan.
    const payoff = await repay(dana, loan.id, { fromAccountId: dana.checking.id, amountCents: 3_734 });
    expect(payoff.statusCode, payoff.body).toBe(201);
    expect(payoff.json().loan).toMatchObject({ status: 'paid_off', balanceCents: 0, nextDueDate: null });
    expect(await notificationsNamed(dana, 'Loan paid off')).toHaveLength(1);
    expect(await dashboardLoanCount(dana)).toBe(0);
    expect(await runJob(due(6))).toMatchObject({ paid: 0, late: 0 });
    const afterPayoff = await repay(dana, loan.id, { fromAccountId: dana.checking.id, amountCents: 1 });
    expect(afterPayoff.statusCode).toBe(409);

    // Loans receivable is back where it was; interest income holds the two instalments' interest.
    const [receivable] = await lookupAccounts(database(), [operatorAccounts.loansReceivable]);
    const [income] = await lookupAccounts(database(), [operatorAccounts.interestIncome]);
    const net = (account: typeof receivable) => (account ? account.debitsPostedCents - account.creditsPostedCents : 0n);
    expect(net(receivable)).toBe(net(loansReceivableBefore));
    const earned = (account: typeof income) => (account ? account.creditsPostedCents - account.debitsPostedCents : 0n);
    expect(earned(income) - earned(interestIncomeBefore)).toBe(100n + 84n);
    await kit.expectLedgerConsistent();
  });

  it('answers another customer exactly as it answers a loan that does not exist, on every route', async () => {
    const owner = await kit.customer();
    const stranger = await kit.customer();
    const loanId = await offeredLoan(owner.browser, operations, { reason: 'Looks fine', amountCents: 50_000, aprBps: 999, termMonths: 12 });
    const missing = randomUUID();
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['GET', '/schedule.csv', undefined],
      ['GET', '/schedule.pdf', undefined],
      ['POST', '/repayments', { fromAccountId: stranger.checking.id, amountCents: 100 }],
      ['POST', '/accept', {}],
      ['POST', '/decline', {}],
    ] as const) {
      const request = (id: string) =>
        stranger.browser.request({ method, url: `/api/v1/loans/${id}${suffix}`, payload: body, headers: body ? { 'idempotency-key': randomUUID() } : {} });
      const theirs = await request(loanId);
      const none = await request(missing);
      const malformed = await request('not-a-loan');
      expect(theirs.statusCode, `${method} ${suffix}`).toBe(404);
      const { requestId: _theirs, ...theirError } = theirs.json().error;
      const { requestId: _none, ...noneError } = none.json().error;
      expect(theirError).toEqual(noneError);
      expect(none.statusCode).toBe(404);
      expect(malformed.statusCode).toBe(404);
      expect(malformed.json().error.code).toBe('not_found');
    }
    expect((await stranger.browser.get('/api/v1/loans')).json().items).toEqual([]);
  });

  it('never moves the money of one loan twice at once: an early repayment and the daily job wait for each other', async () => {
    const dana = await kit.customer({ fundCents: 50_000n });
    const loanId = await activeLoan(dana.browser, operations, { reason: 'Looks fine', amountCents: 60_000, aprBps: 600, termMonths: 6 });
    const firstDue = (await detail(dana, loanId)).schedule[0]?.dueDate ?? '';
    // Another process holds the loan's lease (a repayment in flight).
    await database().query(`UPDATE loans SET busy_until = now() + interval '1 minute' WHERE id = $1`, [loanId]);
    const busy = await repay(dana, loanId, { fromAccountId: dana.checking.id, amountCents: 1_000 });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error.code).toBe('conflict');
    // Other tests' loans fall due the same day: look at this loan's schedule, not the run's counts.
    await runJob(firstDue);
    expect((await detail(dana, loanId)).schedule[0]?.status).toBe('due');
    // A lease a crash left behind lapses by itself.
    await database().query(`UPDATE loans SET busy_until = now() - interval '1 second' WHERE id = $1`, [loanId]);
    await runJob(firstDue);
    expect((await detail(dana, loanId)).schedule[0]?.status).toBe('paid');
    const early = await repay(dana, loanId, { fromAccountId: dana.checking.id, amountCents: 1_000 });
    expect(early.statusCode, early.body).toBe(201);
    const [row] = await database().query<{ busy_until: Date | null }>('SELECT busy_until FROM loans WHERE id = $1', [loanId]);
    expect(row?.busy_until).toBeNull();
  });

  /** An admin freezes the customer, who then signs in again. */
  async function frozenAndSignedInAgain(who: PayingCustomer): Promise<void> {
    const admin = (await staffBrowser(app, database(), config, 'admin')).browser;
    const frozen = await admin.post(`/api/v1/staff/customers/${who.id}/freeze`, {
      reason: 'Suspicious activity reported',
      customerMessage: neutralFreezeCustomerMessage,
    });
    expect(frozen.statusCode, frozen.body).toBe(200);
    await who.browser.signInAs(database(), who.id);
  }

  it('refuses an early repayment from a frozen customer (403), while the bank still collects the instalment', async () => {
    const dana = await kit.customer({ fundCents: 50_000n });
    const loanId = await activeLoan(dana.browser, operations, { reason: 'Looks fine', amountCents: 60_000, aprBps: 600, termMonths: 6 });
    await frozenAndSignedInAgain(dana);
    const refused = await repay(dana, loanId, { fromAccountId: dana.checking.id, amountCents: 1_000 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('account_frozen');
    expect((await dana.browser.get(`/api/v1/loans/${loanId}`)).statusCode).toBe(200);
    const firstDue = (await detail(dana, loanId)).schedule[0]?.dueDate ?? '';
    await runJob(firstDue);
    expect((await detail(dana, loanId)).schedule[0]?.status).toBe('paid');
  });

  it('refuses a loan application from a frozen customer with 403 account_frozen, and records no loan', async () => {
    const dana = await kit.customer();
    await frozenAndSignedInAgain(dana);

    const refused = await apply(dana);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().error.code).toBe('account_frozen');
    expect((await dana.browser.get('/api/v1/loans')).json().items).toEqual([]);
    expect(await database().query('SELECT id FROM loans WHERE customer_id = $1', [dana.id])).toEqual([]);
  });

  it('downloads the schedule as CSV and as a PDF with the disclosure', async () => {
    const dana = await kit.customer();
    const loanId = await offeredLoan(dana.browser, operations, { reason: 'Looks fine', amountCents: 10_000, aprBps: 1_200, termMonths: 6 });
    const csv = await dana.browser.get(`/api/v1/loans/${loanId}/schedule.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain('attachment');
    const rows = csv.body.trim().split('\r\n');
    expect(rows[0]).toBe('number,dueDate,payment,principal,interest,balanceAfter,status');
    expect(rows).toHaveLength(7);
    expect(rows[1]).toMatch(/^1,\d{4}-\d{2}-\d{2},17\.25,16\.25,1\.00,83\.75,Due$/);
    expect(rows[6]).toMatch(/^6,\d{4}-\d{2}-\d{2},17\.28,17\.11,0\.17,0\.00,Due$/);
    for (const row of rows) expect(row).not.toMatch(/(^|,)[=+\-@]/);

    const pdf = await dana.browser.get(`/api/v1/loans/${loanId}/schedule.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    if (!toolMissing('pdftotext')) {
      const text = pdfText(pdf.rawPayload);
      for (const words of [
        'Loan repayment schedule',
        'ANNUAL PERCENTAGE RATE',
        '12.00%',
        'FINANCE CHARGE',
        '$3.53',
        'Amount Financed',
        '$100.00',
        'Total of Payments',
        '$103.53',
        '$17.28',
      ]) {
        expect(text).toContain(words);
      }
    }
  });

  describe('bad input', () => {
    it('refuses every empty or non-numeric field with a field error', async () => {
      const dana = await kit.customer();
      const empty = await apply(dana, {});
      expect(empty.statusCode).toBe(400);
      const fields = empty.json().error.fields;
      for (const name of ['maritalStatus', 'occupation', 'address', 'amountCents', 'annualIncomeCents', 'purpose', 'durationMonths'])
        expect(fields[name], name).toBeTruthy();
      const blank = await apply(dana, { ...validApplication, occupation: '', address: '   ', purpose: '' });
      expect(blank.statusCode).toBe(400);
      expect(Object.keys(blank.json().error.fields).sort()).toEqual(['address', 'occupation', 'purpose']);
      const text = await apply(dana, { ...validApplication, amountCents: 'lots', annualIncomeCents: 'some', durationMonths: 'a year' });
      expect(text.statusCode).toBe(400);
      expect(Object.keys(text.json().error.fields).sort()).toEqual(['amountCents', 'annualIncomeCents', 'durationMonths']);
      expect((await dana.browser.get('/api/v1/loans')).json().items).toEqual([]);
    });

    it('refuses an amount or a duration outside the bounds', async () => {
      const dana = await kit.customer();
      for (const [field, value, message] of [
        ['amountCents', 49_999, 'the amount is $500 to $100,000'],
        ['amountCents', 10_000_001, 'the amount is $500 to $100,000'],
        ['durationMonths', 5, 'the duration is 6 to 84 months'],
        ['durationMonths', 85, 'the duration is 6 to 84 months'],
      ] as const) {
        const response = await apply(dana, { ...validApplication, [field]: value });
        expect(response.statusCode).toBe(400);
        expect(response.json().error.fields[field]).toBe(message);
      }
    });

    it('refuses an application without an Idempotency-Key, and a customer with no checking account, saying why they have none', async () => {
      const dana = await kit.customer();
      const noKey = await dana.browser.post('/api/v1/loans', validApplication);
      expect(noKey.statusCode).toBe(400);
      const waiting = await insertBareCustomer(database());
      // Their identity document is with staff: the review waits, and no account is open yet.
      await database().query(
        `INSERT INTO identity_reviews (customer_id, id_number_encrypted, id_number_last4, country, state, address)
         VALUES ($1, decode('00', 'hex'), '6789', 'US', 'Illinois', '1 Main Street, Springfield')`,
        [waiting],
      );
      const bare = await new TestBrowser(app).signInAs(database(), waiting);
      const response = await bare.request({ method: 'POST', url: '/api/v1/loans', payload: validApplication, headers: { 'idempotency-key': randomUUID() } });
      expect(response.statusCode).toBe(409);
      expect(response.json().error.code).toBe('no_account');
      expect(response.json().error.message).toBe(noAccountMessages.identityPending);
    });
  });
});
