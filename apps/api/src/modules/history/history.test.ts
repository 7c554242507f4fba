import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/databases.ts';
import { TestBrowser } from '../../test/client.ts';
import { ownTransfer, paymentSuite } from '../../test/payments.ts';

interface Line {
  id: string;
  transferId: string;
  accountId: string;
  status: string;
  amountCents: number;
  description: string;
  category: string;
}

describeEachDatabase('history and dashboard', (database) => {
  let app: FastifyInstance;
  const kit = paymentSuite(database, (built) => ({ app } = built), { environment: { RAIL_SPEED: 'instant' } });

  describe('GET /transactions', () => {
    it('lists each side of each payment newest first, signed, with the seed categories and the transfer id the request answered', async () => {
      const dana = await kit.customer({ fundCents: 50_000n });
      const own = (await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 5_000, 'Savings'))).json().transfer;
      const deposit = (
        await kit.pay(dana, '/deposits', { accountId: dana.checking.id, fundingSourceId: dana.fundingSourceId, amountCents: 2_000, reason: 'Cheque from Gran' })
      ).json().transfer;
      const response = await dana.browser.get('/api/v1/transactions');
      expect(response.statusCode).toBe(200);
      const items: Line[] = response.json().items;
      expect(items.map((item) => [item.transferId, item.amountCents, item.category, item.status, item.description])).toEqual([
        [deposit.id, 2_000, 'Deposit', 'pending', 'Cheque from Gran'],
        [own.id, -5_000, 'Transfer', 'completed', 'Savings'],
        [own.id, 5_000, 'Credit', 'completed', 'Savings'],
        [expect.any(String), 50_000, 'Funding', 'completed', 'Opening deposit'],
      ]);
      const onlySavings: Line[] = (await dana.browser.get(`/api/v1/transactions?accountId=${dana.savings.id}`)).json().items;
      expect(onlySavings.map((item) => item.amountCents)).toEqual([5_000]);
    });

    it('pages with a cursor without repeating or skipping a line, even while new payments arrive', async () => {
      const dana = await kit.customer({ fundCents: 50_000n });
      for (let index = 0; index < 7; index += 1) {
        await kit.pay(dana, '/transfers', {
          kind: 'own',
          fromAccountId: dana.checking.id,
          toAccountId: dana.savings.id,
          amountCents: 100 + index,
          message: `move ${index}`,
        });
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = cursor ? `&cursor=${cursor}` : '';
        const page: { items: Line[]; nextCursor: string | null } = (await dana.browser.get(`/api/v1/transactions?limit=4${query}`)).json();
        seen.push(...page.items.map((item) => item.id));
        cursor = page.nextCursor;
        pages += 1;
        if (pages === 1) await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 999, 'arrives meanwhile'));
      } while (cursor && pages < 10);
      expect(seen).toHaveLength(15);
      expect(new Set(seen).size).toBe(15);
    });

    it('answers another customer account like a missing one, and a mangled cursor with 400', async () => {
      const dana = await kit.customer();
      const mallory = await kit.customer();
      expect((await mallory.browser.get(`/api/v1/transactions?accountId=${dana.checking.id}`)).statusCode).toBe(404);
      expect((await mallory.browser.get(`/api/v1/transactions?accountId=${randomUUID()}`)).statusCode).toBe(404);
      expect((await dana.browser.get('/api/v1/transactions?cursor=not-a-cursor')).statusCode).toBe(400);
      expect((await new TestBrowser(app).get('/api/v1/transactions')).statusCode).toBe(401);
      // A malformed account id is refused before it can join the first pages read together (decision
      // 082), and the pages asked for at the same moment are answered as if it had not been sent.
      const [mangled, theirs, own] = await Promise.all([
        mallory.browser.get("/api/v1/transactions?accountId=not-a-uuid'--"),
        mallory.browser.get(`/api/v1/transactions?accountId=${dana.savings.id}`),
        dana.browser.get(`/api/v1/transactions?accountId=${dana.checking.id}`),
      ]);
      expect([mangled.statusCode, mangled.json().error.code]).toEqual([400, 'validation_failed']);
      expect([theirs.statusCode, theirs.json().error.code]).toEqual([404, 'not_found']);
      expect(own.statusCode).toBe(200);
    });

    it('shows the recipient an internal transfer only once it is completed, without the sender account', async () => {
      const dana = await kit.customer({ fundCents: 2_000_000n, firstName: 'Dana', lastName: 'Demo' });
      const erin = await kit.customer({ fundCents: 0n, firstName: 'Erin', lastName: 'Example' });
      const held = await kit.payCustomer(dana, erin, { accountName: 'Erin Example', amountCents: 1_000_000, message: 'Car' });
      expect(held.json().transfer.status).toBe('in_review');
      expect((await erin.browser.get('/api/v1/transactions')).json().items).toEqual([]);
      const danaLines: Line[] = (await dana.browser.get('/api/v1/transactions')).json().items;
      expect(danaLines[0]).toMatchObject({ status: 'in_review', amountCents: -1_000_000, description: 'Car' });
    });
  });

  describe('GET /dashboard', () => {
    it('sums this month money in and out and spending by category from the ledger, leaving out own transfers and pending money', async () => {
      const dana = await kit.customer({ fundCents: 100_000n });
      const erin = await kit.customer({ fundCents: 0n, firstName: 'Erin', lastName: 'Example' });
      await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 10_000, 'own'));
      await kit.payCustomer(dana, erin, { accountName: 'Erin Example', amountCents: 3_000, message: 'gift' });
      await kit.payCard(dana, { cardNumber: '4111111111111111', accountName: 'Gina', amountCents: 1_500, message: 'card' });
      await kit.payOtherBank(dana, { toAccountNumber: '123456789', accountName: 'Frank', amountCents: 2_500, message: 'ext' });
      await kit.pay(dana, '/deposits', { accountId: dana.checking.id, fundingSourceId: dana.fundingSourceId, amountCents: 4_000, reason: 'pay' });

      const before = (await dana.browser.get('/api/v1/dashboard')).json();
      expect(before).toMatchObject({ moneyInCents: 100_000, moneyOutCents: 3_000, cardCount: 0, loanCount: 0 });
      expect(before.month).toMatch(/^\d{4}-\d{2}$/);
      expect(before.recentTransactions).toHaveLength(5);

      await kit.runJobs();
      const after = (await dana.browser.get('/api/v1/dashboard')).json();
      expect(after.moneyInCents).toBe(104_000);
      expect(after.moneyOutCents).toBe(7_000);
      expect(after.spendingByCategory).toEqual([
        { category: 'Transfers', amountCents: 5_500 },
        { category: 'Card payments', amountCents: 1_500 },
      ]);
      const erinSummary = (await erin.browser.get('/api/v1/dashboard')).json();
      expect(erinSummary).toMatchObject({ moneyInCents: 3_000, moneyOutCents: 0, spendingByCategory: [] });
    });

    it('answers an empty month honestly for a customer with no money yet', async () => {
      const dana = await kit.customer({ fundCents: 0n });
      expect((await dana.browser.get('/api/v1/dashboard')).json()).toMatchObject({
        moneyInCents: 0,
        moneyOutCents: 0,
        spendingByCategory: [],
        recentTransactions: [],
      });
    });
  });
});
