import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Card, CardRevealResponse } from '@strongroom/contracts/cards.ts';
import type { Database } from '../db/database.ts';
import { isLuhnValid } from '../modules/cards/card-numbers.ts';
import type { TestBrowser } from './client.ts';
import { paymentKit, type CustomerOptions, type PayingCustomer } from './payments.ts';
import { testAppSuite, withLedgerChecked, type SuiteContext, type SuiteOptions } from './suite.ts';
import type { TestApp } from './app.ts';
import { staffBrowser } from './staff.ts';

/**
 * Every JSON answer the app sends, with the URL it answered: a test then proves that no answer
 * but a reveal carries a full card number (a Luhn-valid run of 13 to 19 digits).
 */
export class ResponseScanner {
  readonly answers: { url: string; payload: string }[] = [];

  install(app: FastifyInstance): void {
    app.addHook('onSend', async (request, reply, payload) => {
      const type = String(reply.getHeader('content-type') ?? '');
      if (typeof payload === 'string' && type.includes('json')) this.answers.push({ url: request.url, payload });
      return payload;
    });
  }

  /** The answers holding a Luhn-valid 13-19 digit run, with the run. */
  cardNumbersFound(): { url: string; number: string }[] {
    return this.answers.flatMap((answer) =>
      [...answer.payload.matchAll(/(?<!\d)\d{13,19}(?!\d)/g)].flatMap((match) => (isLuhnValid(match[0]) ? [{ url: answer.url, number: match[0] }] : [])),
    );
  }
}

export function cardKit(context: () => SuiteContext) {
  const payments = paymentKit(context);
  let operations: TestBrowser | undefined;

  /** A customer whose savings hold `savingsCents` (default $500.00) and checking the rest of `fundCents` (default $2,000.00). */
  function customer(options: CustomerOptions = {}): Promise<PayingCustomer> {
    return payments.customer({ ...options, fundCents: options.fundCents ?? 200_000n, savingsCents: options.savingsCents ?? 50_000 });
  }

  function request(who: PayingCustomer, body: object = { cardType: 'debit', cardNetwork: 'visa', nameOnCard: 'Demo Customer' }, key: string = randomUUID()) {
    return who.browser.request({ method: 'POST', url: '/api/v1/cards', payload: body, headers: { 'idempotency-key': key } });
  }

  async function staff(): Promise<TestBrowser> {
    if (!operations) {
      const { app, db, config } = context();
      operations = (await staffBrowser(app, db, config, 'operations')).browser;
    }
    return operations;
  }

  async function decide(cardId: string, body: object) {
    return (await staff()).post(`/api/v1/staff/cards/${cardId}/decision`, body);
  }

  /** Requested and approved by staff: an active card. */
  async function activeCard(
    who: PayingCustomer,
    options: { type?: 'debit' | 'credit'; network?: 'visa' | 'mastercard'; creditLimitCents?: number } = {},
  ): Promise<Card> {
    const type = options.type ?? 'debit';
    const requested = await request(who, { cardType: type, cardNetwork: options.network ?? 'visa', nameOnCard: 'Demo Customer' });
    expect(requested.statusCode, requested.body).toBe(201);
    const cardId = requested.json<{ card: Card }>().card.id;
    const decided = await decide(cardId, {
      decision: 'approve',
      reason: 'Good standing',
      ...(type === 'credit' ? { creditLimitCents: options.creditLimitCents ?? 100_000 } : {}),
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const card = await who.browser.get(`/api/v1/cards/${cardId}`);
    expect(card.statusCode).toBe(200);
    return card.json<{ card: Card }>().card;
  }

  /** Reveal with a step-up, as the web does. */
  async function reveal(who: PayingCustomer, cardId: string): Promise<CardRevealResponse> {
    const first = await who.browser.post(`/api/v1/cards/${cardId}/reveal`);
    expect(first.statusCode, first.body).toBe(403);
    const challengeId = first.json<{ error: { challengeId: string } }>().error.challengeId;
    await payments.verifyLatestCode(who, challengeId);
    const second = await who.browser.request({ method: 'POST', url: `/api/v1/cards/${cardId}/reveal`, headers: { 'x-step-up': challengeId } });
    expect(second.statusCode, second.body).toBe(200);
    return second.json<CardRevealResponse>();
  }

  function authorize(body: object) {
    return context().app.inject({ method: 'POST', url: '/api/v1/dev/card-network/authorizations', payload: body });
  }

  async function purchase(revealed: CardRevealResponse, amountCents: number, merchant = { merchantName: 'Corner Grocer', mcc: '5411' }) {
    const response = await authorize({ cardNumber: revealed.number, expiry: revealed.expiry, cvv: revealed.cvv, amountCents, ...merchant });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ authorization: { id: string; status: 'approved' | 'declined'; declineReason?: string } }>().authorization;
  }

  function network(path: string, body?: object) {
    return context().app.inject({ method: 'POST', url: `/api/v1/dev/card-network/authorizations/${path}`, ...(body ? { payload: body } : {}) });
  }

  return { ...payments, customer, request, staff, decide, activeCard, reveal, authorize, purchase, network };
}

/** A cards suite's app and kit, as `paymentSuite` (test/payments.ts) gives a payments suite's: the ledger checked and the app closed after the tests. */
export function cardSuite(database: () => Database, use: (built: TestApp) => unknown, options: SuiteOptions = {}): ReturnType<typeof cardKit> {
  return cardKit(testAppSuite(database, use, withLedgerChecked(options)));
}
