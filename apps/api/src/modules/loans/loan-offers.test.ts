import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import type { LoanDetailResponse } from '@strongroom/contracts/loans.ts';
import type { Config } from '../../config.ts';
import { lookupAccounts } from '../../ledger/accounts.ts';
import { operatorAccounts } from '../../ledger/codes.ts';
import type { TestBrowser } from '../../test/client.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { acceptLoanOffer, applyForLoan, offeredLoan } from '../../test/loans.ts';
import { ownTransfer, paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { staffBrowser } from '../../test/staff.ts';
import { runOpsCommand } from '../ops/registry.ts';
import { ledgerAccountOf } from './repository.ts';
import { addMonths } from './schedule.ts';
import { bankToday, loanOfferWindowDays } from './service.ts';

/** Issue 39 item 1 (docs/decisions/058-loan-offers-before-money.md): an approval is an offer; only acceptance pays. */
describeEachDatabase('loans: an offer before the money', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built), { environment: { RAIL_SPEED: 'instant' } });
  let operations: TestBrowser;

  beforeAll(async () => {
    operations = (await staffBrowser(app, database(), config, 'operations')).browser;
  });

  const approval = { decision: 'approve', reason: 'Stable income', amountCents: 60_000, aprBps: 1_200, termMonths: 6 };

  const offeredTo = (who: PayingCustomer) => offeredLoan(who.browser, operations, approval);
  const accept = (who: PayingCustomer, loanId: string, key: string = randomUUID()) =>
    who.browser.request({ method: 'POST', url: `/api/v1/loans/${loanId}/accept`, headers: { 'idempotency-key': key } });
  const decline = (who: PayingCustomer, loanId: string) => who.browser.post(`/api/v1/loans/${loanId}/decline`);
  const detail = async (who: PayingCustomer, loanId: string): Promise<LoanDetailResponse> => {
    const response = await who.browser.get(`/api/v1/loans/${loanId}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const notificationsNamed = async (who: PayingCustomer, name: string) => {
    const body = (await who.browser.get('/api/v1/notifications')).json<{ items: { name: string; text: string }[] } | { name: string; text: string }[]>();
    return (Array.isArray(body) ? body : body.items).filter((item) => item.name === name);
  };
  const disbursementLines = async (loanId: string) =>
    (
      await database().query<{ count: number }>(
        `SELECT count(*)::int AS count FROM payments WHERE kind = 'loan_disbursement' AND id = (SELECT disbursement_transfer_id FROM loans WHERE id = $1)`,
        [loanId],
      )
    )[0]?.count;
  const ledgerOf = async (who: PayingCustomer) => {
    const ids = [operatorAccounts.loansReceivable, await ledgerAccountOf(database(), who.checking.id)];
    return (await lookupAccounts(database(), ids)).map((account) => [account.debitsPostedCents, account.creditsPostedCents, account.debitsPendingCents]);
  };
  const pastTheWindow = (loanId: string) => database().query(`UPDATE loans SET offer_expires_at = now() - interval '1 second' WHERE id = $1`, [loanId]);

  it('moves no money at approval: the offer shows its terms, schedule, disclosure and lapse date, and the customer is told', async () => {
    const dana = await kit.customer({ fundCents: 5_000n });
    const before = await kit.balances(dana);
    const ledgerBefore = await ledgerOf(dana);
    const loanId = await offeredTo(dana);

    const offer = await detail(dana, loanId);
    expect(offer.loan).toMatchObject({ status: 'offered', amountCents: 60_000, aprBps: 1_200, termMonths: 6, balanceCents: null, disbursedAt: null });
    expect(offer.schedule).toHaveLength(6);
    expect(offer.schedule.every((line) => line.status === 'due')).toBe(true);
    expect(offer.disclosure).toMatchObject({ amountFinancedCents: 60_000 });
    const lapses = Date.parse(offer.loan.offerExpiresAt ?? '');
    expect(lapses - Date.now()).toBeGreaterThan((loanOfferWindowDays - 1) * 86_400_000);
    expect(lapses - Date.now()).toBeLessThanOrEqual(loanOfferWindowDays * 86_400_000);

    expect(await kit.balances(dana)).toEqual(before);
    expect(await ledgerOf(dana)).toEqual(ledgerBefore);
    expect(await disbursementLines(loanId)).toBe(0);
    const notice = (await notificationsNamed(dana, 'Loan offer'))[0]?.text;
    expect(notice).toContain('Nothing is paid until you accept');
    expect(notice).toContain('we offer $600.00 at 12.00% APR over 6 months');
    // The daily job pays nothing out either.
    const ran = await runOpsCommand({ database: async () => database(), config, liveEvents: app.services.liveEvents }, 'loan-repayments', [
      '--as-of',
      bankToday(config.bankTimeZone),
    ]);
    expect(ran.exitCode, ran.output).toBe(0);
    expect(await kit.balances(dana)).toEqual(before);
    // A second application waits until this offer is answered.
    const second = await applyForLoan(dana.browser);
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('loan_application_open');
  });

  it('pays out once on acceptance: a repeated key answers the same, two accepts at once pay once', async () => {
    const dana = await kit.customer({ fundCents: 5_000n });
    const loanId = await offeredTo(dana);
    const before = (await kit.balances(dana)).checking.balanceCents;

    // The same key twice at once, then once more, then another key: one payment.
    const key = randomUUID();
    const [first, second] = await Promise.all([accept(dana, loanId, key), accept(dana, loanId, key)]);
    const statuses = [first.statusCode, second.statusCode].sort();
    expect(statuses[0], `${first.body} ${second.body}`).toBe(200);
    expect([200, 409]).toContain(statuses[1]);
    const again = await accept(dana, loanId, key);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.statusCode === 200 ? first.json() : second.json());
    expect(again.json().loan).toMatchObject({ status: 'active', balanceCents: 60_000 });
    const otherKey = await accept(dana, loanId);
    expect(otherKey.statusCode).toBe(409);
    expect(otherKey.json().error.code).toBe('already_decided');

    expect((await kit.balances(dana)).checking.balanceCents).toBe(before + 60_000);
    expect(await disbursementLines(loanId)).toBe(1);
    expect(await notificationsNamed(dana, 'Loan paid out')).toHaveLength(1);
    const [audit] = await database().query<{ count: number }>(
      `SELECT count(*)::int AS count FROM audit_log WHERE action = 'loan.offer_accepted' AND subject = $1`,
      [loanId],
    );
    expect(audit?.count).toBe(1);
    // The schedule runs from the day it was paid out.
    const active = await detail(dana, loanId);
    expect(active.loan.disbursedAt).not.toBeNull();
    expect(active.schedule[0]?.dueDate).toBe(addMonths(bankToday(config.bankTimeZone), 1));
    expect((await decline(dana, loanId)).json().error.code).toBe('already_decided');
  });

  it('two accepts at once under different keys pay once', async () => {
    const dana = await kit.customer({ fundCents: 5_000n });
    const loanId = await offeredTo(dana);
    const before = (await kit.balances(dana)).checking.balanceCents;
    const answers = await Promise.all([accept(dana, loanId), accept(dana, loanId)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect((await kit.balances(dana)).checking.balanceCents).toBe(before + 60_000);
    expect(await disbursementLines(loanId)).toBe(1);
  });

  it('declines: nothing moves, once, audited; the customer may apply again', async () => {
    const dana = await kit.customer({ fundCents: 5_000n });
    const loanId = await offeredTo(dana);
    const before = await kit.balances(dana);
    const ledgerBefore = await ledgerOf(dana);
    const declined = await decline(dana, loanId);
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json().loan).toMatchObject({ status: 'declined', balanceCents: null, disbursedAt: null });
    const twice = await decline(dana, loanId);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('already_decided');
    const late = await accept(dana, loanId);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.code).toBe('already_decided');
    expect(await kit.balances(dana)).toEqual(before);
    expect(await ledgerOf(dana)).toEqual(ledgerBefore);
    expect(await disbursementLines(loanId)).toBe(0);
    const [audit] = await database().query<{ count: number }>(
      `SELECT count(*)::int AS count FROM audit_log WHERE action = 'loan.offer_declined' AND subject = $1`,
      [loanId],
    );
    expect(audit?.count).toBe(1);
    const reapplied = await applyForLoan(dana.browser);
    expect(reapplied.statusCode, reapplied.body).toBe(201);
  });

  it('lapses an offer past its window, when read or accepted and in the daily job: accepting it answers 409 offer_expired and pays nothing', async () => {
    const dana = await kit.customer({ fundCents: 5_000n });
    const before = await kit.balances(dana);
    const loanId = await offeredTo(dana);
    await pastTheWindow(loanId);
    const refused = await accept(dana, loanId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('offer_expired');
    expect((await detail(dana, loanId)).loan.status).toBe('expired');
    expect((await decline(dana, loanId)).json().error.code).toBe('offer_expired');
    expect(await kit.balances(dana)).toEqual(before);
    expect(await disbursementLines(loanId)).toBe(0);

    // Read by no one, the daily job lapses it and tells the customer.
    const zoe = await kit.customer({ fundCents: 5_000n });
    const zoeLoan = await offeredTo(zoe);
    await pastTheWindow(zoeLoan);
    const ran = await runOpsCommand({ database: async () => database(), config, liveEvents: app.services.liveEvents }, 'loan-repayments', [
      '--as-of',
      bankToday(config.bankTimeZone),
    ]);
    expect(ran.exitCode, ran.output).toBe(0);
    const [row] = await database().query<{ status: string }>('SELECT status FROM loans WHERE id = $1', [zoeLoan]);
    expect(row?.status).toBe('expired');
    expect(await notificationsNamed(zoe, 'Loan offer expired')).toHaveLength(1);
    const expired = (await operations.get('/api/v1/staff/loans?status=expired')).json();
    expect(expired.items.some((item: { loan: { id: string } }) => item.loan.id === zoeLoan)).toBe(true);
  });

  it('answers 409 loan_not_offered for a loan still waiting for a decision', async () => {
    const dana = await kit.customer();
    const applied = await applyForLoan(dana.browser);
    const loanId: string = applied.json().loan.id;
    expect((await accept(dana, loanId)).json().error.code).toBe('loan_not_offered');
    expect((await decline(dana, loanId)).json().error.code).toBe('loan_not_offered');
  });

  it("answers another customer's offer exactly like a missing loan (404), and moves nothing", async () => {
    const owner = await kit.customer({ fundCents: 5_000n });
    const stranger = await kit.customer();
    const loanId = await offeredTo(owner);
    const before = await kit.balances(owner);
    for (const send of [accept, decline]) {
      const theirs = await send(stranger, loanId);
      const none = await send(stranger, randomUUID());
      expect(theirs.statusCode).toBe(404);
      expect(none.statusCode).toBe(404);
      const { requestId: _theirs, ...theirError } = theirs.json().error;
      const { requestId: _none, ...noneError } = none.json().error;
      expect(theirError).toEqual(noneError);
    }
    expect((await detail(owner, loanId)).loan.status).toBe('offered');
    expect(await kit.balances(owner)).toEqual(before);
  });

  it('takes a payment while an instalment is late: the late amount first, then principal early', async () => {
    const dana = await kit.customer({ fundCents: 5_000n });
    const loanId = await offeredTo(dana);
    await acceptLoanOffer(dana.browser, loanId);
    const firstDue = (await detail(dana, loanId)).schedule[0]?.dueDate ?? '';
    // Checking keeps $1.00; the rest goes to savings, so the first instalment ($103.26) is late.
    const checking = (await kit.balances(dana)).checking.balanceCents;
    const moved = await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, checking - 100, 'Put away'));
    expect(moved.statusCode, moved.body).toBe(201);
    const ran = await runOpsCommand({ database: async () => database(), config, liveEvents: app.services.liveEvents }, 'loan-repayments', [
      '--as-of',
      firstDue,
    ]);
    expect(ran.exitCode, ran.output).toBe(0);
    const late = (await detail(dana, loanId)).schedule[0];
    expect(late?.status).toBe('late');
    const [income] = await lookupAccounts(database(), [operatorAccounts.interestIncome]);

    // The late instalment and $100.00 more: the instalment is paid, the $100.00 goes to principal.
    const paid = await dana.browser.request({
      method: 'POST',
      url: `/api/v1/loans/${loanId}/repayments`,
      payload: { fromAccountId: dana.savings.id, amountCents: (late?.paymentCents ?? 0) + 10_000 },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const after: LoanDetailResponse = paid.json();
    expect(after.schedule[0]).toMatchObject({ number: 1, status: 'paid' });
    expect(after.loan.balanceCents).toBe(60_000 - (late?.principalCents ?? 0) - 10_000);
    expect(after.schedule.filter((line) => line.status !== 'paid').every((line) => line.status === 'due')).toBe(true);
    const [incomeAfter] = await lookupAccounts(database(), [operatorAccounts.interestIncome]);
    const earned = (account: typeof income) => (account ? account.creditsPostedCents - account.debitsPostedCents : 0n);
    expect(earned(incomeAfter) - earned(income)).toBe(BigInt(late?.interestCents ?? 0));
    const [line] = (await dana.browser.get(`/api/v1/transactions?accountId=${dana.savings.id}`)).json<{ items: { description: string }[] }>().items;
    expect(line?.description).toBe('Loan repayment - late instalment 1 and early repayment');
  });
});
