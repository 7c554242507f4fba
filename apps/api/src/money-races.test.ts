import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import type { Card, CardRevealResponse } from '@strongroom/contracts/cards.ts';
import type { Config } from './config.ts';
import { lookupAccounts } from './ledger/accounts.ts';
import { ledgers, transferCodes } from './ledger/codes.ts';
import { createTransfers } from './ledger/create-transfers.ts';
import { recordRailOutcome } from './modules/payments/service.ts';
import { cardSuite } from './test/cards.ts';
import { describeEachDatabase } from './test/databases.ts';
import { activeLoan, offeredLoan, validApplication } from './test/loans.ts';
import { ownTransfer, validExternal, type PayingCustomer } from './test/payments.ts';

/**
 * Issue 30: the money races a probe found (thirty card payments at once paid a $400 debt many times
 * over; a debit card spent money an account owed the bank after a returned deposit), made a sweep
 * that every way money leaves an account must pass (docs/decisions/052):
 *
 * - `race`: thirty requests (or, where each needs its own step-up, a handful) sent at the same
 *   moment, together asking for more than the limit that caps them (the available balance, what a
 *   credit card or a loan owes, the daily deposit limit). Exactly what the limit allows moves, the
 *   rest is refused, and the ledger stays consistent.
 * - `whileOwing`: the same way out, from a checking account that owes the bank after a deposit was
 *   returned late: refused, nothing moves.
 *
 * The table is checked against the server: every unsafe customer operation of the API's document
 * tagged payments, cards, loans, funding-sources or sandbox has a line, so a new way of moving money
 * cannot ship without saying how it is raced (or why it moves no money). On PGlite the requests
 * queue on its one connection; on PostgreSQL they really run at once.
 */
type Scenario = { race: () => Promise<void>; whileOwing?: () => Promise<void> } | { movesNoMoney: string };

const concurrentRequests = 30;
/** Requests that each need their own step-up: a customer may have only a few codes open at once (issue 30 item 11). */
const steppedUpRequests = 4;
const moneyTags = new Set(['payments', 'cards', 'loans', 'funding-sources', 'sandbox']);

describeEachDatabase('money races: every way money leaves an account, raced, and tried while the account owes the bank', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = cardSuite(database, (built) => ({ app, config } = built), { environment: { RAIL_SPEED: 'instant', CARD_AUTO_APPROVE_SECONDS: 'off' } });

  const statuses = (responses: LightMyRequestResponse[]) => responses.map((response) => response.statusCode).sort();
  const count = (responses: LightMyRequestResponse[], status: number) => responses.filter((response) => response.statusCode === status).length;

  /** `times` requests made by `send(i)`, all at once. */
  const atOnce = (times: number, send: (index: number) => Promise<LightMyRequestResponse>) =>
    Promise.all(Array.from({ length: times }, (_, index) => send(index)));

  /**
   * The same payment asked `times` times under different keys, each with its own verified step-up,
   * then all sent again at the same moment with their X-Step-Up.
   */
  async function steppedUpAtOnce(who: PayingCustomer, path: string, body: object, times = steppedUpRequests) {
    const prepared: { key: string; challengeId: string }[] = [];
    for (let index = 0; index < times; index += 1) {
      const key = randomUUID();
      const first = await kit.pay(who, path, body, key);
      expect(first.statusCode, first.body).toBe(403);
      const challengeId = first.json<{ error: { challengeId: string } }>().error.challengeId;
      await kit.verifyLatestCode(who, challengeId);
      prepared.push({ key, challengeId });
    }
    return Promise.all(prepared.map(({ key, challengeId }) => kit.pay(who, path, body, key, { 'x-step-up': challengeId })));
  }

  async function checkingOf(who: PayingCustomer) {
    return (await kit.balances(who)).checking;
  }

  /** A credit card of `who` that owes `owedCents`, spent by a cleared purchase; with its revealed number. */
  async function creditCardOwing(who: PayingCustomer, owedCents: number): Promise<{ card: Card; revealed: CardRevealResponse }> {
    const card = await kit.activeCard(who, { type: 'credit', creditLimitCents: 100_000 });
    const revealed = await kit.reveal(who, card.id);
    const bought = await kit.purchase(revealed, owedCents);
    expect(bought.status).toBe('approved');
    expect((await kit.network(`${bought.id}/clear`, {})).statusCode).toBe(200);
    expect(await owedOn(who, card.id)).toBe(owedCents);
    return { card, revealed };
  }

  async function owedOn(who: PayingCustomer, cardId: string): Promise<number> {
    const response = await who.browser.get(`/api/v1/cards/${cardId}`);
    return response.json<{ card: Card }>().card.balanceOwedCents ?? 0;
  }

  /** A debit card of `who`, active, with its revealed number. */
  async function debitCard(who: PayingCustomer): Promise<CardRevealResponse> {
    const card = await kit.activeCard(who, { type: 'debit' });
    return kit.reveal(who, card.id);
  }

  /** The terms and application of a loan of `amountCents`, interest-free over 12 months. */
  const loanOf = (amountCents: number) =>
    [
      { reason: 'Income verified', amountCents, aprBps: 0, termMonths: 12 },
      { ...validApplication, amountCents },
    ] as const;
  /** An active loan of `who` for `amountCents`, paid into checking. */
  const activeLoanOf = async (who: PayingCustomer, amountCents: number) => activeLoan(who.browser, await kit.staff(), ...loanOf(amountCents));
  /** A loan of `who` for `amountCents` approved and offered, not yet accepted (nothing paid, decision 058). */
  const offeredLoanOf = async (who: PayingCustomer, amountCents: number) => offeredLoan(who.browser, await kit.staff(), ...loanOf(amountCents));

  async function principalOwed(who: PayingCustomer, loanId: string): Promise<number> {
    const detail = (await who.browser.get(`/api/v1/loans/${loanId}`)).json<{ schedule: { principalCents: number; status: string }[] }>();
    return detail.schedule.filter((line) => line.status !== 'paid').reduce((sum, line) => sum + line.principalCents, 0);
  }

  /**
   * A customer whose checking account owes the bank `owedCents`: a deposit cleared, was moved to
   * savings, and was then returned by the other bank (R01) after it had cleared. Savings holds it.
   */
  async function owingCustomer(owedCents: number, options: { creditCardOwingCents?: number; loanCents?: number } = {}) {
    // $500 in savings, which a customer needs to ask for a card (the seed's rule), and nothing in checking.
    const who = await kit.customer({ fundCents: 50_000n });
    const extras = {
      card: options.creditCardOwingCents ? await creditCardOwing(who, options.creditCardOwingCents) : undefined,
      loanId: options.loanCents ? await activeLoanOf(who, options.loanCents) : undefined,
      debit: await debitCard(who),
    };
    // The loan's money goes to savings too, so checking holds exactly the deposit.
    if (options.loanCents) await moveToSavings(who, options.loanCents);
    const deposited = await kit.pay(who, '/deposits', {
      accountId: who.checking.id,
      fundingSourceId: who.fundingSourceId,
      amountCents: owedCents,
      reason: 'Pay',
    });
    expect(deposited.statusCode, deposited.body).toBe(201);
    await kit.runJobs();
    await moveToSavings(who, owedCents);
    const paymentId = deposited.json<{ transfer: { id: string } }>().transfer.id;
    const returned = await recordRailOutcome(
      { db: database(), config },
      paymentId,
      { kind: 'returned', code: 'R01' },
      { actorType: 'staff', actorId: 'test', reason: 'Late return' },
    );
    expect(returned).toBe('returned_after_settlement');
    expect(await checkingOf(who)).toEqual({ balanceCents: -owedCents, availableCents: -owedCents });
    return { who, ...extras };
  }

  async function moveToSavings(who: PayingCustomer, amountCents: number) {
    const moved = await kit.pay(who, '/transfers', ownTransfer(who.checking.id, who.savings.id, amountCents, 'Savings'));
    expect(moved.statusCode, moved.body).toBe(201);
  }

  /** What a customer's money adds up to, across both accounts (each balance as the customer sees it). */
  async function totalOf(who: PayingCustomer): Promise<number> {
    const { checking, savings } = await kit.balances(who);
    return checking.balanceCents + savings.balanceCents;
  }

  const ownBody = (who: PayingCustomer, amountCents: number) => ownTransfer(who.checking.id, who.savings.id, amountCents, 'Race');
  const externalBody = (who: PayingCustomer, amountCents: number) => ({
    kind: 'external',
    fromAccountId: who.checking.id,
    toAccountNumber: '123456789',
    accountName: 'Frank Faraway',
    ...validExternal,
    amountCents,
    message: 'Race',
    addToFavorites: false,
  });
  const withdrawalBody = (who: PayingCustomer, amountCents: number) => ({
    fromAccountId: who.checking.id,
    amountCents,
    country: 'US',
    nameOfBank: 'First Example Bank',
    accountName: 'Frank Faraway',
    accountNumber: '12345678',
    stateName: 'Ohio',
    bankAddress: '1 Main St',
    routeNumber: '011000015',
  });

  const scenarios: Record<string, Scenario> = {
    'POST /api/v1/transfers': {
      async race() {
        // Own transfers: $1,000 in checking, thirty of $300 at once: three go.
        const own = await kit.customer({ fundCents: 100_000n, savingsCents: 0 });
        const owned = await atOnce(concurrentRequests, () => kit.pay(own, '/transfers', ownBody(own, 30_000)));
        expect(count(owned, 201), statuses(owned).join()).toBe(3);
        expect(count(owned, 422)).toBe(concurrentRequests - 3);
        expect(await kit.balances(own)).toMatchObject({ checking: { balanceCents: 10_000 }, savings: { balanceCents: 90_000 } });

        // To a payee paid before (no step-up): the same.
        const payer = await kit.customer({ fundCents: 100_000n, savingsCents: 0 });
        const payee = await kit.customer({ fundCents: 0n, savingsCents: 0 });
        const internal = (amountCents: number) => ({
          kind: 'internal',
          fromAccountId: payer.checking.id,
          toAccountNumber: payee.checking.number,
          accountName: 'Demo Customer',
          amountCents,
          message: 'Race',
          addToFavorites: false,
        });
        expect((await kit.payWithStepUp(payer, '/transfers', internal(10_000))).statusCode).toBe(201);
        const paid = await atOnce(concurrentRequests, () => kit.pay(payer, '/transfers', internal(30_000)));
        expect(count(paid, 201), statuses(paid).join()).toBe(3);
        expect((await checkingOf(payer)).balanceCents).toBe(0);
        expect((await checkingOf(payee)).balanceCents).toBe(100_000);

        // To another bank, each with its own step-up: $1,000, four of $300: three go.
        const sender = await kit.customer({ fundCents: 100_000n, savingsCents: 0 });
        const sent = await steppedUpAtOnce(sender, '/transfers', externalBody(sender, 30_000));
        expect(count(sent, 201), statuses(sent).join()).toBe(3);
        expect((await checkingOf(sender)).availableCents).toBe(10_000);

        // To a credit card of this bank that owes $400 (issue 30 item 2, by card push): $300 once, never more than owed.
        const holder = await kit.customer({ fundCents: 200_000n });
        const { card, revealed } = await creditCardOwing(holder, 40_000);
        const pusher = await kit.customer({ fundCents: 200_000n });
        const pushBody = {
          kind: 'card',
          fromAccountId: pusher.checking.id,
          cardNumber: revealed.number,
          accountName: 'Demo Customer',
          amountCents: 30_000,
          message: 'Race',
          addToFavorites: false,
        };
        const pushed = await steppedUpAtOnce(pusher, '/transfers', pushBody);
        expect(count(pushed, 201), statuses(pushed).join()).toBe(1);
        expect(count(pushed, 400)).toBe(steppedUpRequests - 1);
        expect(await owedOn(holder, card.id)).toBe(10_000);
        expect((await checkingOf(pusher)).balanceCents).toBe(200_000 - 50_000 - 30_000);
      },
      async whileOwing() {
        const { who, debit } = await owingCustomer(100_000);
        const stranger = await kit.customer({ fundCents: 0n, savingsCents: 0 });
        const before = await totalOf(who);
        const refusals = [
          await kit.pay(who, '/transfers', ownBody(who, 100)),
          await kit.pay(who, '/transfers', externalBody(who, 100)),
          await kit.pay(who, '/transfers', {
            kind: 'internal',
            fromAccountId: who.checking.id,
            toAccountNumber: stranger.checking.number,
            accountName: 'Demo Customer',
            amountCents: 100,
            message: 'Race',
            addToFavorites: false,
          }),
          await kit.pay(who, '/transfers', {
            kind: 'card',
            fromAccountId: who.checking.id,
            cardNumber: debit.number,
            accountName: 'Demo Customer',
            amountCents: 100,
            message: 'Race',
            addToFavorites: false,
          }),
        ];
        for (const refused of refusals) expect(refused.json().error.code, refused.body).toBe('account_overdrawn');
        expect(await totalOf(who)).toBe(before);
      },
    },
    'POST /api/v1/withdrawals': {
      async race() {
        const who = await kit.customer({ fundCents: 100_000n, savingsCents: 0 });
        const withdrawn = await steppedUpAtOnce(who, '/withdrawals', withdrawalBody(who, 30_000));
        expect(count(withdrawn, 201), statuses(withdrawn).join()).toBe(3);
        expect((await checkingOf(who)).availableCents).toBe(10_000);
      },
      async whileOwing() {
        const { who } = await owingCustomer(50_000);
        const refused = await kit.pay(who, '/withdrawals', withdrawalBody(who, 100));
        expect(refused.json().error.code, refused.body).toBe('account_overdrawn');
        expect((await checkingOf(who)).balanceCents).toBe(-50_000);
      },
    },
    'POST /api/v1/deposits': {
      async race() {
        // Thirty deposits of $300 against the $5,000 daily limit: sixteen go ($4,800).
        const who = await kit.customer({ fundCents: 0n, savingsCents: 0 });
        const deposited = await atOnce(concurrentRequests, () =>
          kit.pay(who, '/deposits', { accountId: who.checking.id, fundingSourceId: who.fundingSourceId, amountCents: 30_000, reason: 'Race' }),
        );
        expect(count(deposited, 201), statuses(deposited).join()).toBe(16);
        expect(count(deposited, 422)).toBe(concurrentRequests - 16);
        await kit.runJobs();
        expect((await checkingOf(who)).balanceCents).toBe(480_000);
      },
    },
    'POST /api/v1/transfers/payee-check': { movesNoMoney: 'it compares a name with an account number' },
    'POST /api/v1/cards': { movesNoMoney: 'it asks for a card, which staff approve' },
    'POST /api/v1/cards/{id}/freeze': { movesNoMoney: 'it changes the card’s status' },
    'POST /api/v1/cards/{id}/unfreeze': { movesNoMoney: 'it changes the card’s status' },
    'PUT /api/v1/cards/{id}/limits': { movesNoMoney: 'it changes the card’s limits' },
    'POST /api/v1/cards/{id}/reveal': { movesNoMoney: 'it shows the card’s number' },
    'DELETE /api/v1/cards/{id}': {
      async race() {
        // Closing a credit card that holds more than it owes returns the difference to checking
        // (a credit balance from before issue 30, made here directly in the ledger), and the line
        // to loans receivable; thirty closes at once do it once.
        const who = await kit.customer({ fundCents: 200_000n });
        const card = await kit.activeCard(who, { type: 'credit', creditLimitCents: 100_000 });
        const [row] = await database().query<{ ledger_account_id: string }>('SELECT ledger_account_id FROM cards WHERE id = $1', [card.id]);
        const [checking] = await database().query<{ ledger_account_id: string }>('SELECT ledger_account_id FROM customer_accounts WHERE id = $1', [
          who.checking.id,
        ]);
        const overpaid = await createTransfers(database(), [
          {
            id: randomUUID(),
            debitAccountId: checking?.ledger_account_id ?? '',
            creditAccountId: row?.ledger_account_id ?? '',
            amountCents: 72_000n,
            ledger: ledgers.usd,
            code: transferCodes.cardRepayment,
          },
        ]);
        expect(overpaid[0]?.result).toBe('ok');
        const before = await checkingOf(who);
        const closed = await atOnce(concurrentRequests, () => who.browser.request({ method: 'DELETE', url: `/api/v1/cards/${card.id}` }));
        expect(count(closed, 200), statuses(closed).join()).toBe(1);
        expect((await checkingOf(who)).balanceCents).toBe(before.balanceCents + 72_000);
        const [line] = await lookupAccounts(database(), [row?.ledger_account_id ?? '']);
        expect(line && line.creditsPostedCents - line.debitsPostedCents).toBe(0n);
      },
    },
    'POST /api/v1/cards/{id}/payments': {
      async race() {
        // Issue 30 item 2, as the probe did it: $400 owed, thirty payments at once. Of $300 each, one goes.
        const who = await kit.customer({ fundCents: 1_000_000n });
        const { card } = await creditCardOwing(who, 40_000);
        const pay = (amountCents: number) => () =>
          who.browser.request({
            method: 'POST',
            url: `/api/v1/cards/${card.id}/payments`,
            payload: { fromAccountId: who.checking.id, amountCents },
            headers: { 'idempotency-key': randomUUID() },
          });
        const before = await checkingOf(who);
        const large = await atOnce(concurrentRequests, pay(30_000));
        expect(count(large, 201), statuses(large).join()).toBe(1);
        expect(count(large, 400)).toBe(concurrentRequests - 1);
        // Of $25 each, the last $100 is paid exactly: four go.
        const small = await atOnce(concurrentRequests, pay(2_500));
        expect(count(small, 201), statuses(small).join()).toBe(4);
        expect(await owedOn(who, card.id)).toBe(0);
        expect((await checkingOf(who)).balanceCents).toBe(before.balanceCents - 40_000);
        // Nothing is left over to refund when it closes, and the card's account is empty.
        expect((await who.browser.request({ method: 'DELETE', url: `/api/v1/cards/${card.id}` })).statusCode).toBe(200);
        expect((await checkingOf(who)).balanceCents).toBe(before.balanceCents - 40_000);
      },
      async whileOwing() {
        const { who, card } = await owingCustomer(50_000, { creditCardOwingCents: 10_000 });
        const refused = await who.browser.request({
          method: 'POST',
          url: `/api/v1/cards/${card?.card.id}/payments`,
          payload: { fromAccountId: who.checking.id, amountCents: 100 },
          headers: { 'idempotency-key': randomUUID() },
        });
        expect(refused.statusCode, refused.body).toBe(409);
        expect(refused.json().error.code).toBe('account_overdrawn');
        expect(await owedOn(who, card?.card.id ?? '')).toBe(10_000);
      },
    },
    'POST /api/v1/loans': { movesNoMoney: 'it applies for a loan, which staff decide' },
    'POST /api/v1/loans/{id}/repayments': {
      async race() {
        // $1,200 owed on the loan, thirty early repayments of $500 at once: never more than is owed.
        const who = await kit.customer({ fundCents: 1_000_000n });
        const loanId = await activeLoanOf(who, 120_000);
        const repaid = await atOnce(concurrentRequests, () =>
          who.browser.request({
            method: 'POST',
            url: `/api/v1/loans/${loanId}/repayments`,
            payload: { fromAccountId: who.checking.id, amountCents: 50_000 },
            headers: { 'idempotency-key': randomUUID() },
          }),
        );
        const succeeded = count(repaid, 201);
        expect(succeeded, statuses(repaid).join()).toBeGreaterThanOrEqual(1);
        expect(succeeded).toBeLessThanOrEqual(2);
        expect(await principalOwed(who, loanId)).toBe(120_000 - succeeded * 50_000);
      },
      async whileOwing() {
        const { who, loanId } = await owingCustomer(50_000, { loanCents: 120_000 });
        const refused = await who.browser.request({
          method: 'POST',
          url: `/api/v1/loans/${loanId}/repayments`,
          payload: { fromAccountId: who.checking.id, amountCents: 100 },
          headers: { 'idempotency-key': randomUUID() },
        });
        expect(refused.statusCode, refused.body).toBe(409);
        expect(refused.json().error.code).toBe('account_overdrawn');
        expect(await principalOwed(who, loanId ?? '')).toBe(120_000);
      },
    },
    'POST /api/v1/loans/{id}/accept': {
      async race() {
        // An offer of $1,200, thirty accepts at once under different keys: one pays it in, once.
        const who = await kit.customer();
        const loanId = await offeredLoanOf(who, 120_000);
        const before = await checkingOf(who);
        const accepted = await atOnce(concurrentRequests, () =>
          who.browser.request({ method: 'POST', url: `/api/v1/loans/${loanId}/accept`, headers: { 'idempotency-key': randomUUID() } }),
        );
        expect(count(accepted, 200), statuses(accepted).join()).toBe(1);
        expect(accepted.filter((response) => response.statusCode !== 200).every((response) => response.statusCode === 409)).toBe(true);
        expect((await checkingOf(who)).balanceCents).toBe(before.balanceCents + 120_000);
      },
    },
    'POST /api/v1/loans/{id}/decline': { movesNoMoney: 'it turns an offer down; nothing was paid before acceptance' },
    'POST /api/v1/funding-sources': { movesNoMoney: 'the bank sends the micro-deposits from its own expense account' },
    'POST /api/v1/funding-sources/{id}/verify': { movesNoMoney: 'it checks two amounts' },
    'DELETE /api/v1/funding-sources/{id}': { movesNoMoney: 'it removes a link' },
    'POST /api/v1/dev/card-network/authorizations': {
      async race() {
        // A debit card on $1,000 (and the $500 in savings a card needs): thirty purchases of $300 at once, three approved.
        const who = await kit.customer({ fundCents: 150_000n });
        const revealed = await debitCard(who);
        const attempts = await atOnce(concurrentRequests, () =>
          kit.authorize({
            cardNumber: revealed.number,
            expiry: revealed.expiry,
            cvv: revealed.cvv,
            amountCents: 30_000,
            merchantName: 'Race Store',
            mcc: '5411',
          }),
        );
        const approved = attempts.filter((response) => response.json<{ authorization: { status: string } }>().authorization.status === 'approved');
        expect(approved.length).toBe(3);
        expect((await checkingOf(who)).availableCents).toBe(10_000);
      },
      async whileOwing() {
        // Issue 30 item 6, as the probe did it: $300 moved in, then a $300 purchase at once, three times.
        const { who, debit } = await owingCustomer(100_000);
        for (let round = 1; round <= 3; round += 1) {
          const moved = await kit.pay(who, '/transfers', ownTransfer(who.savings.id, who.checking.id, 30_000, 'In'));
          expect(moved.statusCode, moved.body).toBe(201);
          const bought = await kit.purchase(debit, 30_000);
          expect(bought).toMatchObject({ status: 'declined', declineReason: 'insufficient_funds' });
          // The money that came in paid the debt in its own transaction, not at the next sweep.
          expect(await checkingOf(who)).toEqual({ balanceCents: -100_000 + round * 30_000, availableCents: -100_000 + round * 30_000 });
        }
      },
    },
    'POST /api/v1/dev/card-network/authorizations/{id}/clear': { movesNoMoney: 'it posts a hold an authorization made (raced as authorizations)' },
    'POST /api/v1/dev/card-network/authorizations/{id}/reverse': { movesNoMoney: 'it voids a hold an authorization made' },
  };

  it('has a line for every unsafe customer operation that may move money, and no line without one', async () => {
    const { paths } = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json<{ paths: Record<string, Record<string, { tags?: string[] }>> }>();
    const operations = Object.entries(paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method, operation]) => ['post', 'put', 'patch', 'delete'].includes(method) && (operation.tags ?? []).some((tag) => moneyTags.has(tag)))
        .filter(([, operation]) => !(operation.tags ?? []).includes('staff'))
        .map(([method]) => `${method.toUpperCase()} /api/v1${path.replace(/^\/api\/v1/, '')}`),
    );
    expect(
      operations.filter((operation) => !(operation in scenarios)),
      operations.join('\n'),
    ).toEqual([]);
    expect(Object.keys(scenarios).filter((operation) => !operations.includes(operation))).toEqual([]);
  });

  for (const [operation, scenario] of Object.entries(scenarios)) {
    if ('movesNoMoney' in scenario) continue;
    it(`${operation}: requests at once move exactly what the limit allows`, scenario.race);
    if (scenario.whileOwing) it(`${operation}: refused, and nothing moves, while the account owes the bank after a returned deposit`, scenario.whileOwing);
  }
});
