import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentSuite, type PayingCustomer } from '../../test/payments.ts';

interface Line {
  id: string;
  transferId: string;
  accountId: string;
  amountCents: number;
  description: string;
  category: string;
  createdAt: string;
}

interface Page {
  items: Line[];
  nextCursor: string | null;
}

const withdrawalTo = {
  country: 'United States',
  nameOfBank: 'First Example Bank',
  accountName: 'Dana Demo',
  accountNumber: '123123123',
  stateName: 'Ohio',
  bankAddress: '1 Main Street',
  routeNumber: '011000015',
};

describeEachDatabase('history filters and pagination', (database) => {
  // A bank in New York: day boundaries (and a daylight-saving change) differ from UTC's.
  const kit = paymentSuite(database, () => undefined, { environment: { RAIL_SPEED: 'instant', BANK_TIMEZONE: 'America/New_York' } });

  async function list(who: PayingCustomer, query: string): Promise<Page> {
    const response = await who.browser.get(`/api/v1/transactions?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Page>();
  }

  async function own(who: PayingCustomer, amountCents: number, message: string): Promise<string> {
    const response = await kit.pay(who, '/transfers', { kind: 'own', fromAccountId: who.checking.id, toAccountId: who.savings.id, amountCents, message });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ transfer: { id: string } }>().transfer.id;
  }

  /** Moves a payment to a chosen instant, as if it had been made then. */
  async function madeAt(paymentId: string, instant: string): Promise<void> {
    await database().query('UPDATE payments SET created_at = $2 WHERE id = $1', [paymentId, instant]);
  }

  /** Every line the query finds, following nextCursor one page of `limit` at a time. */
  async function everyPage(who: PayingCustomer, query: string, limit: number, betweenPages?: (page: number) => Promise<void>): Promise<Line[]> {
    const lines: Line[] = [];
    let cursor: string | null = null;
    for (let page = 1; page <= 100; page += 1) {
      const found: Page = await list(who, `${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      lines.push(...found.items);
      cursor = found.nextCursor;
      if (!cursor) return lines;
      await betweenPages?.(page);
    }
    throw new Error('more than 100 pages');
  }

  describe('dates', () => {
    it('keeps lines whose date in the bank time zone is within from and to, both days included, across a daylight-saving change', async () => {
      const dana = await kit.customer({ fundCents: 50_000n });
      const lateOnThe9th = await own(dana, 101, 'late on the 9th');
      const startOfThe10th = await own(dana, 102, 'start of the 10th');
      const endOfThe10th = await own(dana, 103, 'end of the 10th');
      const startOfThe11th = await own(dana, 104, 'start of the 11th');
      // New York moved from UTC-5 to UTC-4 at 02:00 on 2024-03-10.
      await madeAt(lateOnThe9th, '2024-03-10T04:59:59.999999Z');
      await madeAt(startOfThe10th, '2024-03-10T05:00:00Z');
      await madeAt(endOfThe10th, '2024-03-11T03:59:59.999999Z');
      await madeAt(startOfThe11th, '2024-03-11T04:00:00Z');
      const transfersOf = (page: Page) => page.items.map((line) => line.transferId);

      expect(transfersOf(await list(dana, `accountId=${dana.checking.id}&from=2024-03-10&to=2024-03-10`))).toEqual([endOfThe10th, startOfThe10th]);
      expect(transfersOf(await list(dana, `accountId=${dana.checking.id}&to=2024-03-10`))).toEqual([endOfThe10th, startOfThe10th, lateOnThe9th]);
      const fromThe10th = transfersOf(await list(dana, `accountId=${dana.checking.id}&from=2024-03-10`));
      expect(fromThe10th.slice(-3)).toEqual([startOfThe11th, endOfThe10th, startOfThe10th]);
      expect(fromThe10th).not.toContain(lateOnThe9th);
    });

    it('answers a start date after the end date with 400 validation_failed', async () => {
      const dana = await kit.customer();
      const response = await dana.browser.get('/api/v1/transactions?from=2024-03-11&to=2024-03-10');
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'validation_failed', fields: { to: expect.any(String) } });
    });

    it('refuses a date the calendar does not have and a date in another form', async () => {
      const dana = await kit.customer();
      for (const query of ['from=2024-02-30', 'to=2023-13-01', 'from=10/03/2024']) {
        const response = await dana.browser.get(`/api/v1/transactions?${query}`);
        expect(response.statusCode, query).toBe(400);
        expect(response.json().error.code, query).toBe('validation_failed');
      }
    });
  });

  describe('categories', () => {
    it('keeps only the lines of the chosen category, each of the seed categories in turn', async () => {
      const dana = await kit.customer({ fundCents: 100_000n });
      await own(dana, 1_000, 'to savings');
      await kit.pay(dana, '/deposits', { accountId: dana.checking.id, fundingSourceId: dana.fundingSourceId, amountCents: 2_000, reason: 'cheque' });
      await kit.payCard(dana, { cardNumber: '4111111111111111', accountName: 'Gina', amountCents: 1_500, message: 'card' });
      await kit.payWithStepUp(dana, '/withdrawals', { fromAccountId: dana.checking.id, amountCents: 2_500, ...withdrawalTo });
      const amountsOf = async (category: string) => (await list(dana, `category=${category}`)).items.map((line) => [line.category, line.amountCents]);

      expect(await amountsOf('Transfer')).toEqual([['Transfer', -1_000]]);
      expect(await amountsOf('Credit')).toEqual([['Credit', 1_000]]);
      expect(await amountsOf('Deposit')).toEqual([['Deposit', 2_000]]);
      expect(await amountsOf('Debit')).toEqual([['Debit', -1_500]]);
      expect(await amountsOf('Withdrawal')).toEqual([['Withdrawal', -2_500]]);
      // The seed's lower-case name still filters, for links saved before it was capitalised.
      expect(await amountsOf('withdraw')).toEqual([['Withdrawal', -2_500]]);
      expect(await amountsOf('Funding')).toEqual([['Funding', 100_000]]);
      expect((await dana.browser.get('/api/v1/transactions?category=Gifts')).statusCode).toBe(400);
    });
  });

  describe('text search', () => {
    it('finds a text anywhere in the description whatever its case, taking % and _ as themselves', async () => {
      const dana = await kit.customer({ fundCents: 50_000n });
      await own(dana, 100, 'Rent 100% paid');
      await own(dana, 101, 'rent 1000 paid');
      await own(dana, 102, 'snake_case');
      await own(dana, 103, 'snakeXcase');
      await own(dana, 104, 'back\\slash');
      const found = async (q: string) => (await list(dana, `accountId=${dana.checking.id}&q=${encodeURIComponent(q)}`)).items.map((line) => line.description);

      expect(await found('RENT')).toEqual(['rent 1000 paid', 'Rent 100% paid']);
      expect(await found('100%')).toEqual(['Rent 100% paid']);
      expect(await found('E_C')).toEqual(['snake_case']);
      expect(await found('k\\s')).toEqual(['back\\slash']);
      expect(await found('opening dep')).toEqual(['Opening deposit']);
      expect(await found('  rent 1000  ')).toEqual(['rent 1000 paid']);
    });

    it('answers an empty page, not an error, when nothing matches', async () => {
      const dana = await kit.customer({ fundCents: 50_000n });
      await own(dana, 100, 'groceries');
      expect(await list(dana, 'q=holiday')).toEqual({ items: [], nextCursor: null });
      expect(await list(dana, 'from=2001-01-01&to=2001-12-31')).toEqual({ items: [], nextCursor: null });
      expect(await list(dana, `accountId=${dana.savings.id}&category=Debit`)).toEqual({ items: [], nextCursor: null });
    });
  });

  describe('pagination', () => {
    it('pages one line at a time through lines that share a timestamp, in the same order as one long page', async () => {
      const dana = await kit.customer({ fundCents: 50_000n });
      const same = [await own(dana, 201, 'same a'), await own(dana, 202, 'same b'), await own(dana, 203, 'same c')];
      for (const id of same) await madeAt(id, '2024-06-01T12:00:00Z');
      await own(dana, 204, 'later');
      const whole = (await list(dana, 'limit=100')).items.map((line) => line.id);
      expect(whole).toHaveLength(9);
      expect((await everyPage(dana, '', 1)).map((line) => line.id)).toEqual(whole);
    });

    it('pages through filtered lines without repeating or skipping one while new matching payments arrive', async () => {
      const dana = await kit.customer({ fundCents: 50_000n });
      for (let index = 0; index < 9; index += 1) await own(dana, 300 + index, `move ${index}`);
      await own(dana, 400, 'unrelated');
      const before = (await list(dana, 'category=Transfer&q=move&limit=100')).items.map((line) => line.id);
      expect(before).toHaveLength(9);
      const paged = await everyPage(dana, 'category=Transfer&q=move', 2, async () => {
        await own(dana, 500, 'move arriving meanwhile');
      });
      expect(paged.map((line) => line.id)).toEqual(before);
      // The new ones are there on top when the customer starts again.
      expect((await list(dana, 'category=Transfer&q=move&limit=100')).items).toHaveLength(9 + 4);
    });
  });
});
