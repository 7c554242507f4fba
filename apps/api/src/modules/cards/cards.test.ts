import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { nameOnCardMessages, type Card, type StaffCardList } from '@strongroom/contracts/cards.ts';
import { noAccountMessages } from '@strongroom/contracts/messages.ts';
import type { Config } from '../../config.ts';
import { cardSuite, ResponseScanner } from '../../test/cards.ts';
import { TestBrowser } from '../../test/client.ts';
import { insertBareCustomer } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { staffBrowser } from '../../test/staff.ts';
import { isLuhnValid, testBins } from './card-numbers.ts';

describeEachDatabase('cards: request, staff decision, freeze, close, limits, reveal', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const scanner = new ResponseScanner();
  const kit = cardSuite(database, (built) => ({ app, config } = built), {
    environment: { CARD_AUTO_APPROVE_SECONDS: 'off' },
    beforeReady: (built) => scanner.install(built),
  });

  describe('request', () => {
    it('creates a card waiting for approval, with the default limits, and a replay answers the same card', async () => {
      const who = await kit.customer();
      const response = await kit.request(who, { cardType: 'credit', cardNetwork: 'mastercard', nameOnCard: 'Dana Q Public' }, 'card-request-key-1');
      expect(response.statusCode, response.body).toBe(201);
      const card = response.json<{ card: Card }>().card;
      expect(card).toMatchObject({
        type: 'credit',
        network: 'mastercard',
        nameOnCard: 'DANA Q PUBLIC',
        status: 'pending_approval',
        last4: '',
        perTransactionLimitCents: 250_000,
        monthlyLimitCents: 1_000_000,
        spentThisMonthCents: 0,
        rejectionReason: null,
      });
      const replay = await kit.request(who, { cardType: 'credit', cardNetwork: 'mastercard', nameOnCard: 'Dana Q Public' }, 'card-request-key-1');
      expect(replay.statusCode).toBe(201);
      expect(replay.json().card.id).toBe(card.id);
      const reused = await kit.request(who, { cardType: 'debit', cardNetwork: 'visa', nameOnCard: 'Dana Q Public' }, 'card-request-key-1');
      expect(reused.statusCode).toBe(422);
      expect(reused.json().error.code).toBe('idempotency_key_reused');
      const list = await who.browser.get('/api/v1/cards');
      expect(list.json().items.map((item: Card) => item.id)).toEqual([card.id]);
    });

    it('refuses a second request while one waits (409 card_pending_approval)', async () => {
      const who = await kit.customer();
      expect((await kit.request(who)).statusCode).toBe(201);
      const second = await kit.request(who, { cardType: 'credit', cardNetwork: 'visa', nameOnCard: 'Demo Customer' });
      expect(second.statusCode).toBe(409);
      expect(second.json().error).toMatchObject({
        code: 'card_pending_approval',
        message: 'Your card request is awaiting approval. Approval takes up to 3 days.',
      });
    });

    it('refuses $499.99 on savings (422 savings_balance_required) and accepts $500.00', async () => {
      const short = await kit.customer({ savingsCents: 49_999 });
      const refused = await kit.request(short);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error).toMatchObject({
        code: 'savings_balance_required',
        message: 'Creating a card requires an available balance of $500 on your savings account',
      });
      const exact = await kit.customer({ savingsCents: 50_000 });
      expect((await kit.request(exact)).statusCode).toBe(201);
    });

    it('refuses a customer without accounts (409 no_account), saying they wait for their identity check, not to call customer care', async () => {
      const waiting = await insertBareCustomer(database());
      // Their identity document is with staff: the review waits, and no account is open yet.
      await database().query(
        `INSERT INTO identity_reviews (customer_id, id_number_encrypted, id_number_last4, country, state, address)
         VALUES ($1, decode('00', 'hex'), '6789', 'US', 'Illinois', '1 Main Street, Springfield')`,
        [waiting],
      );
      const browser = await new TestBrowser(app).signInAs(database(), waiting);
      const response = await browser.request({
        method: 'POST',
        url: '/api/v1/cards',
        payload: { cardType: 'debit', cardNetwork: 'visa', nameOnCard: 'Test Customer' },
        headers: { 'idempotency-key': 'no-account-key-1' },
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toMatchObject({ code: 'no_account', message: noAccountMessages.identityPending });
      expect(response.json().error.message).not.toMatch(/customer care/i);
    });

    it('prints the name on the card in capitals, accents dropped, and refuses digits, emoji and other signs with one message', async () => {
      const who = await kit.customer();
      for (const nameOnCard of ['Ana 😀 Lima', 'R2 D2', "O'Brien", 'Dana_Demo']) {
        const refused = await kit.request(who, { cardType: 'debit', cardNetwork: 'visa', nameOnCard });
        expect(refused.statusCode, nameOnCard).toBe(400);
        expect(refused.json().error.fields, nameOnCard).toEqual({ nameOnCard: nameOnCardMessages.invalid });
      }
      const response = await kit.request(who, { cardType: 'debit', cardNetwork: 'visa', nameOnCard: ' zoë  Núñez-Ruiz ' });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json<{ card: Card }>().card.nameOnCard).toBe('ZOE NUNEZ-RUIZ');
    });

    it.each([
      ['no name on card', { cardType: 'debit', cardNetwork: 'visa', nameOnCard: '' }, 'nameOnCard'],
      ['a missing name on card', { cardType: 'debit', cardNetwork: 'visa' }, 'nameOnCard'],
      ['an unknown type', { cardType: 'prepaid', cardNetwork: 'visa', nameOnCard: 'Demo Customer' }, 'cardType'],
      ['an unknown network', { cardType: 'debit', cardNetwork: 'amex', nameOnCard: 'Demo Customer' }, 'cardNetwork'],
    ])('refuses %s (400, the field named)', async (_title, body, field) => {
      const who = await kit.customer();
      const response = await kit.request(who, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('validation_failed');
      expect(Object.keys(response.json().error.fields ?? {})).toContain(field);
    });

    it('needs an Idempotency-Key', async () => {
      const who = await kit.customer();
      const response = await who.browser.post('/api/v1/cards', { cardType: 'debit', cardNetwork: 'visa', nameOnCard: 'Demo Customer' });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toHaveProperty('Idempotency-Key');
    });
  });

  describe('staff decision', () => {
    it('lists waiting requests with the customer standing, approves a debit card once, and tells the customer', async () => {
      const who = await kit.customer();
      const requested = (await kit.request(who)).json<{ card: Card }>().card;
      const staff = await kit.staff();
      const queue = await staff.get('/api/v1/staff/cards?status=pending_approval');
      expect(queue.statusCode).toBe(200);
      const item = queue.json<StaffCardList>().items.find((entry) => entry.id === requested.id);
      expect(item).toMatchObject({
        customerId: who.id,
        type: 'debit',
        status: 'pending_approval',
        last4: null,
        standing: { identityStatus: 'approved', savingsAvailableCents: 50_000, checkingAvailableCents: 150_000, frozen: false, openCards: 0 },
      });

      const withLimit = await kit.decide(requested.id, { decision: 'approve', reason: 'Good standing', creditLimitCents: 50_000 });
      expect(withLimit.statusCode).toBe(400);
      expect(withLimit.json().error.fields).toHaveProperty('creditLimitCents');

      const approved = await kit.decide(requested.id, { decision: 'approve', reason: 'Good standing' });
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json().card).toMatchObject({ status: 'active', reason: 'Good standing', decidedBy: expect.any(String) });
      expect(approved.json().card.last4).toMatch(/^\d{4}$/);
      const again = await kit.decide(requested.id, { decision: 'reject', reason: 'Changed my mind' });
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe('already_decided');

      const card = (await who.browser.get(`/api/v1/cards/${requested.id}`)).json<{ card: Card }>().card;
      const expiryYear = new Date().getUTCFullYear() + 3;
      expect(card).toMatchObject({
        status: 'active',
        balanceCents: 150_000,
        expiry: `${String(new Date().getUTCMonth() + 1).padStart(2, '0')}/${String(expiryYear % 100)}`,
      });
      expect(card.last4).toBe(approved.json().card.last4);
      const notifications = (await who.browser.get('/api/v1/notifications')).json<{ items: { name: string; text: string }[] }>().items;
      expect(notifications.map((notification) => notification.name)).toContain('Card approved');
      const audit = await database().query<{ action: string; details: Record<string, unknown> }>(
        `SELECT action, details FROM audit_log WHERE subject = $1 ORDER BY id`,
        [requested.id],
      );
      expect(audit.map((row) => row.action)).toEqual(['card.requested', 'card.approved']);
    });

    it('approves a credit card only with a credit limit, whose line of credit is its balance', async () => {
      const who = await kit.customer();
      const requested = (await kit.request(who, { cardType: 'credit', cardNetwork: 'visa', nameOnCard: 'Demo Customer' })).json<{ card: Card }>().card;
      const missing = await kit.decide(requested.id, { decision: 'approve', reason: 'Good standing' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.fields).toHaveProperty('creditLimitCents');
      const tooHigh = await kit.decide(requested.id, { decision: 'approve', reason: 'Good standing', creditLimitCents: 5_000_001 });
      expect(tooHigh.statusCode).toBe(400);
      const approved = await kit.decide(requested.id, { decision: 'approve', reason: 'Good standing', creditLimitCents: 150_000 });
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json().card.creditLimitCents).toBe(150_000);
      const card = (await who.browser.get(`/api/v1/cards/${requested.id}`)).json<{ card: Card }>().card;
      expect(card).toMatchObject({ status: 'active', balanceCents: 150_000, creditLimitCents: 150_000, balanceOwedCents: 0 });
    });

    it('rejects with a reason the customer reads; a rejected card is not counted and lets a new request in', async () => {
      const who = await kit.customer();
      const requested = (await kit.request(who)).json<{ card: Card }>().card;
      const noReason = await kit.decide(requested.id, { decision: 'reject', reason: '' });
      expect(noReason.statusCode).toBe(400);
      const rejected = await kit.decide(requested.id, { decision: 'reject', reason: 'Too many cards requested this month' });
      expect(rejected.statusCode).toBe(200);
      expect(rejected.json().card).toMatchObject({ status: 'rejected', reason: 'Too many cards requested this month', last4: null });
      const card = (await who.browser.get(`/api/v1/cards/${requested.id}`)).json<{ card: Card }>().card;
      expect(card).toMatchObject({ status: 'rejected', rejectionReason: 'Too many cards requested this month' });
      const notifications = (await who.browser.get('/api/v1/notifications')).json<{ items: { name: string }[] }>().items;
      expect(notifications.map((notification) => notification.name)).toContain('Card request declined');
      expect((await who.browser.get('/api/v1/dashboard')).json().cardCount).toBe(0);
      expect((await kit.request(who)).statusCode).toBe(201);
      expect((await who.browser.get('/api/v1/dashboard')).json().cardCount).toBe(1);
    });

    it('answers 404 for an unknown or malformed card, 403 to a role without cards.decide, 401 to a customer', async () => {
      expect((await kit.decide('00000000-0000-4000-8000-0000000000aa', { decision: 'reject', reason: 'Nothing here' })).statusCode).toBe(404);
      expect((await kit.decide('not-a-uuid', { decision: 'reject', reason: 'Nothing here' })).statusCode).toBe(404);
      const who = await kit.customer();
      const requested = (await kit.request(who)).json<{ card: Card }>().card;
      const support = (await staffBrowser(app, database(), config, 'support')).browser;
      expect((await support.get('/api/v1/staff/cards')).statusCode).toBe(403);
      expect((await support.post(`/api/v1/staff/cards/${requested.id}/decision`, { decision: 'approve', reason: 'Looks fine' })).statusCode).toBe(403);
      const compliance = (await staffBrowser(app, database(), config, 'compliance')).browser;
      expect((await compliance.get('/api/v1/staff/cards')).statusCode).toBe(403);
      expect((await who.browser.get('/api/v1/staff/cards')).statusCode).toBe(401);
      expect((await who.browser.post(`/api/v1/staff/cards/${requested.id}/decision`, { decision: 'approve', reason: 'Looks fine' })).statusCode).toBe(401);
      // Still waiting: nobody without the permission decided it.
      expect((await who.browser.get(`/api/v1/cards/${requested.id}`)).json().card.status).toBe('pending_approval');
    });

    it('pages the queue with a cursor', async () => {
      const staff = await kit.staff();
      const first = (await staff.get('/api/v1/staff/cards?status=active')).json<StaffCardList>();
      expect(first.total).toBeGreaterThanOrEqual(first.items.length);
      const rejected = (await staff.get('/api/v1/staff/cards?status=rejected')).json<StaffCardList>();
      expect(rejected.items.every((item) => item.status === 'rejected')).toBe(true);
    });
  });

  describe('freeze, unfreeze, close, limits', () => {
    it('freezes and unfreezes an active card; closing is final', async () => {
      const who = await kit.customer();
      const card = await kit.activeCard(who);
      expect((await who.browser.post(`/api/v1/cards/${card.id}/unfreeze`)).statusCode).toBe(409);
      const frozen = await who.browser.post(`/api/v1/cards/${card.id}/freeze`);
      expect(frozen.statusCode).toBe(200);
      expect(frozen.json().card.status).toBe('frozen');
      expect((await who.browser.post(`/api/v1/cards/${card.id}/freeze`)).statusCode).toBe(409);
      const unfrozen = await who.browser.post(`/api/v1/cards/${card.id}/unfreeze`);
      expect(unfrozen.json().card.status).toBe('active');
      const closed = await who.browser.request({ method: 'DELETE', url: `/api/v1/cards/${card.id}` });
      expect(closed.statusCode).toBe(200);
      expect(closed.json().card.status).toBe('closed');
      for (const action of ['freeze', 'unfreeze']) {
        const refused = await who.browser.post(`/api/v1/cards/${card.id}/${action}`);
        expect(refused.statusCode).toBe(409);
        expect(refused.json().error.code).toBe('card_not_active');
      }
      expect((await who.browser.request({ method: 'DELETE', url: `/api/v1/cards/${card.id}` })).statusCode).toBe(409);
      expect((await who.browser.put(`/api/v1/cards/${card.id}/limits`, { perTransactionLimitCents: 1_000, monthlyLimitCents: 2_000 })).statusCode).toBe(409);
      expect((await who.browser.get('/api/v1/dashboard')).json().cardCount).toBe(0);
    });

    it('sets limits up to the bank maximum', async () => {
      const who = await kit.customer();
      const card = await kit.activeCard(who);
      const set = await who.browser.put(`/api/v1/cards/${card.id}/limits`, { perTransactionLimitCents: 5_000, monthlyLimitCents: 20_000 });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json().card).toMatchObject({ perTransactionLimitCents: 5_000, monthlyLimitCents: 20_000 });
      const tooHigh = await who.browser.put(`/api/v1/cards/${card.id}/limits`, { perTransactionLimitCents: 1_000_001, monthlyLimitCents: 5_000_001 });
      expect(tooHigh.statusCode).toBe(400);
      expect(Object.keys(tooHigh.json().error.fields)).toEqual(expect.arrayContaining(['perTransactionLimitCents', 'monthlyLimitCents']));
      const inverted = await who.browser.put(`/api/v1/cards/${card.id}/limits`, { perTransactionLimitCents: 30_000, monthlyLimitCents: 20_000 });
      expect(inverted.statusCode).toBe(400);
      expect((await who.browser.get('/api/v1/dashboard')).json().cardCount).toBe(1);
    });
  });

  describe('reveal', () => {
    it('asks for a step-up every time and answers a Luhn-valid test number, its CVV and expiry', async () => {
      const who = await kit.customer();
      const visa = await kit.activeCard(who);
      const revealed = await kit.reveal(who, visa.id);
      expect(revealed.number).toMatch(/^\d{16}$/);
      expect(revealed.number.startsWith(testBins.visa)).toBe(true);
      expect(isLuhnValid(revealed.number)).toBe(true);
      expect(revealed.number.slice(-4)).toBe(visa.last4);
      expect(revealed.cvv).toMatch(/^\d{3}$/);
      expect(revealed.expiry).toBe(visa.expiry);
      // The same CVV every time (derived, not stored), and a new step-up every time.
      expect((await kit.reveal(who, visa.id)).cvv).toBe(revealed.cvv);

      const rows = await database().query<Record<string, unknown>>('SELECT * FROM cards WHERE id = $1', [visa.id]);
      const stored = JSON.stringify(rows[0], (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
      expect(stored).not.toContain(revealed.number);
      expect(Object.keys(rows[0] ?? {}).some((column) => column.includes('cvv'))).toBe(false);

      const reveals = await who.browser.get(`/api/v1/cards/${visa.id}/reveals`);
      expect(reveals.statusCode).toBe(200);
      expect(reveals.json().items).toHaveLength(2);
      expect(reveals.json().items[0]).toMatchObject({ device: expect.any(String), ip: who.browser.ip });
      const audit = await database().query<{ details: unknown }>(`SELECT details FROM audit_log WHERE action = 'card.revealed' AND subject = $1`, [visa.id]);
      expect(audit).toHaveLength(2);
      expect(JSON.stringify(audit)).not.toContain(revealed.number);
      const logs = await database().query<{ text_body: string }>('SELECT text_body FROM outbox_messages');
      expect(logs.map((row) => row.text_body).join('\n')).not.toContain(revealed.number);

      const mastercard = await kit.activeCard(await kit.customer(), { network: 'mastercard' });
      expect(mastercard.network).toBe('mastercard');
    });

    it('a step-up is used once, and one for another card does not work', async () => {
      const who = await kit.customer();
      const first = await kit.activeCard(who);
      const second = await kit.activeCard(who, { type: 'credit' });
      const asked = await who.browser.post(`/api/v1/cards/${first.id}/reveal`);
      expect(asked.statusCode).toBe(403);
      expect(asked.json().error.code).toBe('step_up_required');
      const challengeId = asked.json().error.challengeId as string;
      await kit.verifyLatestCode(who, challengeId);
      const otherCard = await who.browser.request({ method: 'POST', url: `/api/v1/cards/${second.id}/reveal`, headers: { 'x-step-up': challengeId } });
      expect(otherCard.statusCode).toBe(403);
      expect(otherCard.json().error.code).toBe('step_up_required');
      const used = await who.browser.request({ method: 'POST', url: `/api/v1/cards/${first.id}/reveal`, headers: { 'x-step-up': challengeId } });
      expect(used.statusCode).toBe(200);
      const again = await who.browser.request({ method: 'POST', url: `/api/v1/cards/${first.id}/reveal`, headers: { 'x-step-up': challengeId } });
      expect(again.statusCode).toBe(403);
      expect(again.json().error.code).toBe('step_up_required');
      const unverified = await who.browser.request({ method: 'POST', url: `/api/v1/cards/${first.id}/reveal`, headers: { 'x-step-up': 'made-up' } });
      expect(unverified.statusCode).toBe(403);
    });

    it('refuses a closed, pending or rejected card before any step-up', async () => {
      const who = await kit.customer();
      const card = await kit.activeCard(who);
      await who.browser.request({ method: 'DELETE', url: `/api/v1/cards/${card.id}` });
      const closed = await who.browser.post(`/api/v1/cards/${card.id}/reveal`);
      expect(closed.statusCode).toBe(409);
      expect(closed.json().error.code).toBe('card_not_active');
      const pending = (await kit.request(who)).json<{ card: Card }>().card;
      expect((await who.browser.post(`/api/v1/cards/${pending.id}/reveal`)).statusCode).toBe(409);
      await kit.decide(pending.id, { decision: 'reject', reason: 'Not this time' });
      expect((await who.browser.post(`/api/v1/cards/${pending.id}/reveal`)).statusCode).toBe(409);
    });
  });

  it("answers another customer's card id on every card route exactly like a missing one (404)", async () => {
    const owner = await kit.customer();
    const card = await kit.activeCard(owner);
    const stranger = await kit.customer();
    const missing = '00000000-0000-4000-8000-0000000000aa';
    const routes: { method: string; path: string; payload?: object; headers?: Record<string, string> }[] = [
      { method: 'GET', path: '' },
      { method: 'POST', path: '/freeze' },
      { method: 'POST', path: '/unfreeze' },
      { method: 'DELETE', path: '' },
      { method: 'PUT', path: '/limits', payload: { perTransactionLimitCents: 1_000, monthlyLimitCents: 2_000 } },
      { method: 'POST', path: '/reveal' },
      { method: 'GET', path: '/reveals' },
      { method: 'GET', path: '/transactions' },
      {
        method: 'POST',
        path: '/payments',
        payload: { fromAccountId: stranger.checking.id, amountCents: 100 },
        headers: { 'idempotency-key': 'stranger-payment-1' },
      },
    ];
    for (const route of routes) {
      const answers = [];
      for (const id of [card.id, missing, 'not-a-uuid']) {
        const response = await stranger.browser.request({
          method: route.method,
          url: `/api/v1/cards/${id}${route.path}`,
          payload: route.payload,
          headers: route.headers,
        });
        const { code, message } = response.json<{ error: { code: string; message: string } }>().error;
        answers.push({ status: response.statusCode, error: { code, message } });
      }
      expect(answers[0], `${route.method} ${route.path}`).toEqual({ status: 404, error: { code: 'not_found', message: 'No such card' } });
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
    }
    // Nothing changed for the owner.
    expect((await owner.browser.get(`/api/v1/cards/${card.id}`)).json().card.status).toBe('active');
  });

  it('no answer but a reveal carries a full card number', () => {
    const found = scanner.cardNumbersFound();
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((hit) => !/^\/api\/v1\/cards\/[^/]+\/reveal$/.test(hit.url))).toEqual([]);
  });
});
