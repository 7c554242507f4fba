import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Card, CardTransaction } from '@strongroom/contracts/cards.ts';
import type { Transaction } from '@strongroom/contracts/transactions.ts';
import type { Config } from '../../config.ts';
import { TestClock } from '../../db/clock.ts';
import { loadMigrations } from '../../db/migrate.ts';
import { buildTestApp, productionAppOptions } from '../../test/app.ts';
import { cardKit, cardSuite, ResponseScanner } from '../../test/cards.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { staffBrowser } from '../../test/staff.ts';
import { cardHoldReleaseIntervalMs } from './jobs.ts';

const grocer = { merchantName: 'Corner Grocer', mcc: '5411' };

describeEachDatabase('the card network: authorisations that hold, clear or are reversed; declines; credit cards', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const scanner = new ResponseScanner();
  const kit = cardSuite(database, (built) => ({ app, config } = built), {
    environment: { CARD_AUTO_APPROVE_SECONDS: 'off' },
    beforeReady: (built) => scanner.install(built),
  });

  async function cardTransactions(who: Awaited<ReturnType<typeof kit.customer>>, cardId: string): Promise<CardTransaction[]> {
    const response = await who.browser.get(`/api/v1/cards/${cardId}/transactions`);
    expect(response.statusCode).toBe(200);
    return response.json<{ items: CardTransaction[] }>().items;
  }

  async function historyLine(who: Awaited<ReturnType<typeof kit.customer>>, transferId: string): Promise<Transaction | undefined> {
    const response = await who.browser.get(`/api/v1/transactions?accountId=${who.checking.id}`);
    expect(response.statusCode).toBe(200);
    return response.json<{ items: Transaction[] }>().items.find((item) => item.transferId === transferId);
  }

  it('an approved purchase holds the money (pending, 7 days), shows in history and clears for less', async () => {
    const who = await kit.customer();
    const card = await kit.activeCard(who);
    const revealed = await kit.reveal(who, card.id);
    const before = await kit.balances(who);
    const authorization = await kit.purchase(revealed, 4_250, grocer);
    expect(authorization.status).toBe('approved');
    expect(authorization.declineReason).toBeUndefined();

    const held = await kit.balances(who);
    expect(held.checking).toEqual({ balanceCents: before.checking.balanceCents, availableCents: before.checking.availableCents - 4_250 });
    const [transaction] = await cardTransactions(who, card.id);
    expect(transaction).toMatchObject({
      id: authorization.id,
      merchantName: 'Corner Grocer',
      category: 'Groceries',
      amountCents: 4_250,
      status: 'pending',
      clearedCents: null,
    });
    const releasesIn = new Date(transaction?.releasesAt ?? 0).getTime() - Date.now();
    expect(releasesIn).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(releasesIn).toBeLessThan(7 * 86_400_000 + 60_000);
    const pendingLine = await historyLine(who, authorization.id);
    expect(pendingLine).toMatchObject({ status: 'pending', amountCents: -4_250, category: 'Debit' });
    expect(pendingLine?.description).toMatch(/^Corner Grocer · Groceries · Pending - releases on [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect((await who.browser.get(`/api/v1/cards/${card.id}`)).json().card.spentThisMonthCents).toBe(4_250);

    const more = await kit.network(`${authorization.id}/clear`, { amountCents: 4_251 });
    expect(more.statusCode).toBe(409);
    expect(more.json().error.message).toContain('at most the $42.50 that was authorised');
    const cleared = await kit.network(`${authorization.id}/clear`, { amountCents: 4_000 });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().transaction).toMatchObject({ status: 'cleared', clearedCents: 4_000, releasesAt: null });
    const after = await kit.balances(who);
    expect(after.checking).toEqual({ balanceCents: before.checking.balanceCents - 4_000, availableCents: before.checking.availableCents - 4_000 });
    const clearedLine = await historyLine(who, authorization.id);
    expect(clearedLine).toMatchObject({ status: 'completed', amountCents: -4_000, description: 'Corner Grocer · Groceries' });
    expect((await who.browser.get(`/api/v1/cards/${card.id}`)).json().card.spentThisMonthCents).toBe(4_000);

    const twice = await kit.network(`${authorization.id}/clear`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toContain('already cleared');
    const reverseAfterClear = await kit.network(`${authorization.id}/reverse`);
    expect(reverseAfterClear.statusCode).toBe(409);
    await kit.expectLedgerConsistent();
  });

  it('a reversal releases the hold; clearing after it is refused; clearing without an amount takes the whole hold', async () => {
    const who = await kit.customer();
    const card = await kit.activeCard(who);
    const revealed = await kit.reveal(who, card.id);
    const before = await kit.balances(who);
    const authorization = await kit.purchase(revealed, 1_999, { merchantName: 'Night Cinema', mcc: '7832' });
    const reversed = await kit.network(`${authorization.id}/reverse`);
    expect(reversed.statusCode, reversed.body).toBe(200);
    expect(reversed.json().transaction).toMatchObject({ status: 'reversed', category: 'Cinema' });
    expect(await kit.balances(who)).toEqual(before);
    expect(await historyLine(who, authorization.id)).toMatchObject({ status: 'returned', description: 'Night Cinema · Cinema · Hold released' });
    const clearAfterReversal = await kit.network(`${authorization.id}/clear`);
    expect(clearAfterReversal.statusCode).toBe(409);
    expect(clearAfterReversal.json().error.message).toContain('reversed');
    expect((await kit.network(`${authorization.id}/reverse`)).statusCode).toBe(409);

    const whole = await kit.purchase(revealed, 2_500, { merchantName: 'Gas & Go', mcc: '5541' });
    const cleared = await kit.network(`${whole.id}/clear`);
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().transaction).toMatchObject({ clearedCents: 2_500, category: 'Fuel' });
    expect((await kit.network('00000000-0000-4000-8000-0000000000aa/clear')).statusCode).toBe(404);
    expect((await kit.network('nonsense/reverse')).statusCode).toBe(404);
  });

  it('declines, recorded on the card, in order: wrong CVV, wrong expiry, limits, funds; frozen and closed cards', async () => {
    const who = await kit.customer({ fundCents: 300_000n });
    const card = await kit.activeCard(who);
    const revealed = await kit.reveal(who, card.id);
    const before = await kit.balances(who);
    const wrongCvv = String((Number(revealed.cvv) + 1) % 1000).padStart(3, '0');
    const [month, year] = revealed.expiry.split('/');
    const wrongExpiry = `${month}/${String((Number(year) + 1) % 100).padStart(2, '0')}`;
    const attempt = (overrides: object) =>
      kit.authorize({ cardNumber: revealed.number, expiry: revealed.expiry, cvv: revealed.cvv, amountCents: 1_000, ...grocer, ...overrides });
    const reasonOf = async (overrides: object) => {
      const response = await attempt(overrides);
      expect(response.statusCode, response.body).toBe(201);
      return response.json().authorization;
    };
    expect(await reasonOf({ cvv: wrongCvv })).toMatchObject({ status: 'declined', declineReason: 'wrong_cvv' });
    expect(await reasonOf({ expiry: wrongExpiry })).toMatchObject({ status: 'declined', declineReason: 'wrong_expiry' });
    expect(await reasonOf({ cardNumber: '4000001234567899' })).toMatchObject({ status: 'declined', declineReason: 'unknown_card' });

    await who.browser.put(`/api/v1/cards/${card.id}/limits`, { perTransactionLimitCents: 50_000, monthlyLimitCents: 120_000 });
    expect(await reasonOf({ amountCents: 50_001 })).toMatchObject({ declineReason: 'over_transaction_limit' });
    expect(await reasonOf({ amountCents: 50_000 })).toMatchObject({ status: 'approved' });
    expect(await reasonOf({ amountCents: 50_000 })).toMatchObject({ status: 'approved' });
    // Holds count against the month: 100,000 held, 20,001 more is over 120,000.
    expect(await reasonOf({ amountCents: 20_001 })).toMatchObject({ declineReason: 'over_monthly_limit' });
    await who.browser.put(`/api/v1/cards/${card.id}/limits`, { perTransactionLimitCents: 1_000_000, monthlyLimitCents: 5_000_000 });
    const available = (await kit.balances(who)).checking.availableCents;
    expect(await reasonOf({ amountCents: available + 1 })).toMatchObject({ declineReason: 'insufficient_funds' });
    expect(await reasonOf({ amountCents: available })).toMatchObject({ status: 'approved' });

    await who.browser.post(`/api/v1/cards/${card.id}/freeze`);
    const declinedWhileFrozen = await reasonOf({});
    expect(declinedWhileFrozen).toMatchObject({ declineReason: 'card_frozen' });
    // The attempt is in the checking account's history too, as card apps show it: declined, nothing moved.
    expect(await historyLine(who, declinedWhileFrozen.id)).toMatchObject({
      status: 'rejected',
      description: expect.stringMatching(/ · Declined: Card frozen$/),
    });
    await who.browser.post(`/api/v1/cards/${card.id}/unfreeze`);
    await who.browser.request({ method: 'DELETE', url: `/api/v1/cards/${card.id}` });
    expect(await reasonOf({})).toMatchObject({ declineReason: 'card_closed' });

    const items = await cardTransactions(who, card.id);
    expect(items.filter((item) => item.status === 'declined').map((item) => item.declineReason)).toEqual([
      'card_closed',
      'card_frozen',
      'insufficient_funds',
      'over_monthly_limit',
      'over_transaction_limit',
      'wrong_expiry',
      'wrong_cvv',
    ]);
    // Declines moved nothing: only the three approved holds are reserved.
    expect((await kit.balances(who)).checking).toEqual({ balanceCents: before.checking.balanceCents, availableCents: 0 });
    await kit.expectLedgerConsistent();
  });

  it('a credit card spends its available credit, owes what cleared, and is paid from checking (Idempotency-Key)', async () => {
    const who = await kit.customer();
    const stranger = await kit.customer();
    const card = await kit.activeCard(who, { type: 'credit', creditLimitCents: 20_000 });
    const revealed = await kit.reveal(who, card.id);
    const checkingBefore = (await kit.balances(who)).checking;
    const over = await kit.purchase(revealed, 20_001);
    expect(over).toMatchObject({ status: 'declined', declineReason: 'insufficient_credit' });
    const bought = await kit.purchase(revealed, 15_000, { merchantName: 'Skyways', mcc: '4511' });
    expect(bought.status).toBe('approved');
    let current = (await who.browser.get(`/api/v1/cards/${card.id}`)).json<{ card: Card }>().card;
    expect(current).toMatchObject({ balanceCents: 5_000, creditLimitCents: 20_000, balanceOwedCents: 0 });
    expect((await kit.network(`${bought.id}/clear`, { amountCents: 12_000 })).statusCode).toBe(200);
    current = (await who.browser.get(`/api/v1/cards/${card.id}`)).json<{ card: Card }>().card;
    expect(current).toMatchObject({ balanceCents: 8_000, balanceOwedCents: 12_000 });
    // The checking account did not move: credit purchases use the line.
    expect((await kit.balances(who)).checking).toEqual(checkingBefore);

    const pay = (body: object, key: string) => kit.pay(who, `/cards/${card.id}/payments`, body, key);
    const tooMuch = await pay({ fromAccountId: who.checking.id, amountCents: 12_001 }, 'card-pay-too-much');
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error.message).toBe('This card owes $120.00: pay at most that.');
    const notMine = await pay({ fromAccountId: stranger.checking.id, amountCents: 1_000 }, 'card-pay-not-mine');
    expect(notMine.statusCode).toBe(404);
    const noKey = await who.browser.post(`/api/v1/cards/${card.id}/payments`, { fromAccountId: who.checking.id, amountCents: 1_000 });
    expect(noKey.statusCode).toBe(400);
    const paid = await pay({ fromAccountId: who.checking.id, amountCents: 10_000 }, 'card-pay-ten-thousand');
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json().card).toMatchObject({ balanceCents: 18_000, balanceOwedCents: 2_000 });
    const replay = await pay({ fromAccountId: who.checking.id, amountCents: 10_000 }, 'card-pay-ten-thousand');
    expect(replay.statusCode).toBe(201);
    expect(replay.json().card.balanceOwedCents).toBe(2_000);
    expect((await kit.balances(who)).checking.balanceCents).toBe(checkingBefore.balanceCents - 10_000);
    const debit = await kit.activeCard(who);
    const payDebit = await kit.pay(who, `/cards/${debit.id}/payments`, { fromAccountId: who.checking.id, amountCents: 100 }, 'card-pay-debit');
    expect(payDebit.statusCode).toBe(409);
    // A credit card closes only once paid off; its unused line goes back.
    const refused = await who.browser.request({ method: 'DELETE', url: `/api/v1/cards/${card.id}` });
    expect(refused.statusCode).toBe(409);
    await pay({ fromAccountId: who.checking.id, amountCents: 2_000 }, 'card-pay-the-rest');
    const closed = await who.browser.request({ method: 'DELETE', url: `/api/v1/cards/${card.id}` });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().card).toMatchObject({ status: 'closed', balanceCents: 0 });
    await kit.expectLedgerConsistent();
  });

  it('a card payment the ledger refuses (not enough money) leaves no payment, no audit entry and no money moved: the same key pays later', async () => {
    const who = await kit.customer({ fundCents: 60_000n });
    const card = await kit.activeCard(who, { type: 'credit', creditLimitCents: 20_000 });
    const bought = await kit.purchase(await kit.reveal(who, card.id), 15_000);
    expect((await kit.network(`${bought.id}/clear`)).statusCode).toBe(200);
    const checkingBefore = (await kit.balances(who)).checking;
    expect(checkingBefore.availableCents).toBe(10_000);

    const refused = await kit.pay(who, `/cards/${card.id}/payments`, { fromAccountId: who.checking.id, amountCents: 15_000 }, 'card-pay-refused');
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().error).toMatchObject({ code: 'insufficient_funds', message: 'There is not enough money in that account for this payment.' });
    const rows = await database().query('SELECT 1 FROM card_payments WHERE card_id = $1', [card.id]);
    expect(rows).toHaveLength(0);
    const audits = await database().query(`SELECT 1 FROM audit_log WHERE action = 'card.paid' AND subject = $1`, [card.id]);
    expect(audits).toHaveLength(0);
    expect((await kit.balances(who)).checking).toEqual(checkingBefore);

    // Nothing of the refused request was kept, so its key is free for the payment that fits (not idempotency_key_reused).
    const paid = await kit.pay(who, `/cards/${card.id}/payments`, { fromAccountId: who.checking.id, amountCents: 10_000 }, 'card-pay-refused');
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json().card).toMatchObject({ balanceOwedCents: 5_000 });
    await kit.expectLedgerConsistent();
  });

  it('a customer staff froze requests no card and pays with none (403 account_frozen; declined card_frozen)', async () => {
    const who = await kit.customer();
    const card = await kit.activeCard(who);
    const revealed = await kit.reveal(who, card.id);
    const admin = (await staffBrowser(app, database(), config, 'admin')).browser;
    const frozen = await admin.post(`/api/v1/staff/customers/${who.id}/freeze`, { reason: 'Suspicious activity reported' });
    expect(frozen.statusCode, frozen.body).toBe(200);
    await who.browser.signInAs(database(), who.id);
    const request = await kit.request(who, { cardType: 'credit', cardNetwork: 'visa', nameOnCard: 'Demo Customer' });
    expect(request.statusCode).toBe(403);
    expect(request.json().error.code).toBe('account_frozen');
    expect(await kit.purchase(revealed, 1_000)).toMatchObject({ status: 'declined', declineReason: 'card_frozen' });
    expect((await admin.post(`/api/v1/staff/customers/${who.id}/unfreeze`, { reason: 'Cleared after review' })).statusCode).toBe(200);
    expect(await kit.purchase(revealed, 1_000)).toMatchObject({ status: 'approved' });
  });

  describe('the console simulator (payments.settle)', () => {
    it('fires the same authorisations with the stored card, simulates a wrong CVV or expiry, clears, reverses and lists; audited', async () => {
      const who = await kit.customer();
      const card = await kit.activeCard(who);
      const { browser: staff, member } = await staffBrowser(app, database(), config, 'operations');
      const approved = await staff.post('/api/v1/staff/card-simulator/authorizations', {
        cardId: card.id,
        amountCents: 3_000,
        merchantName: 'Taxi Co',
        mcc: '4121',
        reason: 'Checking a taxi fare end to end',
      });
      expect(approved.statusCode, approved.body).toBe(201);
      expect(approved.json().authorization.status).toBe('approved');
      const wrongCvv = await staff.post('/api/v1/staff/card-simulator/authorizations', {
        cardId: card.id,
        amountCents: 3_000,
        merchantName: 'Taxi Co',
        mcc: '4121',
        reason: 'Checking a taxi fare end to end',
        cvv: '000',
      });
      // 000 is the real CVV once in a thousand cards; then the decline is the expiry's below.
      expect(['wrong_cvv', undefined]).toContain(wrongCvv.json().authorization.declineReason);
      const wrongExpiry = await staff.post('/api/v1/staff/card-simulator/authorizations', {
        cardId: card.id,
        amountCents: 3_000,
        merchantName: 'Taxi Co',
        mcc: '4121',
        reason: 'Checking a taxi fare end to end',
        expiry: '01/20',
      });
      expect(wrongExpiry.json().authorization).toMatchObject({ status: 'declined', declineReason: 'wrong_expiry' });
      const cleared = await staff.post(`/api/v1/staff/card-simulator/authorizations/${approved.json().authorization.id}/clear`, {
        amountCents: 2_800,
        reason: 'Testing a tip-less fare',
      });
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect(cleared.json().transaction).toMatchObject({ status: 'cleared', clearedCents: 2_800 });
      const second = await staff.post('/api/v1/staff/card-simulator/authorizations', {
        cardId: card.id,
        amountCents: 500,
        merchantName: 'Taxi Co',
        mcc: '4121',
        reason: 'Checking a taxi fare end to end',
      });
      const reversed = await staff.post(`/api/v1/staff/card-simulator/authorizations/${second.json().authorization.id}/reverse`, {
        reason: 'The fare was cancelled',
      });
      expect(reversed.json().transaction.status).toBe('reversed');
      // A staff event without a reason is refused and fires nothing.
      const withoutReason = await staff.post('/api/v1/staff/card-simulator/authorizations', {
        cardId: card.id,
        amountCents: 500,
        merchantName: 'Taxi Co',
        mcc: '4121',
      });
      expect(withoutReason.statusCode).toBe(400);
      expect(withoutReason.json().error.code).toBe('validation_failed');
      expect((await staff.post(`/api/v1/staff/card-simulator/authorizations/${second.json().authorization.id}/reverse`, {})).statusCode).toBe(400);
      const list = await staff.get(`/api/v1/staff/card-simulator/authorizations?cardId=${card.id}`);
      expect(list.statusCode).toBe(200);
      expect(list.json().items.length).toBeGreaterThanOrEqual(3);

      const pending = (await kit.request(who)).json<{ card: Card }>().card;
      const onPending = await staff.post('/api/v1/staff/card-simulator/authorizations', {
        cardId: pending.id,
        amountCents: 500,
        merchantName: 'Taxi Co',
        mcc: '4121',
        reason: 'Checking a taxi fare end to end',
      });
      expect(onPending.json().authorization).toMatchObject({ status: 'declined', declineReason: 'card_not_active' });
      expect(
        (
          await staff.post('/api/v1/staff/card-simulator/authorizations', {
            cardId: '00000000-0000-4000-8000-0000000000aa',
            amountCents: 5,
            merchantName: 'X',
            mcc: '5999',
            reason: 'An unknown card id',
          })
        ).statusCode,
      ).toBe(404);

      const actions = await database().query<{ action: string }>(
        `SELECT action FROM audit_log WHERE actor_id = $1 AND action LIKE 'card_simulator.%' ORDER BY id`,
        [member.id],
      );
      expect(actions.map((row) => row.action)).toEqual(
        expect.arrayContaining(['card_simulator.authorized', 'card_simulator.cleared', 'card_simulator.reversed']),
      );

      const support = (await staffBrowser(app, database(), config, 'support')).browser;
      expect(
        (await support.post('/api/v1/staff/card-simulator/authorizations', { cardId: card.id, amountCents: 5, merchantName: 'X', mcc: '5999' })).statusCode,
      ).toBe(403);
      expect((await support.get(`/api/v1/staff/card-simulator/authorizations?cardId=${card.id}`)).statusCode).toBe(403);
      expect(
        (await who.browser.post('/api/v1/staff/card-simulator/authorizations', { cardId: card.id, amountCents: 5, merchantName: 'X', mcc: '5999' })).statusCode,
      ).toBe(401);
    });
  });

  it('migration 0040 ends an authorisation whose hold never reached the ledger (a crash, before one transaction held both) expired, holding nothing', async () => {
    const who = await kit.customer();
    const card = await kit.activeCard(who);
    const [orphan] = await database().query<{ id: string }>(
      `INSERT INTO card_authorizations (id, card_id, customer_id, amount_cents, merchant_name, mcc, status, source, releases_at, created_at)
       VALUES (gen_random_uuid(), $1, $2, 500, 'Lost Merchant', '5999', 'pending', 'network', now() + interval '7 days', now() - interval '6 minutes') RETURNING id`,
      [card.id, who.id],
    );
    const held = await kit.purchase(await kit.reveal(who, card.id), 700, { merchantName: 'Held Merchant', mcc: '5999' });
    const finishOrphans = (await loadMigrations()).find((migration) => migration.version === 40);
    if (!finishOrphans) throw new Error('no migration 0040');
    await database().query(finishOrphans.sql);
    const items = (await who.browser.get(`/api/v1/cards/${card.id}/transactions`)).json<{ items: CardTransaction[] }>().items;
    expect(items.find((item) => item.id === orphan?.id)).toMatchObject({ status: 'expired', releasesAt: null });
    // An authorisation held in the ledger is left as it was.
    expect(items.find((item) => item.id === held.id)).toMatchObject({ status: 'pending' });
    expect((await who.browser.get(`/api/v1/cards/${card.id}`)).json().card.spentThisMonthCents).toBe(700);
  });

  it('bad input to the network is refused with the field named', async () => {
    const response = await kit.authorize({ cardNumber: '4000', expiry: '1/2', cvv: '12', amountCents: 0, merchantName: '', mcc: '54' });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().error.fields)).toEqual(expect.arrayContaining(['expiry', 'cvv', 'amountCents', 'merchantName', 'mcc']));
  });

  it('no answer but a reveal carries a full card number', () => {
    const found = scanner.cardNumbersFound();
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((hit) => !/^\/api\/v1\/cards\/[^/]+\/reveal$/.test(hit.url))).toEqual([]);
  });
});

describeEachDatabase('a hold nobody clears is released by the ledger after 7 days', (database) => {
  it('expires the pending transfer, marks the purchase expired and the history line "Hold released", and tells the customer', async () => {
    const clock = new TestClock();
    const { app, config } = await buildTestApp(database(), { environment: { CARD_AUTO_APPROVE_SECONDS: 'off' }, dependencies: { clock } });
    const kit = cardKit(() => ({ app, config, db: database() }));
    const who = await kit.customer();
    const card = await kit.activeCard(who);
    const revealed = await kit.reveal(who, card.id);
    const before = await kit.balances(who);
    const authorization = await kit.purchase(revealed, 7_700);
    expect((await kit.balances(who)).checking.availableCents).toBe(before.checking.availableCents - 7_700);

    clock.advance(7 * 86_400_000 + 1_000);
    for (let round = 0; round < 3; round += 1) {
      clock.advance(cardHoldReleaseIntervalMs + 1_000);
      await app.services.jobs.runOnce();
    }
    // The week passed may hold a month's end, whose end of day (the same job pass) pays savings its interest: the hold was on checking.
    expect((await kit.balances(who)).checking).toEqual(before.checking);
    const items = (await who.browser.get(`/api/v1/cards/${card.id}/transactions`)).json<{ items: CardTransaction[] }>().items;
    expect(items[0]).toMatchObject({ id: authorization.id, status: 'expired', releasesAt: null });
    const history = (await who.browser.get(`/api/v1/transactions?accountId=${who.checking.id}`)).json<{ items: Transaction[] }>().items;
    expect(history.find((item) => item.transferId === authorization.id)).toMatchObject({
      status: 'returned',
      description: 'Corner Grocer · Groceries · Hold released',
    });
    const notifications = (await who.browser.get('/api/v1/notifications')).json<{ items: { name: string }[] }>().items;
    expect(notifications.map((item) => item.name)).toContain('Hold released');
    expect((await kit.network(`${authorization.id}/clear`)).statusCode).toBe(409);
    await kit.expectLedgerConsistent();
    await app.close();
  });
});

describeEachDatabase('the card network in production', (database) => {
  it('does not exist (404), nor the console simulator', async () => {
    const { app } = await buildTestApp(database(), productionAppOptions(database(), { environment: { CARD_AUTO_APPROVE_SECONDS: '5' } }));
    expect(app.services).toBeDefined();
    const network = await app.inject({ method: 'POST', url: '/api/v1/dev/card-network/authorizations', payload: {} });
    expect(network.statusCode).toBe(404);
    const document = app.swagger() as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((path) => path.includes('card-simulator') || path.includes('card-network'))).toEqual([]);
    await app.close();
  });
});
