import { beforeAll, expect, it } from 'vitest';
import type { Transaction, TransactionList } from '@strongroom/contracts/transactions.ts';
import { testAppSuite } from '../../test/suite.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentKit, type PayingCustomer } from '../../test/payments.ts';

/** More lines than the search reads newest first without the index: older lines are found through migration 0037's text. */
const newerLines = 250;

describeEachDatabase('history search finds a line by the other party (issue 39)', (database) => {
  const kit = paymentKit(testAppSuite(database, () => undefined, { environment: { RAIL_SPEED: 'instant' } }));
  let ada: PayingCustomer;
  let grace: PayingCustomer;
  let omar: PayingCustomer;
  let rentId = '';
  let depositId = '';

  /** Lines newer than every payment of the test, on the customer's checking account. */
  async function newerLinesFor(who: PayingCustomer) {
    await database().query(
      `INSERT INTO payments (id, customer_id, kind, status, from_account_id, amount_cents, counterparty_name, message, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'external', 'completed', $2, 100, 'Bean Bar', 'Coffee', now() + i * interval '1 second', now()
       FROM generate_series(1, $3::integer) AS i`,
      [who.id, who.checking.id, newerLines],
    );
  }

  async function search(who: PayingCustomer, q: string): Promise<Transaction[]> {
    const items: Transaction[] = [];
    let cursor: string | null = null;
    do {
      const query: string = new URLSearchParams({ q, limit: '100', ...(cursor ? { cursor } : {}) }).toString();
      const response = await who.browser.get(`/api/v1/transactions?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json<TransactionList>();
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return items;
  }

  beforeAll(async () => {
    ada = await kit.customer({ fundCents: 50_000n, firstName: 'Ada', lastName: 'Lovelace' });
    grace = await kit.customer({ fundCents: 0n, firstName: 'Grace', lastName: 'Landlord' });
    omar = await kit.customer({ fundCents: 50_000n, firstName: 'Omar', lastName: 'Quayle' });
    const rent = await kit.payCustomer(ada, grace, { accountName: 'Grace Landlord', amountCents: 12_000, message: 'Rent for May' });
    expect(rent.statusCode, rent.body).toBe(201);
    rentId = rent.json().transfer.id;
    const deposit = await kit.payCustomer(omar, grace, { accountName: 'Grace Landlord', amountCents: 9_000, message: 'Deposit for June' });
    expect(deposit.statusCode, deposit.body).toBe(201);
    depositId = deposit.json().transfer.id;
    for (const who of [ada, grace, omar]) await newerLinesFor(who);
  });

  it("finds a transfer by the payee's name, though its line's description is the reason given", async () => {
    for (const q of ['Grace Landlord', 'GRACE', 'to grace']) {
      const found = await search(ada, q);
      expect(
        found.map((line) => [line.transferId, line.description, line.party]),
        q,
      ).toEqual([[rentId, 'Rent for May', 'To Grace Landlord']]);
    }
  });

  it("finds an incoming transfer by the sender's name", async () => {
    expect((await search(grace, 'Lovelace')).map((line) => [line.transferId, line.party])).toEqual([[rentId, 'From Ada Lovelace']]);
    expect((await search(grace, 'omar quayle')).map((line) => [line.transferId, line.party])).toEqual([[depositId, 'From Omar Quayle']]);
    // Both came from someone: "from" is in both parties, newest first.
    expect((await search(grace, 'from')).map((line) => line.transferId)).toEqual([depositId, rentId]);
  });

  it("never finds another customer's lines by a party's name", async () => {
    // Omar paid Grace too: Ada's search for Grace finds Ada's own payment only (above), and Omar's
    // search for Grace his own only.
    expect((await search(omar, 'Grace')).map((line) => line.transferId)).toEqual([depositId]);
    expect(await search(omar, 'Lovelace')).toEqual([]);
    expect(await search(ada, 'Quayle')).toEqual([]);
  });

  it('still finds a line by its description, and nothing for a text on no line', async () => {
    expect((await search(ada, 'rent for may')).map((line) => line.transferId)).toEqual([rentId]);
    expect(await search(ada, 'no line says this')).toEqual([]);
    expect(await search(ada, 'Bean Bar')).toHaveLength(newerLines);
  });
});
