import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/databases.ts';
import { ownTransfer, paymentSuite, validExternal, withdrawalTo } from '../../test/payments.ts';

describeEachDatabase('step-up and idempotency', (database) => {
  const kit = paymentSuite(database, () => undefined, { environment: { RAIL_SPEED: 'instant' } });

  const external = (fromAccountId: string, amountCents = 1_000) => ({
    kind: 'external',
    fromAccountId,
    toAccountNumber: '123456789',
    accountName: 'Frank Other',
    ...validExternal,
    amountCents,
    message: 'Rent',
  });

  describe('step-up', () => {
    it('sends a 6-digit code by SMS that names the amount and nothing else of the payment', async () => {
      const dana = await kit.customer();
      const response = await kit.pay(dana, '/transfers', external(dana.checking.id, 4_200));
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toMatchObject({ code: 'step_up_required', challengeId: expect.any(String) });
      expect(response.json().error.message).toContain(dana.phone.slice(-4));
      const code = await kit.latestCode(dana);
      expect(code).toMatch(/^\d{6}$/);
      expect((await kit.balances(dana)).checking.availableCents).toBe(100_000);
    });

    it('refuses a wrong code, counts tries, and after five refuses even the right one', async () => {
      const dana = await kit.customer();
      const challengeId = (await kit.pay(dana, '/transfers', external(dana.checking.id))).json().error.challengeId;
      const right = await kit.latestCode(dana);
      const wrong = right === '000000' ? '111111' : '000000';
      const first = await dana.browser.post(`/api/v1/step-up/${challengeId}`, { code: wrong });
      expect(first.statusCode).toBe(400);
      expect(first.json().error.fields.code).toBe('That code is not right. 4 tries left.');
      for (let attempt = 0; attempt < 4; attempt += 1) await dana.browser.post(`/api/v1/step-up/${challengeId}`, { code: wrong });
      expect((await dana.browser.post(`/api/v1/step-up/${challengeId}`, { code: right })).statusCode).toBe(409);
    });

    it('a code is used once: repeating the paid request replays it, a new payment needs a new code', async () => {
      const dana = await kit.customer();
      const key = randomUUID();
      const body = external(dana.checking.id);
      const first = await kit.payWithStepUp(dana, '/transfers', body, key);
      expect(first.statusCode).toBe(201);
      const challengeId = (await database().query<{ id: string }>('SELECT id FROM step_up_challenges WHERE customer_id = $1', [dana.id]))[0]?.id ?? '';
      const replay = await kit.pay(dana, '/transfers', body, key, { 'x-step-up': challengeId });
      expect(replay.json()).toEqual(first.json());
      const reused = await kit.pay(dana, '/transfers', body, randomUUID(), { 'x-step-up': challengeId });
      expect(reused.statusCode).toBe(403);
      expect(reused.json().error.challengeId).not.toBe(challengeId);
      expect((await kit.balances(dana)).checking.availableCents).toBe(99_000);
    });

    it('a code verified for one transfer cannot authorise another transfer or another amount', async () => {
      const dana = await kit.customer();
      const keyA = randomUUID();
      const challengeA = (await kit.pay(dana, '/transfers', external(dana.checking.id, 1_000), keyA)).json().error.challengeId;
      await kit.verifyLatestCode(dana, challengeA);
      const otherTransfer = await kit.pay(dana, '/transfers', external(dana.checking.id, 90_000), randomUUID(), { 'x-step-up': challengeA });
      expect(otherTransfer.statusCode).toBe(403);
      expect(otherTransfer.json().error.code).toBe('step_up_required');
      const otherAmountSameKey = await kit.pay(dana, '/transfers', external(dana.checking.id, 90_000), keyA, { 'x-step-up': challengeA });
      expect(otherAmountSameKey.statusCode).toBe(403);
      expect((await kit.balances(dana)).checking.availableCents).toBe(100_000);
      // The right request still goes through with its own code.
      expect((await kit.pay(dana, '/transfers', external(dana.checking.id, 1_000), keyA, { 'x-step-up': challengeA })).statusCode).toBe(201);
    });

    it('a customer cannot verify or resend another customer challenge', async () => {
      const dana = await kit.customer();
      const mallory = await kit.customer();
      const challengeId = (await kit.pay(dana, '/transfers', external(dana.checking.id))).json().error.challengeId;
      const code = await kit.latestCode(dana);
      expect((await mallory.browser.post(`/api/v1/step-up/${challengeId}`, { code })).statusCode).toBe(404);
      expect((await mallory.browser.post(`/api/v1/step-up/${challengeId}/resend`)).statusCode).toBe(404);
      expect((await mallory.browser.post(`/api/v1/step-up/${randomUUID()}`, { code })).statusCode).toBe(404);
    });

    it('resends a new code that replaces the old one, at most every 30 seconds', async () => {
      const dana = await kit.customer();
      const challengeId = (await kit.pay(dana, '/transfers', external(dana.checking.id))).json().error.challengeId;
      const tooSoon = await dana.browser.post(`/api/v1/step-up/${challengeId}/resend`);
      expect(tooSoon.statusCode).toBe(429);
      expect(Number(tooSoon.headers['retry-after'])).toBeGreaterThan(0);
      await database().query(`UPDATE step_up_challenges SET last_sent_at = now() - interval '1 minute' WHERE id = $1`, [challengeId]);
      const oldCode = await kit.latestCode(dana);
      const resent = await dana.browser.post(`/api/v1/step-up/${challengeId}/resend`);
      expect(resent.statusCode).toBe(200);
      expect(resent.json().sentTo).toBe(`•••• ${dana.phone.slice(-4)}`);
      const newCode = await kit.latestCode(dana);
      if (oldCode !== newCode) expect((await dana.browser.post(`/api/v1/step-up/${challengeId}`, { code: oldCode })).statusCode).toBe(400);
      expect((await dana.browser.post(`/api/v1/step-up/${challengeId}`, { code: newCode })).statusCode).toBe(200);
    });

    const withdrawal = (fromAccountId: string, amountCents = 2_000) => withdrawalTo(fromAccountId, amountCents);
    const textsTo = async (phone: string) =>
      (await database().query<{ n: number }>("SELECT count(*)::integer AS n FROM outbox_messages WHERE channel = 'sms' AND to_address = $1", [phone]))[0]?.n;

    it('twenty concurrent withdrawals with one key and body and no X-Step-Up make one challenge and send one SMS', async () => {
      const dana = await kit.customer();
      const key = randomUUID();
      const responses = await Promise.all(Array.from({ length: 20 }, () => kit.pay(dana, '/withdrawals', withdrawal(dana.checking.id), key)));
      for (const response of responses) expect(response.json().error?.code, response.body).toBe('step_up_required');
      const challengeIds = new Set(responses.map((response) => response.json().error.challengeId));
      expect(challengeIds.size).toBe(1);
      expect(await textsTo(dana.phone)).toBe(1);
      // The one code still authorises the one withdrawal.
      const [challengeId] = [...challengeIds];
      await kit.verifyLatestCode(dana, challengeId);
      const paid = await kit.pay(dana, '/withdrawals', withdrawal(dana.checking.id), key, { 'x-step-up': challengeId });
      expect(paid.statusCode, paid.body).toBe(201);
    });

    it('twenty concurrent withdrawals with different keys make at most five open challenges and five SMS; the rest get 429 and nothing is sent', async () => {
      const dana = await kit.customer();
      const responses = await Promise.all(Array.from({ length: 20 }, () => kit.pay(dana, '/withdrawals', withdrawal(dana.checking.id))));
      const challenged = responses.filter((response) => response.statusCode === 403);
      const limited = responses.filter((response) => response.statusCode === 429);
      expect(challenged).toHaveLength(5);
      expect(limited).toHaveLength(15);
      for (const response of limited) {
        expect(response.json().error.code).toBe('rate_limited');
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(new Set(challenged.map((response) => response.json().error.challengeId)).size).toBe(5);
      expect(await textsTo(dana.phone)).toBe(5);
      expect((await database().query('SELECT id FROM step_up_challenges WHERE customer_id = $1', [dana.id])).length).toBe(5);
      // Another customer is not held back by Dana's challenges.
      const erin = await kit.customer();
      expect((await kit.pay(erin, '/withdrawals', withdrawal(erin.checking.id))).statusCode).toBe(403);
    });

    it('a challenge that was answered no longer counts toward the limit, and one answered or expired is not handed out again', async () => {
      const dana = await kit.customer();
      const key = randomUUID();
      const first = (await kit.pay(dana, '/withdrawals', withdrawal(dana.checking.id), key)).json().error.challengeId;
      await database().query(`UPDATE step_up_challenges SET expires_at = now() - interval '1 second' WHERE id = $1`, [first]);
      const second = (await kit.pay(dana, '/withdrawals', withdrawal(dana.checking.id), key)).json().error.challengeId;
      expect(second).not.toBe(first);
      await kit.verifyLatestCode(dana, second);
      const third = (await kit.pay(dana, '/withdrawals', withdrawal(dana.checking.id), key)).json().error.challengeId;
      expect(third).not.toBe(second);
      for (let index = 0; index < 3; index += 1) {
        expect((await kit.pay(dana, '/withdrawals', withdrawal(dana.checking.id))).statusCode).toBe(403);
      }
      // first (expired), third and three more wait: five. second was answered and does not count.
      expect((await kit.pay(dana, '/withdrawals', withdrawal(dana.checking.id))).statusCode).toBe(429);
    });

    it('an expired code is refused, and a verified code unused for five minutes no longer authorises', async () => {
      const dana = await kit.customer();
      const key = randomUUID();
      const challengeId = (await kit.pay(dana, '/transfers', external(dana.checking.id), key)).json().error.challengeId;
      const code = await kit.latestCode(dana);
      await database().query(`UPDATE step_up_challenges SET expires_at = now() - interval '1 second' WHERE id = $1`, [challengeId]);
      expect((await dana.browser.post(`/api/v1/step-up/${challengeId}`, { code })).statusCode).toBe(409);

      const second = (await kit.pay(dana, '/transfers', external(dana.checking.id), key)).json().error.challengeId;
      await kit.verifyLatestCode(dana, second);
      await database().query(`UPDATE step_up_challenges SET verified_at = now() - interval '6 minutes' WHERE id = $1`, [second]);
      expect((await kit.pay(dana, '/transfers', external(dana.checking.id), key, { 'x-step-up': second })).statusCode).toBe(403);
    });
  });

  describe('idempotency', () => {
    it('a replay returns the first result and moves no money', async () => {
      const dana = await kit.customer({ fundCents: 10_000n });
      const key = randomUUID();
      const body = ownTransfer(dana.checking.id, dana.savings.id, 1_000, 'once');
      const first = await kit.pay(dana, '/transfers', body, key);
      const second = await kit.pay(
        dana,
        '/transfers',
        { message: 'once', amountCents: 1_000, toAccountId: dana.savings.id, fromAccountId: dana.checking.id, kind: 'own' },
        key,
      );
      expect(first.statusCode).toBe(201);
      expect(second.statusCode).toBe(201);
      expect(second.json()).toEqual(first.json());
      expect((await kit.balances(dana)).checking.balanceCents).toBe(9_000);
    });

    it('the same key with a different body answers 422 and moves nothing', async () => {
      const dana = await kit.customer({ fundCents: 10_000n });
      const key = randomUUID();
      await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 1_000, 'once'), key);
      const changed = await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 5_000, 'once'), key);
      expect(changed.statusCode).toBe(422);
      expect(changed.json().error.code).toBe('idempotency_key_reused');
      const otherEndpoint = await kit.pay(
        dana,
        '/deposits',
        { accountId: dana.checking.id, fundingSourceId: dana.fundingSourceId, amountCents: 1_000, reason: 'x' },
        key,
      );
      expect(otherEndpoint.json().error.code).toBe('idempotency_key_reused');
      expect((await kit.balances(dana)).checking.balanceCents).toBe(9_000);
    });

    it('keys belong to one customer: another customer may use the same key for their own payment', async () => {
      const dana = await kit.customer({ fundCents: 10_000n });
      const erin = await kit.customer({ fundCents: 10_000n });
      const key = randomUUID();
      expect((await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 1_000, 'x'), key)).statusCode).toBe(201);
      const theirs = await kit.pay(erin, '/transfers', ownTransfer(erin.checking.id, erin.savings.id, 2_000, 'x'), key);
      expect(theirs.statusCode).toBe(201);
      expect((await kit.balances(erin)).savings.balanceCents).toBe(2_000);
    });

    it('twenty concurrent transfers of $10 from an account with $100 leave exactly $0, never negative', async () => {
      const dana = await kit.customer({ fundCents: 10_000n });
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 1_000, 'race'))),
      );
      const statuses = responses.map((response) => response.statusCode).sort();
      expect(statuses.filter((status) => status === 201)).toHaveLength(10);
      expect(statuses.filter((status) => status === 422)).toHaveLength(10);
      expect(await kit.balances(dana)).toEqual({ checking: { balanceCents: 0, availableCents: 0 }, savings: { balanceCents: 10_000, availableCents: 10_000 } });
    });

    it('the same request sent twice at once moves money once', async () => {
      const dana = await kit.customer({ fundCents: 10_000n });
      const key = randomUUID();
      const body = ownTransfer(dana.checking.id, dana.savings.id, 1_000, 'double click');
      const responses = await Promise.all([kit.pay(dana, '/transfers', body, key), kit.pay(dana, '/transfers', body, key)]);
      expect(responses.some((response) => response.statusCode === 201)).toBe(true);
      for (const response of responses) expect([201, 409]).toContain(response.statusCode);
      expect((await kit.balances(dana)).checking.balanceCents).toBe(9_000);
    });
  });
});
