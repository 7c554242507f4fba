import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Card } from '@strongroom/contracts/cards.ts';
import { loadConfig } from '../../config.ts';
import { TestClock } from '../../db/clock.ts';
import { buildTestApp, productionEnvironment } from '../../test/app.ts';
import { cardKit, cardSuite } from '../../test/cards.ts';
import { describeEachDatabase } from '../../test/databases.ts';

describeEachDatabase('a card push to a card of this bank', (database) => {
  const kit = cardSuite(database, () => undefined, { environment: { CARD_AUTO_APPROVE_SECONDS: 'off', RAIL_SPEED: 'instant' } });

  const push = (who: Awaited<ReturnType<typeof kit.customer>>, cardNumber: string, amountCents: number) =>
    kit.payCard(who, { amountCents, message: 'Dinner', cardNumber, accountName: 'Robin Holder' });

  it('settles at once into an active debit card’s checking account', async () => {
    const holder = await kit.customer();
    const card = await kit.activeCard(holder);
    const revealed = await kit.reveal(holder, card.id);
    const payer = await kit.customer();
    const payerBefore = await kit.balances(payer);
    const holderBefore = await kit.balances(holder);
    const response = await push(payer, revealed.number.replace(/(\d{4})(?=\d)/g, '$1 '), 2_500);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().transfer).toMatchObject({ kind: 'card', status: 'completed', amountCents: 2_500 });
    expect(JSON.stringify(response.json())).not.toContain(revealed.number);
    expect((await kit.balances(payer)).checking.balanceCents).toBe(payerBefore.checking.balanceCents - 2_500);
    expect((await kit.balances(holder)).checking).toEqual({
      balanceCents: holderBefore.checking.balanceCents + 2_500,
      availableCents: holderBefore.checking.availableCents + 2_500,
    });
    const history = (await holder.browser.get(`/api/v1/transactions?accountId=${holder.checking.id}`)).json<{
      items: { transferId: string; amountCents: number }[];
    }>();
    expect(history.items.find((item) => item.transferId === response.json().transfer.id)).toMatchObject({ amountCents: 2_500 });
  });

  it('refuses a frozen or closed card before any money moves (409 card_not_active), with no step-up', async () => {
    const holder = await kit.customer();
    const card = await kit.activeCard(holder);
    const revealed = await kit.reveal(holder, card.id);
    const payer = await kit.customer();
    const before = await kit.balances(payer);
    const body = {
      kind: 'card',
      fromAccountId: payer.checking.id,
      amountCents: 1_000,
      message: 'Dinner',
      cardNumber: revealed.number,
      accountName: 'Robin Holder',
    };
    await holder.browser.post(`/api/v1/cards/${card.id}/freeze`);
    const frozen = await kit.pay(payer, '/transfers', body);
    expect(frozen.statusCode).toBe(409);
    expect(frozen.json().error.code).toBe('card_not_active');
    await holder.browser.request({ method: 'DELETE', url: `/api/v1/cards/${card.id}` });
    const closed = await kit.pay(payer, '/transfers', body);
    expect(closed.statusCode).toBe(409);
    expect(closed.json().error.code).toBe('card_not_active');
    expect(await kit.balances(payer)).toEqual(before);
  });

  it('pays what a credit card owes, never more; an outside card still goes to the card rail', async () => {
    const holder = await kit.customer();
    const card = await kit.activeCard(holder, { type: 'credit', creditLimitCents: 50_000 });
    const revealed = await kit.reveal(holder, card.id);
    const bought = await kit.purchase(revealed, 3_000);
    await kit.network(`${bought.id}/clear`);
    const payer = await kit.customer();
    const tooMuch = await kit.pay(payer, '/transfers', {
      kind: 'card',
      fromAccountId: payer.checking.id,
      amountCents: 3_001,
      message: 'Your share',
      cardNumber: revealed.number,
      accountName: 'Robin Holder',
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error.message).toBe('This card owes $30.00: send at most that.');
    const paid = await push(payer, revealed.number, 3_000);
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json().transfer.status).toBe('completed');
    expect((await holder.browser.get(`/api/v1/cards/${card.id}`)).json<{ card: Card }>().card).toMatchObject({ balanceOwedCents: 0, balanceCents: 50_000 });

    const outside = await push(payer, '4111111111111111', 1_000);
    expect(outside.statusCode, outside.body).toBe(201);
    expect(outside.json().transfer).toMatchObject({ kind: 'card', status: 'pending' });
  });
});

describeEachDatabase('CARD_AUTO_APPROVE_SECONDS', (database) => {
  it('approves a debit card, and a credit card with the sandbox limit, after the delay; staff then find it decided', async () => {
    const clock = new TestClock();
    const { app, config } = await buildTestApp(database(), { environment: { CARD_AUTO_APPROVE_SECONDS: '10' }, dependencies: { clock } });
    const kit = cardKit(() => ({ app, config, db: database() }));
    const debitOwner = await kit.customer();
    const creditOwner = await kit.customer();
    const debit = (await kit.request(debitOwner)).json<{ card: Card }>().card;
    const credit = (await kit.request(creditOwner, { cardType: 'credit', cardNetwork: 'mastercard', nameOnCard: 'Demo Customer' })).json<{ card: Card }>().card;
    clock.advance(9_000);
    await app.services.jobs.runOnce();
    expect((await debitOwner.browser.get(`/api/v1/cards/${debit.id}`)).json().card.status).toBe('pending_approval');
    clock.advance(2_000);
    for (let round = 0; round < 3 && (await app.services.jobs.runOnce()) > 0; round += 1);
    expect((await debitOwner.browser.get(`/api/v1/cards/${debit.id}`)).json().card).toMatchObject({
      status: 'active',
      last4: expect.stringMatching(/^\d{4}$/),
    });
    expect((await creditOwner.browser.get(`/api/v1/cards/${credit.id}`)).json().card).toMatchObject({
      status: 'active',
      creditLimitCents: 100_000,
      balanceCents: 100_000,
    });
    const decided = await kit.decide(credit.id, { decision: 'reject', reason: 'Too late now' });
    expect(decided.statusCode).toBe(409);
    const [row] = await database().query<{ decided_by: string; decision_reason: string }>('SELECT decided_by, decision_reason FROM cards WHERE id = $1', [
      credit.id,
    ]);
    expect(row).toMatchObject({ decided_by: 'system', decision_reason: expect.stringContaining('$1,000.00') });
    await kit.expectLedgerConsistent();
    await app.close();
  });

  it('off leaves every request to staff', async () => {
    const clock = new TestClock();
    const { app, config } = await buildTestApp(database(), { environment: { CARD_AUTO_APPROVE_SECONDS: 'off' }, dependencies: { clock } });
    const kit = cardKit(() => ({ app, config, db: database() }));
    const who = await kit.customer();
    const card = (await kit.request(who)).json<{ card: Card }>().card;
    clock.advance(3_600_000);
    for (let round = 0; round < 3; round += 1) await app.services.jobs.runOnce();
    expect((await who.browser.get(`/api/v1/cards/${card.id}`)).json().card.status).toBe('pending_approval');
    await app.close();
  });
});

describe('CARD_AUTO_APPROVE_SECONDS in config', () => {
  const load = async (environment: Record<string, string>) => loadConfig({ DATA_DIR: await mkdtemp(path.join(tmpdir(), 'strongroom-cards-')), ...environment });
  it('is 10 seconds by default in sandbox, a number when given, and off when off', async () => {
    expect((await load({})).cardAutoApproveSeconds).toBe(10);
    expect((await load({ CARD_AUTO_APPROVE_SECONDS: '3' })).cardAutoApproveSeconds).toBe(3);
    expect((await load({ CARD_AUTO_APPROVE_SECONDS: 'off' })).cardAutoApproveSeconds).toBeUndefined();
    await expect(load({ CARD_AUTO_APPROVE_SECONDS: 'soon' })).rejects.toThrow(/CARD_AUTO_APPROVE_SECONDS/);
  });

  it('never approves in production, even when set', async () => {
    const production = await load({ ...productionEnvironment, CARD_AUTO_APPROVE_SECONDS: '5' });
    expect(production.cardAutoApproveSeconds).toBeUndefined();
  });

  it('keeps three separate card keys, derived from ENCRYPTION_KEY unless given', async () => {
    const derived = await load({ ENCRYPTION_KEY: Buffer.alloc(32, 2).toString('base64'), SESSION_SECRET: Buffer.alloc(32, 1).toString('base64') });
    const keys = [derived.cardKeys.pan, derived.cardKeys.lookup, derived.cardKeys.cvv, derived.secrets.encryptionKey].map((key) => key.toString('hex'));
    expect(new Set(keys).size).toBe(4);
    expect(derived.cardKeys.pan).toHaveLength(32);
    const given = await load({ CARD_CVV_KEY: Buffer.alloc(32, 7).toString('base64') });
    expect(given.cardKeys.cvv.equals(Buffer.alloc(32, 7))).toBe(true);
  });
});
