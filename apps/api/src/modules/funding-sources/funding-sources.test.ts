import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { lookupAccounts } from '../../ledger/accounts.ts';
import { operatorAccounts, transferCodes } from '../../ledger/codes.ts';
import { lastMessageTo } from '../../test/client.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentSuite, type PayingCustomer } from '../../test/payments.ts';

const otherBank = { accountName: 'Dana Example', routeNumber: '011000015', accountType: 'checking' as const };

/** The two amounts of the sandbox SMS: its only numbers of one or two digits after "$0." (docs/product.md section 6). */
export function microDepositAmounts(text: string): number[] {
  return [...text.matchAll(/\$0\.(\d{2})\b/g)].map((match) => Number(match[1]));
}

describeEachDatabase('accounts at other banks (funding sources)', (database) => {
  let app: FastifyInstance;
  const kit = paymentSuite(database, (built) => ({ app } = built), { environment: { RAIL_SPEED: 'instant' } });

  async function link(who: PayingCustomer, accountNumber: string, key = randomUUID()) {
    return kit.payWithStepUp(who, '/funding-sources', { ...otherBank, accountNumber }, key);
  }

  async function amountsSentTo(who: PayingCustomer): Promise<number[]> {
    const message = await lastMessageTo(database(), who.phone);
    return microDepositAmounts(message?.text ?? '');
  }

  const verify = (who: PayingCustomer, id: string, amountsCents: number[]) => who.browser.post(`/api/v1/funding-sources/${id}/verify`, { amountsCents });

  it('links an account after a step-up, pays two micro-deposits of 1-99 cents from the bank through the ledger, and texts the amounts in the sandbox', async () => {
    const dana = await kit.customer();
    const expenseBefore = (await lookupAccounts(database(), [operatorAccounts.accountVerificationExpense]))[0]?.debitsPostedCents ?? 0n;
    const response = await link(dana, '123456789');
    expect(response.statusCode, response.body).toBe(201);
    const source = response.json().fundingSource;
    expect(source).toMatchObject({
      status: 'pending_verification',
      last4: '6789',
      routeNumber: '011000015',
      accountType: 'checking',
      attemptsLeft: 3,
      verifiedAt: null,
    });
    expect(JSON.stringify(response.json())).not.toContain('123456789');

    const amounts = await amountsSentTo(dana);
    expect(amounts).toHaveLength(2);
    for (const cents of amounts) expect(cents >= 1 && cents <= 99).toBe(true);
    const transfers = await database().query<{ amount: bigint; debit_account_id: string; credit_account_id: string; code: number }>(
      'SELECT t.amount, t.debit_account_id, t.credit_account_id, t.code FROM ledger_transfers t JOIN micro_deposits m ON m.id = t.id WHERE m.funding_source_id = $1',
      [source.id],
    );
    expect(transfers.map((transfer) => Number(transfer.amount)).sort()).toEqual([...amounts].sort());
    for (const transfer of transfers)
      expect(transfer).toMatchObject({
        debit_account_id: operatorAccounts.accountVerificationExpense,
        credit_account_id: operatorAccounts.settlementAch,
        code: transferCodes.microDeposit,
      });
    const expenseAfter = (await lookupAccounts(database(), [operatorAccounts.accountVerificationExpense]))[0]?.debitsPostedCents ?? 0n;
    expect(expenseAfter - expenseBefore).toBe(BigInt(amounts[0]! + amounts[1]!));

    const verified = await verify(dana, source.id, [...amounts].reverse());
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().fundingSource).toMatchObject({ id: source.id, status: 'verified', attemptsLeft: 0 });
    const listed = (await dana.browser.get('/api/v1/funding-sources')).json().items;
    expect(listed.map((item: { id: string; status: string }) => [item.id, item.status])).toContainEqual([source.id, 'verified']);
    const notifications = (await dana.browser.get('/api/v1/notifications')).json().items.map((item: { name: string }) => item.name);
    expect(notifications).toEqual(expect.arrayContaining(['Account linked', 'Account verified']));
  });

  it('links nothing and pays nothing until the step-up is answered', async () => {
    const dana = await kit.customer();
    const first = await kit.pay(dana, '/funding-sources', { ...otherBank, accountNumber: '55501234' });
    expect(first.statusCode).toBe(403);
    expect(first.json().error).toMatchObject({ code: 'step_up_required' });
    // Only the verified source every test customer starts with.
    expect((await dana.browser.get('/api/v1/funding-sources')).json().items.map((item: { id: string }) => item.id)).toEqual([dana.fundingSourceId]);
    const smsText = (await lastMessageTo(database(), dana.phone))?.text ?? '';
    expect(smsText).toContain('linking your account ending 1234');
    expect(microDepositAmounts(smsText)).toEqual([]);
  });

  it('refuses a route number that fails the ABA checksum and this bank’s own, with the field named', async () => {
    const dana = await kit.customer();
    const bad = await kit.pay(dana, '/funding-sources', { ...otherBank, accountNumber: '123456789', routeNumber: '011000016' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.routeNumber).toBe('routing number is not valid');
    const own = await kit.pay(dana, '/funding-sources', { ...otherBank, accountNumber: '123456789', routeNumber: '123456780' });
    expect(own.statusCode).toBe(400);
    expect(own.json().error.fields.routeNumber).toContain('this bank');
    const badType = await kit.pay(dana, '/funding-sources', { ...otherBank, accountNumber: '12', accountType: 'brokerage' });
    expect(badType.statusCode).toBe(400);
    expect(Object.keys(badType.json().error.fields).sort()).toEqual(['accountNumber', 'accountType']);
  });

  it('counts down three tries for wrong amounts, then the link has failed and even the right amounts are refused', async () => {
    const dana = await kit.customer();
    const source = (await link(dana, '88880001')).json().fundingSource;
    const amounts = await amountsSentTo(dana);
    const wrong = amounts.map((cents) => (cents === 99 ? 98 : cents + 1));
    const messages: string[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await verify(dana, source.id, wrong);
      expect(response.statusCode).toBe(400);
      messages.push(response.json().error.fields.amountsCents);
    }
    expect(messages[0]).toContain('2 tries left');
    expect(messages[1]).toContain('1 try left');
    expect(messages[2]).toContain('no tries are left');
    const fourth = await verify(dana, source.id, amounts);
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json().error.message).toContain('could not be verified');
    expect((await dana.browser.get('/api/v1/funding-sources')).json().items[0]).toMatchObject({ id: source.id, status: 'failed', attemptsLeft: 0 });
  });

  it('refuses amounts that are not two whole numbers of cents from 1 to 99', async () => {
    const dana = await kit.customer();
    const source = (await link(dana, '77770001')).json().fundingSource;
    for (const amountsCents of [[1], [1, 2, 3], [0, 5], [5, 100], [1.5, 2]]) {
      const response = await verify(dana, source.id, amountsCents);
      expect(response.statusCode, JSON.stringify(amountsCents)).toBe(400);
    }
    expect((await dana.browser.get('/api/v1/funding-sources')).json().items[0].attemptsLeft).toBe(3);
  });

  it('answers the same link for a repeated Idempotency-Key, and refuses the same account linked twice', async () => {
    const dana = await kit.customer();
    const key = randomUUID();
    const first = await link(dana, '31313131', key);
    const repeated = await kit.pay(dana, '/funding-sources', { ...otherBank, accountNumber: '31313131' }, key);
    expect(repeated.statusCode).toBe(201);
    expect(repeated.json().fundingSource.id).toBe(first.json().fundingSource.id);
    const [count] = await database().query<{ n: bigint }>('SELECT count(*)::bigint AS n FROM micro_deposits WHERE funding_source_id = $1', [
      first.json().fundingSource.id,
    ]);
    expect(count?.n).toBe(2n);
    const again = await kit.pay(dana, '/funding-sources', { ...otherBank, accountNumber: '31313131' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('This account is already linked.');
  });

  it('refuses an Idempotency-Key used again with another account (422 idempotency_key_reused), and links nothing more', async () => {
    const dana = await kit.customer();
    const key = randomUUID();
    const first = await link(dana, '64646464', key);
    expect(first.statusCode, first.body).toBe(201);
    const listedBefore = (await dana.browser.get('/api/v1/funding-sources')).json().items;

    const reused = await kit.pay(dana, '/funding-sources', { ...otherBank, accountNumber: '75757575' }, key);
    expect(reused.statusCode, reused.body).toBe(422);
    expect(reused.json().error.code).toBe('idempotency_key_reused');
    expect(reused.body).not.toContain(first.json().fundingSource.id);
    expect((await dana.browser.get('/api/v1/funding-sources')).json().items).toEqual(listedBefore);
  });

  it('answers another customer’s link exactly like one that does not exist, and lists only the caller’s', async () => {
    const dana = await kit.customer();
    const mallory = await kit.customer();
    const source = (await link(dana, '42424242')).json().fundingSource;
    const amounts = await amountsSentTo(dana);
    const theirs = await verify(mallory, source.id, amounts);
    const missing = await verify(mallory, randomUUID(), amounts);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().error.message).toBe(missing.json().error.message);
    expect((await mallory.browser.request({ method: 'DELETE', url: `/api/v1/funding-sources/${source.id}` })).statusCode).toBe(404);
    expect((await mallory.browser.get('/api/v1/funding-sources')).json().items.map((item: { id: string }) => item.id)).not.toContain(source.id);
    // Mallory's tries did not count against Dana's link, and it is still there.
    expect((await verify(dana, source.id, amounts)).statusCode).toBe(200);
  });

  it('removes a link: it is gone from the list, a second removal is not found, and a signed-out caller gets 401', async () => {
    const dana = await kit.customer();
    const source = (await link(dana, '64646464')).json().fundingSource;
    expect((await dana.browser.request({ method: 'DELETE', url: `/api/v1/funding-sources/${source.id}` })).statusCode).toBe(204);
    expect((await dana.browser.get('/api/v1/funding-sources')).json().items.map((item: { id: string }) => item.id)).not.toContain(source.id);
    expect((await dana.browser.request({ method: 'DELETE', url: `/api/v1/funding-sources/${source.id}` })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/v1/funding-sources' })).statusCode).toBe(401);
    // The same account can be linked again once removed.
    expect((await link(dana, '64646464')).statusCode).toBe(201);
  });

  it('allows three new links a day per customer, each costing the bank two micro-deposits', async () => {
    const dana = await kit.customer();
    for (const number of ['10000011', '10000012', '10000013']) expect((await link(dana, number)).statusCode).toBe(201);
    const fourth = await kit.pay(dana, '/funding-sources', { ...otherBank, accountNumber: '10000014' });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().error.code).toBe('rate_limited');
  });
});
