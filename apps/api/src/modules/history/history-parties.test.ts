import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { DashboardSummary } from '@strongroom/contracts/dashboard.ts';
import type { TransactionList } from '@strongroom/contracts/transactions.ts';
import { cardSuite } from '../../test/cards.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { activeLoan } from '../../test/loans.ts';
import type { PayingCustomer } from '../../test/payments.ts';

describeEachDatabase('history says who', (database) => {
  const kit = cardSuite(database, () => undefined, { environment: { CARD_AUTO_APPROVE_SECONDS: 'off', RAIL_SPEED: 'instant' } });

  const history = async (who: PayingCustomer) => (await who.browser.get('/api/v1/transactions')).json<TransactionList>().items;
  const dashboard = async (who: PayingCustomer) => (await who.browser.get('/api/v1/dashboard')).json<DashboardSummary>();

  it('names the payee and the sender of a transfer beside its reason, in history and on the dashboard', async () => {
    const ada = await kit.customer({ fundCents: 50_000n, savingsCents: 0, firstName: 'Ada', lastName: 'Lovelace' });
    const grace = await kit.customer({ fundCents: 0n, savingsCents: 0, firstName: 'Grace', lastName: 'Landlord' });
    const paid = await kit.payCustomer(ada, grace, { accountName: 'Grace Landlord', amountCents: 12_000, message: 'Rent for May' });
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
    const paid = await kit.payCard(holder, { amountCents: 3_000, message: 'May bill', cardNumber: revealed.number, accountName: 'Demo Customer' });
    expect(paid.statusCode, paid.body).toBe(201);
    const line = (await history(holder)).find((item) => item.transferId === paid.json().transfer.id);
    expect(line).toMatchObject({ description: 'May bill', party: 'Credit card payment', category: 'Debit' });
    const outside = await kit.payCard(holder, { amountCents: 1_000, message: 'Gift', cardNumber: '4111111111111111', accountName: 'Robin Holder' });
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
    const loanId = await activeLoan(dana.browser, await kit.staff(), {
      reason: 'Income and history support it',
      amountCents: 10_000,
      aprBps: 1_200,
      termMonths: 6,
    });
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
