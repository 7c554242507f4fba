import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/databases.ts';
import { TestBrowser } from '../../test/client.ts';
import { insertBareCustomer } from '../../test/customers.ts';
import { ownTransfer, paymentSuite, validExternal } from '../../test/payments.ts';

describeEachDatabase('transfers', (database) => {
  let app: FastifyInstance;
  const kit = paymentSuite(database, (built) => ({ app } = built), { environment: { RAIL_SPEED: 'instant' } });

  describe('own', () => {
    it('moves money between the customer own accounts at once, with no step-up', async () => {
      const dana = await kit.customer({ fundCents: 50_000n });
      const response = await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 12_345, 'Rainy day'));
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().transfer).toMatchObject({
        kind: 'own',
        status: 'completed',
        amountCents: 12_345,
        fromAccountId: dana.checking.id,
        toAccountId: dana.savings.id,
        message: 'Rainy day',
      });
      expect(await kit.balances(dana)).toEqual({
        checking: { balanceCents: 37_655, availableCents: 37_655 },
        savings: { balanceCents: 12_345, availableCents: 12_345 },
      });
    });

    it('times each stage of a money request in /metrics: before its handler, its reads, its wait for a group, its group', async () => {
      const stageCounts = async () => {
        const text = (await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).body;
        return Object.fromEntries(
          [...text.matchAll(/^payment_stage_seconds_(count|sum)\{stage="(\w+)"\} ([\d.e+-]+)$/gm)].map(([, kind, stage, value]) => [
            `${stage} ${kind}`,
            Number(value),
          ]),
        );
      };
      const dana = await kit.customer({ fundCents: 50_000n });
      const before = await stageCounts();
      const paid = await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 100, 'x'));
      expect(paid.statusCode, paid.body).toBe(201);
      const after = await stageCounts();
      for (const stage of ['before_handler', 'reads', 'queued', 'group']) {
        expect(after[`${stage} count`], stage).toBe((before[`${stage} count`] ?? 0) + 1);
        expect(after[`${stage} sum`], stage).toBeGreaterThanOrEqual(before[`${stage} sum`] ?? 0);
      }
      // Its group ran a transaction: that takes time, however fast the database.
      expect(after['group sum']).toBeGreaterThan(before['group sum'] ?? 0);
    });

    it('judges the payer before the plan it reads beside it: a frozen customer hears of the freeze, a replayed key its first answer', async () => {
      // The payer and the plan's accounts are read at once (decision 087); what the plan found
      // must not change which answer comes first.
      const dana = await kit.customer({ fundCents: 50_000n });
      const key = randomUUID();
      const body = ownTransfer(dana.checking.id, dana.savings.id, 100, 'First');
      const first = await kit.pay(dana, '/transfers', body, key);
      expect(first.statusCode, first.body).toBe(201);
      // The account it paid into is closed since: a new request is refused, the replay is not.
      await database().query(`UPDATE customer_accounts SET status = 'closed', closed_at = now() WHERE id = $1`, [dana.savings.id]);
      const fresh = await kit.pay(dana, '/transfers', body);
      expect(fresh.statusCode, fresh.body).toBe(404);
      const replay = await kit.pay(dana, '/transfers', body, key);
      expect(replay.statusCode, replay.body).toBe(201);
      expect(replay.json()).toEqual(first.json());

      // Frozen: told so, even when the accounts named are not there.
      await database().query(`INSERT INTO customer_freezes (customer_id, frozen_by, frozen_by_customer, reason) VALUES ($1, NULL, true, 'Not me')`, [dana.id]);
      const frozen = await kit.pay(dana, '/transfers', ownTransfer(randomUUID(), randomUUID(), 100, 'x'));
      expect(frozen.statusCode, frozen.body).toBe(403);
      expect(frozen.json().error.code).toBe('account_frozen');
    });

    it('refuses a transfer to the same account', async () => {
      const dana = await kit.customer();
      const response = await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.checking.id, 100, 'x'));
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields.toAccountId).toBeTruthy();
    });
  });

  describe('internal', () => {
    it('asks for a step-up the first time a payee is paid, then pays them instantly; the second time needs none', async () => {
      const dana = await kit.customer({ fundCents: 50_000n });
      const erin = await kit.customer({ fundCents: 0n, firstName: 'Erin', lastName: 'Example' });
      const body = {
        kind: 'internal',
        fromAccountId: dana.checking.id,
        toAccountNumber: erin.checking.number,
        accountName: 'Erin Example',
        amountCents: 2_500,
        message: 'Lunch',
        addToFavorites: true,
      };
      const response = await kit.payWithStepUp(dana, '/transfers', body);
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().transfer).toMatchObject({
        kind: 'internal',
        status: 'completed',
        toAccountId: null,
        counterparty: { name: 'Erin Example', accountNumber: erin.checking.number },
      });
      expect((await kit.balances(erin)).checking.balanceCents).toBe(2_500);

      const again = await kit.pay(dana, '/transfers', { ...body, amountCents: 500 });
      expect(again.statusCode, again.body).toBe(201);
      expect((await kit.balances(dana)).checking.balanceCents).toBe(47_000);

      const favourites = await dana.browser.get('/api/v1/beneficiaries');
      expect(favourites.json().items).toEqual([expect.objectContaining({ accountNumber: erin.checking.number, bankType: 'mybank', accountType: 'checking' })]);
      const erinNotifications = await erin.browser.get('/api/v1/notifications');
      expect(erinNotifications.json().items.map((item: { kind: string }) => item.kind)).toContain('money_in');
    });

    it('tells whether a name matches an account number before paying: match, close match, or no match (a missing number too)', async () => {
      const dana = await kit.customer();
      const erin = await kit.customer({ firstName: 'Erin', lastName: 'Example' });
      const check = (accountName: string, accountNumber = erin.checking.number) =>
        dana.browser.post('/api/v1/transfers/payee-check', { accountNumber, accountName });
      expect((await check('erin  EXAMPLE')).json()).toEqual({ result: 'match' });
      expect((await check('Erin Exampel')).json()).toEqual({ result: 'close_match', accountName: 'Erin Example' });
      expect((await check('E Example')).json()).toEqual({ result: 'close_match', accountName: 'Erin Example' });
      expect((await check('Mallory Thief')).json()).toEqual({ result: 'no_match' });
      expect((await check('Erin Example', '0000000001')).json()).toEqual({ result: 'no_match' });
    });

    it('answers an unknown destination account number with a field error and moves nothing', async () => {
      const dana = await kit.customer({ fundCents: 10_000n });
      const response = await kit.pay(dana, '/transfers', {
        kind: 'internal',
        fromAccountId: dana.checking.id,
        toAccountNumber: '9999999999',
        accountName: 'Nobody',
        amountCents: 100,
        message: 'x',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields.toAccountNumber).toBe('No account at this bank has this number');
      expect((await kit.balances(dana)).checking.balanceCents).toBe(10_000);
    });
  });

  describe('external and card', () => {
    it('sends an external transfer after a step-up; it is pending until the rail settles it, then completed', async () => {
      const dana = await kit.customer({ fundCents: 50_000n });
      const body = {
        kind: 'external',
        fromAccountId: dana.checking.id,
        toAccountNumber: '123456789',
        accountName: 'Frank Other',
        ...validExternal,
        amountCents: 10_000,
        message: 'Rent',
        addToFavorites: false,
      };
      const response = await kit.payWithStepUp(dana, '/transfers', body);
      expect(response.statusCode, response.body).toBe(201);
      const transfer = response.json().transfer;
      expect(transfer).toMatchObject({ kind: 'external', status: 'pending', counterparty: { bankName: 'First Example Bank', routeNumber: '011000015' } });
      expect(transfer.expectedSettlementAt).toBeTruthy();
      expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 50_000, availableCents: 40_000 } });

      await kit.runJobs();
      expect((await dana.browser.get(`/api/v1/transfers/${transfer.id}`)).json().transfer.status).toBe('completed');
      expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 40_000, availableCents: 40_000 } });
    });

    it('gives the money back when the receiving bank returns a payment to an invalid account, and tells the customer', async () => {
      const dana = await kit.customer({ fundCents: 50_000n });
      const body = {
        kind: 'external',
        fromAccountId: dana.checking.id,
        toAccountNumber: '55550000',
        accountName: 'No Such',
        ...validExternal,
        amountCents: 7_000,
        message: 'Oops',
      };
      const response = await kit.payWithStepUp(dana, '/transfers', body);
      expect(response.statusCode, response.body).toBe(201);
      await kit.runJobs();
      const transfer = (await dana.browser.get(`/api/v1/transfers/${response.json().transfer.id}`)).json().transfer;
      expect(transfer.status).toBe('returned');
      expect(transfer.statusReason).toMatch(/returned/);
      expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 50_000, availableCents: 50_000 } });
      const notifications = (await dana.browser.get('/api/v1/notifications')).json().items;
      expect(notifications[0]).toMatchObject({ kind: 'returned', name: 'Payment returned' });
    });

    it('refuses a route number that fails the ABA checksum', async () => {
      const dana = await kit.customer();
      const response = await kit.pay(dana, '/transfers', {
        kind: 'external',
        fromAccountId: dana.checking.id,
        toAccountNumber: '123456789',
        accountName: 'Frank',
        ...validExternal,
        routeNumber: '011000016',
        amountCents: 100,
        message: 'x',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields.routeNumber).toBe('routing number is not valid');
    });

    it('pushes to a card after a step-up, shows only its last four digits and never stores the number in clear', async () => {
      const dana = await kit.customer({ fundCents: 50_000n });
      const response = await kit.payCard(dana, { cardNumber: '4111 1111 1111 1111', accountName: 'Gina Card', amountCents: 1_500, message: 'Gift' });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().transfer).toMatchObject({ kind: 'card', status: 'pending', counterparty: { accountNumber: '•••• 1111' } });
      const [row] = await database().query<{ dump: string }>('SELECT row_to_json(p)::text AS dump FROM payments p WHERE id = $1', [
        response.json().transfer.id,
      ]);
      expect(row?.dump).not.toContain('4111111111111111');
      await kit.runJobs();
      expect((await kit.balances(dana)).checking.balanceCents).toBe(48_500);
    });

    it('refuses a card number of the wrong length for its type or failing Luhn', async () => {
      const dana = await kit.customer();
      for (const cardNumber of ['4111111111111112', '37828224631000', 'abcd']) {
        const response = await kit.pay(dana, '/transfers', {
          kind: 'card',
          fromAccountId: dana.checking.id,
          cardNumber,
          accountName: 'Gina',
          amountCents: 100,
          message: 'x',
        });
        expect(response.statusCode).toBe(400);
        expect(response.json().error.fields.cardNumber).toBe('card number is not valid');
      }
    });
  });

  describe('bad input', () => {
    it.each([
      ['negative', -100, 'amount must be more than $0.00'],
      ['zero', 0, 'amount must be more than $0.00'],
      ['a fraction of a cent', 10.5, 'amount cannot have a fraction of a cent'],
      ['not a number', 'ten dollars', 'amount is not valid'],
      ['absurdly large', 1e18, 'amount must be at most $1,000,000.00'],
    ])('refuses an amount that is %s and moves nothing', async (_label, amountCents, message) => {
      const dana = await kit.customer({ fundCents: 10_000n });
      const response = await kit.pay(dana, '/transfers', {
        kind: 'own',
        fromAccountId: dana.checking.id,
        toAccountId: dana.savings.id,
        amountCents,
        message: 'x',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields.amountCents).toBe(message);
      expect((await kit.balances(dana)).checking.balanceCents).toBe(10_000);
    });

    it('answers insufficient_funds for more than the available balance, moves nothing, and replays the same answer', async () => {
      const dana = await kit.customer({ fundCents: 10_000n });
      const key = randomUUID();
      const body = ownTransfer(dana.checking.id, dana.savings.id, 10_001, 'too much');
      const response = await kit.pay(dana, '/transfers', body, key);
      expect(response.statusCode).toBe(422);
      expect(response.json().error.code).toBe('insufficient_funds');
      expect((await kit.pay(dana, '/transfers', body, key)).json().error.code).toBe('insufficient_funds');
      expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 10_000 }, savings: { balanceCents: 0 } });
    });

    it('answers another customer account as the source exactly like a missing one', async () => {
      const dana = await kit.customer();
      const mallory = await kit.customer();
      const theirs = await kit.pay(mallory, '/transfers', ownTransfer(dana.checking.id, mallory.savings.id, 100, 'x'));
      const missing = await kit.pay(mallory, '/transfers', ownTransfer(randomUUID(), mallory.savings.id, 100, 'x'));
      expect(theirs.statusCode).toBe(404);
      expect(missing.statusCode).toBe(404);
      expect(theirs.json().error.message).toBe(missing.json().error.message);
      const intoTheirs = await kit.pay(mallory, '/transfers', ownTransfer(mallory.checking.id, dana.savings.id, 100, 'x'));
      expect(intoTheirs.statusCode).toBe(404);
      expect((await kit.balances(dana)).checking.balanceCents).toBe(100_000);
    });

    it('does not show a customer another customer transfer', async () => {
      const dana = await kit.customer();
      const mallory = await kit.customer();
      const created = await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 100, 'x'));
      const id = created.json().transfer.id;
      expect((await mallory.browser.get(`/api/v1/transfers/${id}`)).statusCode).toBe(404);
      expect((await mallory.browser.get(`/api/v1/transfers/${randomUUID()}`)).statusCode).toBe(404);
      expect((await dana.browser.get(`/api/v1/transfers/${id}`)).statusCode).toBe(200);
    });

    it('refuses a transfer from a closed account and from an account whose identity is not approved', async () => {
      const dana = await kit.customer({ fundCents: 10_000n });
      await database().query(`UPDATE customer_accounts SET status = 'closed', closed_at = now() WHERE id = $1`, [dana.savings.id]);
      const closed = await kit.pay(dana, '/transfers', ownTransfer(dana.savings.id, dana.checking.id, 100, 'x'));
      expect(closed.statusCode).toBe(409);

      const unverified = await kit.customer({ fundCents: 10_000n });
      await database().query(`UPDATE identity_reviews SET status = 'rejected', reason = 'test' WHERE customer_id = $1`, [unverified.id]);
      const response = await kit.pay(unverified, '/transfers', ownTransfer(unverified.checking.id, unverified.savings.id, 100, 'x'));
      expect(response.statusCode).toBe(403);
      expect(response.json().error.message).toBe('Account has not been approved');
      expect((await kit.balances(unverified)).checking.balanceCents).toBe(10_000);
    });

    it('needs a session, a CSRF token and an Idempotency-Key', async () => {
      const dana = await kit.customer();
      const body = ownTransfer(dana.checking.id, dana.savings.id, 100, 'x');
      const anonymous = await new TestBrowser(app).request({
        method: 'POST',
        url: '/api/v1/transfers',
        payload: body,
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(anonymous.statusCode).toBe(401);
      const noCsrf = await app.inject({
        method: 'POST',
        url: '/api/v1/transfers',
        payload: body,
        cookies: { session: dana.browser.cookies.session ?? '' },
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(noCsrf.statusCode).toBe(403);
      const noKey = await dana.browser.post('/api/v1/transfers', body);
      expect(noKey.statusCode).toBe(400);
      expect(noKey.json().error.fields['Idempotency-Key']).toBeTruthy();
    });

    it('answers a customer without accounts as if the account does not exist', async () => {
      const bare = await insertBareCustomer(database());
      const browser = await new TestBrowser(app).signInAs(database(), bare);
      const response = await browser.request({
        method: 'POST',
        url: '/api/v1/transfers',
        payload: ownTransfer(randomUUID(), randomUUID(), 100, 'x'),
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(response.statusCode).toBe(404);
    });
  });
});
