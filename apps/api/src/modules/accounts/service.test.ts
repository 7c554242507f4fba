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
});

it('makes ten-digit account numbers whose last digit is a Luhn check that catches one wrong digit', () => {
  for (let index = 0; index < 200; index++) expect(isValidAccountNumber(newAccountNumber())).toBe(true);
  expect(luhnCheckDigit('7992739871')).toBe(3);
  const number = newAccountNumber();
  const typo = `${number.slice(0, 4)}${(Number(number[4]) + 1) % 10}${number.slice(5)}`;
  expect(isValidAccountNumber(typo)).toBe(false);
});
