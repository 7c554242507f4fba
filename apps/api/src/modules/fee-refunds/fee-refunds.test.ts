import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { totpCode } from '../../platform/totp.ts';
import { TestBrowser } from '../../test/client.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { ownTransfer, paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { closeRequest, ledgerBalanceCents, openFromChecking, productIds } from '../../test/accounts.ts';
import { staffBrowser } from '../../test/staff.ts';
import { moveMoney } from '../payments/move-money.ts';

interface ListedFee {
  paymentId: string;
  amountCents: number;
  refund: { id: string; status: string; requestedBy: string; decidedBy: string | null } | null;
}

describeEachDatabase('fee refunds: staff give a fee back once, four eyes from $20.00 (issue 32 item 4)', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built));
  let olga: { browser: TestBrowser; member: { id: string } };
  let ada: { browser: TestBrowser; member: { id: string } };
  let omar: { browser: TestBrowser; member: { id: string } };

  beforeAll(async () => {
    olga = await staffBrowser(app, database(), config, 'operations');
    ada = await staffBrowser(app, database(), config, 'admin');
    omar = await staffBrowser(app, database(), config, 'operations');
  });

  /** A monthly fee taken from the customer's checking, as end of day takes it (a payment of kind fee, through moveMoney). */
  async function chargeFee(customer: PayingCustomer, amountCents: number): Promise<string> {
    const id = randomUUID();
    const moved = await database().transaction((tx) =>
      moveMoney(tx, {
        id,
        kind: 'fee',
        customerId: customer.id,
        fromAccountId: customer.checking.id,
        toAccountId: null,
        amountCents: BigInt(amountCents),
        counterpartyName: config.bankName,
        message: 'Monthly maintenance fee',
      }),
    );
    expect(moved.outcome).toBe('made');
    return id;
  }

  function refund(browser: TestBrowser, feeId: string, reason = 'Fee charged in error: customer kept the balance') {
    return browser.request({ method: 'POST', url: `/api/v1/staff/fees/${feeId}/refund`, payload: { reason } });
  }

  function decide(browser: TestBrowser, refundId: string, decision: 'approve' | 'reject', reason = 'Checked the statement: agreed') {
    return browser.request({ method: 'POST', url: `/api/v1/staff/fee-refunds/${refundId}/${decision}`, payload: { reason } });
  }

  async function refundPayments(feeId: string): Promise<{ id: string; amount_cents: bigint; to_account_id: string }[]> {
    return database().query('SELECT id, amount_cents, to_account_id FROM payments WHERE kind = $1 AND id = $2', [
      'fee_refund',
      derivedUuid('fee_refund', feeId),
    ]);
  }

  async function fees(browser: TestBrowser, customerId: string): Promise<ListedFee[]> {
    const response = await browser.get(`/api/v1/staff/customers/${customerId}/fees`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ items: ListedFee[] }>().items;
  }

  it('a fee under $20.00 is refunded at once into the account it came from, audited, shown in History; a second refund is refused and moves nothing', async () => {
    const dana = await kit.customer();
    const feeId = await chargeFee(dana, 695);
    expect((await kit.balances(dana)).checking.balanceCents).toBe(100_000 - 695);

    const done = await refund(olga.browser, feeId);
    expect(done.statusCode, done.body).toBe(201);
    expect(done.json().refund).toMatchObject({
      feePaymentId: feeId,
      status: 'refunded',
      amountCents: 695,
      requestedBy: olga.member.id,
      toAccountId: dana.checking.id,
    });
    expect(done.json().refund.refundPaymentId).toBe(derivedUuid('fee_refund', feeId));
    expect((await kit.balances(dana)).checking.balanceCents).toBe(100_000);
    // The customer is told, once.
    const told = async () =>
      (await dana.browser.get('/api/v1/notifications'))
        .json<{ items: { name: string; text: string }[] }>()
        .items.filter((item) => item.name === 'Fee refunded');
    expect(await told()).toEqual([expect.objectContaining({ text: 'We refunded the $6.95 fee "Monthly maintenance fee" to your account.' })]);

    const again = await refund(omar.browser, feeId);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('fee_already_refunded');
    expect(await refundPayments(feeId)).toHaveLength(1);
    expect((await kit.balances(dana)).checking.balanceCents).toBe(100_000);
    expect(await told()).toHaveLength(1);

    const [audit] = await database().query<{ actor_id: string; details: Record<string, unknown> }>(
      "SELECT actor_id, details FROM audit_log WHERE action = 'fee.refunded' AND subject = $1",
      [feeId],
    );
    expect(audit).toMatchObject({ actor_id: olga.member.id, details: { reason: 'Fee charged in error: customer kept the balance', amountCents: 695 } });

    const history = (await dana.browser.get('/api/v1/transactions')).body;
    expect(history).toContain(`Fee refund: Monthly maintenance fee`);
    expect(await fees(olga.browser, dana.id)).toEqual([
      expect.objectContaining({ paymentId: feeId, amountCents: 695, refund: expect.objectContaining({ status: 'refunded' }) }),
    ]);
  });

  it("a fee charged this month is the dashboard's Fees spending, and the fees paid this month", async () => {
    const dana = await kit.customer();
    await chargeFee(dana, 695);
    const dashboard = (await dana.browser.get('/api/v1/dashboard')).json<{ spendingByCategory: unknown[]; feesPaidCents: number }>();
    expect(dashboard.spendingByCategory).toEqual([{ category: 'Fees', amountCents: 695 }]);
    expect(dashboard.feesPaidCents).toBe(695);
  });

  it('a fee of $20.00 or more waits for a second staff member: the requester cannot approve their own; another approves and the money moves once', async () => {
    const dana = await kit.customer();
    const feeId = await chargeFee(dana, 2_495);
    const asked = await refund(olga.browser, feeId);
    expect(asked.statusCode, asked.body).toBe(202);
    const refundId = asked.json<{ refund: { id: string; status: string } }>().refund.id;
    expect(asked.json().refund.status).toBe('awaiting_approval');
    expect((await kit.balances(dana)).checking.balanceCents).toBe(100_000 - 2_495);
    expect(await refundPayments(feeId)).toEqual([]);
    // Asking again while it waits is refused too.
    expect((await refund(omar.browser, feeId)).statusCode).toBe(409);

    const own = await decide(olga.browser, refundId, 'approve');
    expect(own.statusCode).toBe(403);
    expect(own.json().error.code).toBe('four_eyes_required');
    const [refused] = await database().query<{ outcome: string; details: Record<string, string> }>(
      "SELECT outcome, details FROM audit_log WHERE action = 'fee.refund_four_eyes_refused' AND actor_id = $1",
      [olga.member.id],
    );
    expect(refused).toMatchObject({ outcome: 'denied', details: { refusal: 'same_staff', refundId } });
    expect((await kit.balances(dana)).checking.balanceCents).toBe(100_000 - 2_495);

    const approved = await decide(ada.browser, refundId, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().refund).toMatchObject({ status: 'refunded', requestedBy: olga.member.id, decidedBy: ada.member.id, toAccountId: dana.checking.id });
    expect((await kit.balances(dana)).checking.balanceCents).toBe(100_000);

    const twice = await decide(omar.browser, refundId, 'approve');
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('already_decided');
    expect(await refundPayments(feeId)).toHaveLength(1);
    expect((await kit.balances(dana)).checking.balanceCents).toBe(100_000);

    const steps = await database().query<{ action: string }>("SELECT action FROM audit_log WHERE subject = $1 AND action LIKE 'fee.%' ORDER BY id", [feeId]);
    expect(steps.map((step) => step.action)).toEqual([
      'fee.refund_requested',
      'fee.refund_refused',
      'fee.refund_four_eyes_refused',
      'fee.refund_approved',
      'fee.refund_approve_refused',
    ]);
  });

  it('an approver linked to the requester by a grant of access (the admin who created them) is refused like the requester, audited; an independent one approves', async () => {
    const dana = await kit.customer();
    const feeId = await chargeFee(dana, 2_495);
    // A member ada adds through the back office: ada granted their access, so the two are not independent (decision 050).
    const email = `operations-made-by-ada-${Date.now()}@bank.test`;
    const password = 'a passphrase the admin chose';
    const created = await ada.browser.post('/api/v1/staff/members', { email, password, role: 'operations', reason: 'New colleague' });
    expect(created.statusCode, created.body).toBe(201);
    const { staffId, totpSecret } = created.json<{ staffId: string; totpSecret: string }>();
    const madeByAda = new TestBrowser(app);
    expect((await madeByAda.post('/api/v1/staff/auth/login', { email, password, code: totpCode(totpSecret) })).statusCode).toBe(200);

    const asked = await refund(madeByAda, feeId);
    expect(asked.statusCode, asked.body).toBe(202);
    const refundId = asked.json<{ refund: { id: string } }>().refund.id;
    const linked = await decide(ada.browser, refundId, 'approve');
    expect(linked.statusCode, linked.body).toBe(403);
    expect(linked.json().error).toMatchObject({ code: 'four_eyes_required', message: expect.stringContaining('linked') });
    const [refused] = await database().query<{ details: Record<string, string> }>(
      "SELECT details FROM audit_log WHERE action = 'fee.refund_four_eyes_refused' AND actor_id = $1",
      [ada.member.id],
    );
    expect(refused?.details).toMatchObject({ refusal: 'linked_approvers', requestedBy: staffId, refundId });
    expect(await refundPayments(feeId)).toEqual([]);

    const approved = await decide(olga.browser, refundId, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await refundPayments(feeId)).toHaveLength(1);
    expect((await kit.balances(dana)).checking.balanceCents).toBe(100_000);
  });

  it('two approvals of one refund at once: one wins, the other answers 409, and the money moves once', async () => {
    const dana = await kit.customer();
    const feeId = await chargeFee(dana, 5_000);
    const refundId = (await refund(olga.browser, feeId)).json<{ refund: { id: string } }>().refund.id;
    const answers = await Promise.all([decide(ada.browser, refundId, 'approve'), decide(omar.browser, refundId, 'approve')]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(await refundPayments(feeId)).toHaveLength(1);
    expect((await kit.balances(dana)).checking.balanceCents).toBe(100_000);
  });

  it('two refunds of one fee at once: the money moves once', async () => {
    const dana = await kit.customer();
    const feeId = await chargeFee(dana, 1_495);
    const answers = await Promise.all([refund(olga.browser, feeId), refund(omar.browser, feeId), refund(ada.browser, feeId)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409, 409]);
    expect(await refundPayments(feeId)).toHaveLength(1);
    expect((await kit.balances(dana)).checking.balanceCents).toBe(100_000);
  });

  it('a rejected refund moves nothing and may be asked for again', async () => {
    const dana = await kit.customer();
    const feeId = await chargeFee(dana, 2_000);
    const refundId = (await refund(olga.browser, feeId)).json<{ refund: { id: string } }>().refund.id;
    const rejected = await decide(ada.browser, refundId, 'reject', 'The waiver was not met: the fee stands');
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().refund).toMatchObject({ status: 'rejected', decidedBy: ada.member.id, refundPaymentId: null });
    expect((await kit.balances(dana)).checking.balanceCents).toBe(100_000 - 2_000);
    expect((await decide(omar.browser, refundId, 'approve')).statusCode).toBe(409);
    const again = await refund(omar.browser, feeId, 'Customer sent proof of the deposits');
    expect(again.statusCode).toBe(202);
    expect(await fees(ada.browser, dana.id)).toEqual([
      expect.objectContaining({ refund: expect.objectContaining({ status: 'awaiting_approval', requestedBy: omar.member.id }) }),
    ]);
  });

  it("another customer's fees are not listed under this one; an unknown customer, fee or refund, or a payment that is not a fee, answers 404", async () => {
    const dana = await kit.customer();
    const erin = await kit.customer();
    const danaFee = await chargeFee(dana, 695);
    const erinFee = await chargeFee(erin, 1_495);
    expect((await fees(olga.browser, dana.id)).map((fee) => fee.paymentId)).toEqual([danaFee]);
    expect((await fees(olga.browser, erin.id)).map((fee) => fee.paymentId)).toEqual([erinFee]);
    expect((await olga.browser.get(`/api/v1/staff/customers/${randomUUID()}/fees`)).statusCode).toBe(404);
    expect((await refund(olga.browser, randomUUID())).statusCode).toBe(404);
    expect((await decide(ada.browser, randomUUID(), 'approve')).statusCode).toBe(404);
    const moved = await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 2_500, 'Savings'));
    expect(moved.statusCode, moved.body).toBe(201);
    const transferId = moved.json<{ transfer: { id: string } }>().transfer.id;
    const notAFee = await refund(olga.browser, transferId);
    expect(notAFee.statusCode).toBe(404);
    expect(notAFee.json().error.code).toBe('not_found');
  });

  it('never refunds into a closed account: with no other open account of the same kind, the refund is refused and nothing moves', async () => {
    const dana = await kit.customer();
    const feeId = await chargeFee(dana, 695);
    // The account the fee came from has closed since (as the accounts module closes one: status and closed_at together).
    await database().query("UPDATE customer_accounts SET status = 'closed', closed_at = now() WHERE id = $1", [dana.checking.id]);
    const refused = await refund(olga.browser, feeId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('no_account');
    expect(await refundPayments(feeId)).toEqual([]);
    const [row] = await database().query<{ n: number }>('SELECT count(*)::int AS n FROM fee_refunds WHERE fee_payment_id = $1', [feeId]);
    expect(row?.n).toBe(0);
  });

  it("refunds into the customer's first open account of the same kind when the fee's account has closed", async () => {
    const dana = await kit.customer();
    const feeId = await chargeFee(dana, 695);
    // A Gold Checking opened from the first checking, which then closes into it (account-management).
    const gold = await openFromChecking(dana, productIds.goldChecking, 10_000);
    const closed = await closeRequest(dana, dana.checking.id, gold.id);
    expect(closed.statusCode, closed.body).toBe(200);

    const done = await refund(olga.browser, feeId);
    expect(done.statusCode, done.body).toBe(201);
    expect(done.json().refund).toMatchObject({ status: 'refunded', toAccountId: gold.id });
    expect(await refundPayments(feeId)).toEqual([expect.objectContaining({ amount_cents: 695n, to_account_id: gold.id })]);
    // Everything that was in the first checking (less the fee) is in the Gold Checking, and the fee is back.
    expect(await ledgerBalanceCents(database(), gold.id)).toBe(100_000n);
  });

  it('needs a reason of 3 to 500 characters', async () => {
    const dana = await kit.customer();
    const feeId = await chargeFee(dana, 695);
    const short = await refund(olga.browser, feeId, 'no');
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields.reason).toBe('the reason needs at least 3 characters');
    expect(await refundPayments(feeId)).toEqual([]);
  });

  it('roles without fees.refund (support, compliance) get 403 forbidden, audited, and nothing moves', async () => {
    const dana = await kit.customer();
    const feeId = await chargeFee(dana, 695);
    for (const role of ['support', 'compliance'] as const) {
      const { browser, member } = await staffBrowser(app, database(), config, role);
      expect((await browser.get(`/api/v1/staff/customers/${dana.id}/fees`)).statusCode).toBe(403);
      const refused = await refund(browser, feeId);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('forbidden');
      const denied = await database().query<{ details: { permission: string } }>(
        "SELECT details FROM audit_log WHERE actor_id = $1 AND action = 'staff.permission_denied'",
        [member.id],
      );
      expect(denied.map((row) => row.details.permission)).toEqual(['fees.refund', 'fees.refund']);
    }
    expect(await refundPayments(feeId)).toEqual([]);
  });
});
