import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { staffBrowser } from '../../test/staff.ts';
import type { TestBrowser } from '../../test/client.ts';
import { acceptLoanOffer, applyForLoan, validApplication } from '../../test/loans.ts';

describeEachDatabase('loans: the back office queue and decision', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built), { environment: { RAIL_SPEED: 'instant' } });
  let operations: TestBrowser;
  let operationsId: string;
  let operationsEmail: string;

  beforeAll(async () => {
    const signedIn = await staffBrowser(app, database(), config, 'operations');
    operations = signedIn.browser;
    operationsId = signedIn.member.id;
    operationsEmail = signedIn.member.email;
  });

  async function waitingLoan(options: { amountCents?: number } = {}): Promise<{ who: PayingCustomer; loanId: string }> {
    const who = await kit.customer();
    const response = await who.browser.request({
      method: 'POST',
      url: '/api/v1/loans',
      payload: { ...validApplication, amountCents: options.amountCents ?? validApplication.amountCents },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(response.statusCode, response.body).toBe(201);
    return { who, loanId: response.json().loan.id };
  }
  const decide = (loanId: string, body: object, browser: TestBrowser = operations) => browser.post(`/api/v1/staff/loans/${loanId}/decision`, body);
  const approval = { decision: 'approve', reason: 'Stable income', amountCents: 100_000, aprBps: 1_000, termMonths: 24 };

  describe('bad terms', () => {
    it('refuses an APR below 0 or above 36%, a term of 0 or above 84, and an amount above the one asked for', async () => {
      const { loanId } = await waitingLoan();
      for (const [field, value, message] of [
        ['aprBps', -1, 'the APR is 0% to 36%'],
        ['aprBps', 3_601, 'the APR is 0% to 36%'],
        ['aprBps', 12.5, 'the APR is a whole number of basis points'],
        ['termMonths', 0, 'the term is 1 to 84 months'],
        ['termMonths', 85, 'the term is 1 to 84 months'],
      ] as const) {
        const response = await decide(loanId, { ...approval, [field]: value });
        expect(response.statusCode, `${field} ${value}`).toBe(400);
        expect(response.json().error.fields[field]).toBe(message);
      }
      const above = await decide(loanId, { ...approval, amountCents: validApplication.amountCents + 1 });
      expect(above.statusCode).toBe(400);
      expect(above.json().error.fields.amountCents).toContain('$1,200.00');
      const noReason = await decide(loanId, { ...approval, reason: '' });
      expect(noReason.statusCode).toBe(400);
      // Nothing was decided by any of these.
      const queue = await operations.get('/api/v1/staff/loans?status=submitted');
      expect(queue.json().items.some((item: { loan: { id: string } }) => item.loan.id === loanId)).toBe(true);
    });

    it('answers an unknown or malformed loan id 404', async () => {
      expect((await decide(randomUUID(), approval)).statusCode).toBe(404);
      expect((await decide('not-a-loan', approval)).statusCode).toBe(404);
    });
  });

  it('rejects with a reason the customer is told, exactly once, audited', async () => {
    const { who, loanId } = await waitingLoan();
    const rejected = await decide(loanId, { decision: 'reject', reason: 'Income too low for this amount' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().loan).toMatchObject({ decidedBy: operationsEmail, loan: { status: 'rejected', rejectionReason: 'Income too low for this amount' } });
    const again = await decide(loanId, approval);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('already_decided');
    const mine = (await who.browser.get(`/api/v1/loans/${loanId}`)).json();
    expect(mine).toMatchObject({ loan: { status: 'rejected', balanceCents: null }, schedule: [], disclosure: null });
    const notifications = (await who.browser.get('/api/v1/notifications')).json();
    const items: { name: string; text: string }[] = Array.isArray(notifications) ? notifications : notifications.items;
    expect(items.find((item) => item.name === 'Loan application declined')?.text).toContain('Income too low for this amount');
    const [audit] = await database().query<{ actor_id: string; details: Record<string, unknown> }>(
      `SELECT actor_id, details FROM audit_log WHERE action = 'loan.rejected' AND subject = $1`,
      [loanId],
    );
    expect(audit).toMatchObject({ actor_id: operationsId, details: { reason: 'Income too low for this amount' } });
    // A rejected application is no longer open: the customer may apply again.
    const reapplied = await applyForLoan(who.browser);
    expect(reapplied.statusCode).toBe(201);
  });

  it('decides a loan once when two staff members approve at the same moment, and it pays out once, on acceptance', async () => {
    const { who, loanId } = await waitingLoan();
    const second = (await staffBrowser(app, database(), config, 'admin')).browser;
    const answers = await Promise.all([decide(loanId, approval), decide(loanId, approval, second)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    // An approval is an offer: nothing is paid until the customer accepts (decision 058).
    expect((await kit.balances(who)).checking.balanceCents).toBe(100_000);
    await acceptLoanOffer(who.browser, loanId);
    expect((await kit.balances(who)).checking.balanceCents).toBe(100_000 + 100_000);
    const [audit] = await database().query<{ count: number }>(`SELECT count(*)::int AS count FROM audit_log WHERE action = 'loan.approved' AND subject = $1`, [
      loanId,
    ]);
    expect(audit?.count).toBe(1);
  });

  it('lists a status oldest first with its total, and refuses an unknown status', async () => {
    for (let index = 0; index < 3; index += 1) await waitingLoan();
    const first = await operations.get('/api/v1/staff/loans');
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json();
    expect(body.total).toBeGreaterThanOrEqual(3);
    const created = body.items.map((item: { loan: { createdAt: string } }) => item.loan.createdAt);
    expect([...created].sort()).toEqual(created);
    expect((await operations.get('/api/v1/staff/loans?status=paid_off')).json()).toMatchObject({ nextCursor: null });
    // Offers waiting for the customer, each with the moment it lapses.
    const { loanId } = await waitingLoan();
    expect((await decide(loanId, approval)).statusCode).toBe(200);
    const offered = (await operations.get('/api/v1/staff/loans?status=offered')).json();
    const item = offered.items.find((entry: { loan: { id: string } }) => entry.loan.id === loanId);
    expect(item.loan.status).toBe('offered');
    expect(Date.parse(item.loan.offerExpiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect((await operations.get('/api/v1/staff/loans?status=nonsense')).statusCode).toBe(400);
  });

  it('refuses a customer session (401) and a role without loans.decide (403, audited) on both routes', async () => {
    const { who, loanId } = await waitingLoan();
    expect((await who.browser.get('/api/v1/staff/loans')).statusCode).toBe(401);
    expect((await who.browser.post(`/api/v1/staff/loans/${loanId}/decision`, approval)).statusCode).toBe(401);
    for (const role of ['support', 'compliance'] as const) {
      const { browser } = await staffBrowser(app, database(), config, role);
      const list = await browser.get('/api/v1/staff/loans');
      expect(list.statusCode).toBe(403);
      expect(list.json().error.code).toBe('forbidden');
      expect((await browser.post(`/api/v1/staff/loans/${loanId}/decision`, approval)).statusCode).toBe(403);
    }
    const [denied] = await database().query<{ count: number }>(
      `SELECT count(*)::int AS count FROM audit_log WHERE action = 'staff.permission_denied' AND subject LIKE '%/staff/loans%'`,
    );
    expect(denied?.count).toBeGreaterThanOrEqual(4);
    expect((await who.browser.get(`/api/v1/loans/${loanId}`)).json().loan.status).toBe('submitted');
  });
});
