import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { ManagedAccount } from '@strongroom/contracts/account-management.ts';
import { ledgerBalanceCents, openFromChecking, openRequest, productIds } from '../../test/accounts.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentSuite } from '../../test/payments.ts';

describeEachDatabase('opening another account and changing a checking tier', (database) => {
  const kit = paymentSuite(database, () => undefined);

  async function paymentsInto(accountId: string) {
    return database().query<{ kind: string; status: string; amount_cents: bigint; from_account_id: string | null }>(
      'SELECT kind, status, amount_cents, from_account_id FROM payments WHERE to_account_id = $1 ORDER BY created_at',
      [accountId],
    );
  }

  async function accountCount(customerId: string): Promise<number> {
    const [row] = await database().query<{ count: number }>('SELECT count(*)::int AS count FROM customer_accounts WHERE customer_id = $1', [customerId]);
    return row?.count ?? 0;
  }

  it('opens a Standard Savings funded from checking: the deposit moves once, in the ledger, and a rerun of the key answers the same account', async () => {
    const dana = await kit.customer({ fundCents: 100_000n });
    const key = randomUUID();
    const body = { productId: productIds.standardSavings, fromAccountId: dana.checking.id, openingDepositCents: 60_000, acceptDisclosure: true };
    const first = await openRequest(dana, body, key);
    expect(first.statusCode, first.body).toBe(201);
    const account = first.json<{ account: ManagedAccount }>().account;
    expect(account).toMatchObject({ type: 'savings', name: 'Standard Savings', productId: productIds.standardSavings, status: 'open', balanceCents: 60_000 });
    expect(account.number).toMatch(/^\d{10}$/);

    const again = await openRequest(dana, body, key);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json<{ account: ManagedAccount }>().account.id).toBe(account.id);
    expect(await ledgerBalanceCents(database(), account.id)).toBe(60_000n);
    expect(await ledgerBalanceCents(database(), dana.checking.id)).toBe(40_000n);
    expect(await paymentsInto(account.id)).toEqual([{ kind: 'own', status: 'completed', amount_cents: 60_000n, from_account_id: dana.checking.id }]);
    expect(await accountCount(dana.id)).toBe(3);
  });

  it("refuses an opening deposit below the product's, and opens nothing", async () => {
    const dana = await kit.customer({ fundCents: 1_000_000n });
    const response = await openRequest(dana, {
      productId: productIds.packageSavings,
      fromAccountId: dana.checking.id,
      openingDepositCents: 499_999,
      acceptDisclosure: true,
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().error).toMatchObject({ code: 'opening_deposit_too_low', message: expect.stringContaining('$5,000.00') });
    expect(await accountCount(dana.id)).toBe(2);
    expect(await ledgerBalanceCents(database(), dana.checking.id)).toBe(1_000_000n);
  });

  it('refuses to open without the disclosure accepted, with a field message', async () => {
    const dana = await kit.customer();
    for (const acceptDisclosure of [undefined, false]) {
      const response = await openRequest(dana, {
        productId: productIds.easyChecking,
        fromAccountId: dana.checking.id,
        openingDepositCents: 100,
        acceptDisclosure,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.fields.acceptDisclosure).toBe('accept the disclosure to open the account');
    }
    expect(await accountCount(dana.id)).toBe(2);
  });

  it("answers an opening deposit from another customer's account, or a missing one, as not found", async () => {
    const dana = await kit.customer();
    const erin = await kit.customer();
    for (const fromAccountId of [erin.checking.id, randomUUID()]) {
      const response = await openRequest(dana, { productId: productIds.standardSavings, fromAccountId, openingDepositCents: 50_000, acceptDisclosure: true });
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
    expect(await ledgerBalanceCents(database(), erin.checking.id)).toBe(100_000n);
    expect(await accountCount(dana.id)).toBe(2);
  });

  it('refuses an opening deposit larger than the source account holds, as a transfer would', async () => {
    const dana = await kit.customer({ fundCents: 40_000n });
    const response = await openRequest(dana, {
      productId: productIds.standardSavings,
      fromAccountId: dana.checking.id,
      openingDepositCents: 50_000,
      acceptDisclosure: true,
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().error.code).toBe('insufficient_funds');
    expect(await accountCount(dana.id)).toBe(2);
  });

  it('opens at once with its opening deposit pending at the rail from a verified bank, once for a rerun of the key', async () => {
    const dana = await kit.customer();
    const key = randomUUID();
    const body = { productId: productIds.standardSavings, fundingSourceId: dana.fundingSourceId, openingDepositCents: 50_000, acceptDisclosure: true };
    const first = await openRequest(dana, body, key);
    expect(first.statusCode, first.body).toBe(201);
    const account = first.json<{ account: ManagedAccount }>().account;
    expect(account).toMatchObject({ status: 'open', balanceCents: 0, name: 'Standard Savings' });
    const again = await openRequest(dana, body, key);
    expect(again.json<{ account: ManagedAccount }>().account.id).toBe(account.id);
    expect(await paymentsInto(account.id)).toEqual([{ kind: 'deposit', status: 'pending', amount_cents: 50_000n, from_account_id: null }]);
    expect(await ledgerBalanceCents(database(), account.id)).toBe(0n);
  });

  it("refuses an opening deposit from a linked bank that is not verified, or is another customer's, as a deposit does", async () => {
    const dana = await kit.customer();
    const erin = await kit.customer();
    await database().query(`UPDATE funding_sources SET status = 'pending_verification' WHERE id = $1`, [dana.fundingSourceId]);
    for (const fundingSourceId of [dana.fundingSourceId, erin.fundingSourceId]) {
      const response = await openRequest(dana, { productId: productIds.standardSavings, fundingSourceId, openingDepositCents: 50_000, acceptDisclosure: true });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json().error.code).toBe('no_funding_source');
    }
    expect(await accountCount(dana.id)).toBe(2);
  });

  it('changes a checking account to another checking tier, which renames it; refuses savings products and savings accounts', async () => {
    const dana = await kit.customer();
    const changed = await dana.browser.put(`/api/v1/accounts/${dana.checking.id}/product`, { productId: productIds.goldChecking });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().account).toMatchObject({ id: dana.checking.id, name: 'Gold Checking', productId: productIds.goldChecking, status: 'open' });
    const [row] = await database().query<{ product_id: string; name: string }>('SELECT product_id, name FROM customer_accounts WHERE id = $1', [
      dana.checking.id,
    ]);
    expect(row).toEqual({ product_id: productIds.goldChecking, name: 'Gold Checking' });

    const toSavings = await dana.browser.put(`/api/v1/accounts/${dana.checking.id}/product`, { productId: productIds.standardSavings });
    expect(toSavings.statusCode).toBe(422);
    expect(toSavings.json().error.code).toBe('product_not_allowed');
    const savings = await dana.browser.put(`/api/v1/accounts/${dana.savings.id}/product`, { productId: productIds.platinumSelectSavings });
    expect(savings.statusCode).toBe(422);
    expect(savings.json().error).toMatchObject({ code: 'product_not_allowed', message: expect.stringContaining('Only a checking account') });
  });

  it("answers a tier change of another customer's account as not found, and changes nothing", async () => {
    const dana = await kit.customer();
    const erin = await kit.customer();
    const response = await dana.browser.put(`/api/v1/accounts/${erin.checking.id}/product`, { productId: productIds.platinumChecking });
    expect(response.statusCode).toBe(404);
    const [row] = await database().query<{ product_id: string }>('SELECT product_id FROM customer_accounts WHERE id = $1', [erin.checking.id]);
    expect(row?.product_id).toBe(productIds.easyChecking);
  });

  it("opens a checking with no opening deposit, and the new account appears in the customer's list", async () => {
    const dana = await kit.customer();
    const account = await openFromChecking(dana, productIds.platinumChecking, 0);
    expect(account).toMatchObject({ type: 'checking', name: 'Platinum Checking', balanceCents: 0 });
    const listed = (await dana.browser.get('/api/v1/accounts')).body;
    expect(listed).toContain(account.id);
  });
});
