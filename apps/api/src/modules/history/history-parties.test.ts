import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DashboardSummary } from '@strongroom/contracts/dashboard.ts';
import type { TransactionList } from '@strongroom/contracts/transactions.ts';
import type { Config } from '../../config.ts';
import { buildTestApp } from '../../test/app.ts';
import { cardKit } from '../../test/cards.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { acceptLoanOffer, validApplication } from '../../test/loans.ts';
import { paymentKit, type PayingCustomer } from '../../test/payments.ts';

describeEachDatabase('history says who', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = cardKit(() => ({ app, config, db: database() }));
  const payments = paymentKit(() => ({ app, config, db: database() }));

  beforeAll(async () => {
    ({ app, config } = await buildTestApp(database(), { environment: { CARD_AUTO_APPROVE_SECONDS: 'off', RAIL_SPEED: 'instant' } }));
  });
  afterAll(async () => {
    await kit.expectLedgerConsistent();
    await app.close();
  });

  const history = async (who: PayingCustomer) => (await who.browser.get('/api/v1/transactions')).json<TransactionList>().items;
  const dashboard = async (who: PayingCustomer) => (await who.browser.get('/api/v1/dashboard')).json<DashboardSummary>();

  it('names the payee and the sender of a transfer beside its reason, in history and on the dashboard', async () => {
    const ada = await payments.customer({ fundCents: 50_000n, firstName: 'Ada', lastName: 'Lovelace' });
    const grace = await payments.customer({ fundCents: 0n, firstName: 'Grace', lastName: 'Landlord' });
    const paid = await kit.payWithStepUp(ada, '/transfers', {
      kind: 'internal',
      fromAccountId: ada.checking.id,
      toAccountNumber: grace.checking.number,
      accountName: 'Grace Landlord',
      amountCents: 12_000,
      message: 'Rent for May',
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const adaLine = (await history(ada)).find((line) => line.transferId === paid.json().transfer.id);
    expect(adaLine).toMatchObject({ description: 'Rent for May', party: 'To Grace Landlord' });
    const graceLine = (await history(grace)).find((line) => line.transferId === paid.json().transfer.id);
    expect(graceLine).toMatchObject({ description: 'Rent for May', party: 'From Ada Lovelace' });
    expect((await dashboard(ada)).recentTransactions[0]).toMatchObject({ description: 'Rent for May', party: 'To Grace Landlord' });
  });

  it('calls paying a credit card a credit card payment, and counts it apart on the dashboard', async () => {
    const holder = await kit.customer();
    const card = await kit.activeCard(holder, { type: 'credit', creditLimitCents: 50_000 });
    const revealed = await kit.reveal(holder, card.id);
    await kit.network(`${(await kit.purchase(revealed, 3_000)).id}/clear`);
    const paid = await kit.payWithStepUp(holder, '/transfers', {
      kind: 'card',
      fromAccountId: holder.checking.id,
      amountCents: 3_000,
      message: 'May bill',
      cardNumber: revealed.number,
      accountName: 'Demo Customer',
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const line = (await history(holder)).find((item) => item.transferId === paid.json().transfer.id);
    expect(line).toMatchObject({ description: 'May bill', party: 'Credit card payment', category: 'Debit' });
    const outside = await kit.payWithStepUp(holder, '/transfers', {
      kind: 'card',
      fromAccountId: holder.checking.id,
      amountCents: 1_000,
      message: 'Gift',
      cardNumber: '4111111111111111',
      accountName: 'Robin Holder',
    });
    expect(outside.statusCode, outside.body).toBe(201);
    const outsideLine = (await history(holder)).find((item) => item.transferId === outside.json().transfer.id);
    expect(outsideLine).toMatchObject({ description: 'Gift', party: 'To Robin Holder' });
    await kit.runJobs();
    expect((await dashboard(holder)).spendingByCategory).toEqual(
      expect.arrayContaining([
        { category: 'Credit card payments', amountCents: 3_000 },
        { category: 'Card payments', amountCents: 1_000 },
      ]),
    );
  });

  it('counts loan repayments apart on the dashboard', async () => {
    const dana = await kit.customer({ fundCents: 50_000n, savingsCents: 0 });
    const applied = await dana.browser.request({
      method: 'POST',
      url: '/api/v1/loans',
      payload: validApplication,
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(applied.statusCode, applied.body).toBe(201);
    const loanId = applied.json().loan.id;
    const approved = await (
      await kit.staff()
    ).post(`/api/v1/staff/loans/${loanId}/decision`, {
      decision: 'approve',
      reason: 'Income and history support it',
      amountCents: 10_000,
      aprBps: 1_200,
      termMonths: 6,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    await acceptLoanOffer(dana.browser, loanId);
    const repaid = await dana.browser.request({
      method: 'POST',
      url: `/api/v1/loans/${loanId}/repayments`,
      payload: { fromAccountId: dana.checking.id, amountCents: 2_500 },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(repaid.statusCode, repaid.body).toBe(201);
    expect((await dashboard(dana)).spendingByCategory).toEqual([{ category: 'Loan repayments', amountCents: 2_500 }]);
  });
});
