import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/databases.ts';
import { insertBareCustomer } from '../../test/customers.ts';
import { isValidAccountNumber, luhnCheckDigit, newAccountNumber } from './account-number.ts';
import { accountsWithBalances, openCustomerAccounts } from './service.ts';

describeEachDatabase('opening customer accounts', (database) => {
  it('opens one checking and one savings account even when asked twice at the same moment', async () => {
    const customerId = await insertBareCustomer(database());
    const [first, second] = await Promise.all([openCustomerAccounts(database(), customerId), openCustomerAccounts(database(), customerId)]);
    expect(first.map((account) => account.id).sort()).toEqual(second.map((account) => account.id).sort());
    const accounts = await accountsWithBalances(database(), customerId, true);
    expect(accounts.map((account) => account.type).sort()).toEqual(['checking', 'savings']);
    for (const account of accounts) expect(account).toMatchObject({ balanceCents: 0n, availableCents: 0n, status: 'open', active: true });
  });

  it('opens the account the customer chose on a public page as that product, and the other as the first of its kind (issue 39 item 11)', async () => {
    const names = async (chosen: string | null) => {
      const customerId = await insertBareCustomer(database());
      await database().query('UPDATE customers SET chosen_product = $2 WHERE id = $1', [customerId, chosen]);
      await openCustomerAccounts(database(), customerId);
      const accounts = await accountsWithBalances(database(), customerId, true);
      return Object.fromEntries(accounts.map((account) => [account.type, account.name]));
    };
    expect(await names('gold-checking')).toEqual({ checking: 'Gold Checking', savings: 'Standard Savings' });
    expect(await names('package-money-market-savings')).toEqual({ checking: 'Easy Checking', savings: 'Package Money Market Savings' });
    expect(await names(null)).toEqual({ checking: 'Easy Checking', savings: 'Standard Savings' });
  });

  it('shows the accounts open but not active until the identity is approved', async () => {
    const customerId = await insertBareCustomer(database());
    await openCustomerAccounts(database(), customerId);
    for (const account of await accountsWithBalances(database(), customerId, false)) expect(account).toMatchObject({ status: 'open', active: false });
  });

  it("reads the customer's latest identity review with the accounts when the caller does not say (GET /accounts, decision 082)", async () => {
    const customerId = await insertBareCustomer(database());
    const [other] = await Promise.all([insertBareCustomer(database()), openCustomerAccounts(database(), customerId)]);
    const activeOf = async (who: string) => (await accountsWithBalances(database(), who)).map((account) => account.active);
    const review = (status: 'submitted' | 'approved' | 'rejected') =>
      database().query(
        `INSERT INTO identity_reviews (customer_id, id_number_encrypted, id_number_last4, country, state, address, status, reason, decided_at, decided_by, submitted_at)
         VALUES ($1, '\\x00', '1234', 'US', 'CA', '1 Main St', $2, CASE WHEN $2 = 'rejected' THEN 'unreadable' END, CASE WHEN $2 <> 'submitted' THEN now() END,
                 CASE WHEN $2 <> 'submitted' THEN 'test' END, clock_timestamp())`,
        [customerId, status],
      );
    expect(await activeOf(customerId)).toEqual([false, false]);
    await review('rejected');
    expect(await activeOf(customerId)).toEqual([false, false]);
    await review('approved');
    expect(await activeOf(customerId)).toEqual([true, true]);
    // A customer with no account is read as none, in the same statement as the others.
    const [mine, none] = await Promise.all([accountsWithBalances(database(), customerId), accountsWithBalances(database(), other)]);
    expect([mine.length, none.length]).toEqual([2, 0]);
  });
});

it('makes ten-digit account numbers whose last digit is a Luhn check that catches one wrong digit', () => {
  for (let index = 0; index < 200; index++) expect(isValidAccountNumber(newAccountNumber())).toBe(true);
  expect(luhnCheckDigit('7992739871')).toBe(3);
  const number = newAccountNumber();
  const typo = `${number.slice(0, 4)}${(Number(number[4]) + 1) % 10}${number.slice(5)}`;
  expect(isValidAccountNumber(typo)).toBe(false);
});
