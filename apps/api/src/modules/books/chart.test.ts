import { describe, expect, it } from 'vitest';
import { accountCodes } from '../../ledger/codes.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { chartOf } from './balances.ts';
import { depositGlAccount, glAccountOfCode, glAccounts, isDebitNormal, isMappedCode } from './chart.ts';

/** Issue 35 item 1 (docs/books.md, "The chart of accounts"): every ledger account code has a place in the general ledger. */
describe('the chart of accounts', () => {
  it('maps every account code the ledger defines, so a code added without a mapping fails here', () => {
    const unmapped = Object.entries(accountCodes).filter(([, code]) => !isMappedCode(code));
    expect(unmapped).toEqual([]);
    expect(
      Object.keys(glAccountOfCode)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(Object.values(accountCodes).sort((a, b) => a - b));
  });

  it('refuses a code nobody mapped', () => {
    expect(isMappedCode(999)).toBe(false);
    expect(isMappedCode(accountCodes.reconciliationDifferences)).toBe(true);
  });

  it('numbers each account by its type: 1xxx assets, 2xxx liabilities, 3xxx equity, 4xxx income, 5xxx expenses', () => {
    const firstDigit = { asset: '1', liability: '2', equity: '3', income: '4', expense: '5' } as const;
    for (const gl of Object.values(glAccounts)) expect(gl.account.startsWith(firstDigit[gl.type]), gl.account).toBe(true);
    expect(new Set(Object.values(glAccounts).map((gl) => gl.account)).size).toBe(Object.values(glAccounts).length);
  });

  it('books customer deposits by product: 211x checking, 212x savings, credit-normal', () => {
    const gold = depositGlAccount({ id: 'x', code: 'gold-checking', kind: 'checking', name: 'Gold Checking', position: 2 });
    expect(gold).toEqual({ account: '2112', name: 'Customer deposits: Gold Checking', type: 'liability' });
    expect(depositGlAccount({ id: 'y', code: 'standard-savings', kind: 'savings', name: 'Standard Savings', position: 1 }).account).toBe('2121');
    expect(isDebitNormal(gold)).toBe(false);
    expect(isDebitNormal(glAccounts.undrawnCardLines)).toBe(false);
    expect(isDebitNormal(glAccounts.settlementAch)).toBe(true);
  });
});

describeEachDatabase('the chart of accounts over a database', (database) => {
  it('maps every code of the ledger accounts the migrations created', async () => {
    const codes = await database().query<{ code: number }>('SELECT DISTINCT code FROM ledger_accounts ORDER BY code');
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.map((row) => Number(row.code)).filter((code) => !isMappedCode(code))).toEqual([]);
  });

  it('holds the fixed accounts and one deposits account per seeded product, each number once, in number order', async () => {
    const chart = await chartOf(database());
    const numbers = chart.map((gl) => gl.account);
    expect(numbers).toEqual([...numbers].sort());
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(numbers).toEqual(expect.arrayContaining(['2111', '2112', '2113', '2121', '2122', '2123', '2190', '3100', '3200']));
    expect(chart.find((gl) => gl.account === '2122')?.name).toBe('Customer deposits: Platinum Select Money Market Savings');
  });

  it('makes one line of two products that share a number, named after both', async () => {
    await database().query(
      `INSERT INTO deposit_products (id, code, kind, name, position) VALUES
         ('00000000-0000-4000-8000-00000000d0a1', 'tenth-checking', 'checking', 'Tenth Checking', 10),
         ('00000000-0000-4000-8000-00000000d0a2', 'eleventh-checking', 'checking', 'Eleventh Checking', 11)`,
    );
    const shared = (await chartOf(database())).filter((gl) => gl.account === '2110');
    expect(shared).toEqual([{ account: '2110', name: 'Customer deposits: Tenth Checking, Eleventh Checking', type: 'liability' }]);
  });
});
