import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test/databases.ts';
import { recordingStatements, type RecordedStatement } from '../test/recording-database.ts';
import { balanceOf, createAccounts, lookupAccounts, normalSideOf } from './accounts.ts';
import { accountCodes, operatorAccountCodes, operatorAccounts } from './codes.ts';
import { expectLedgerConsistent, usd } from '../test/ledger.ts';
import { accountFlags, intMaxId, zeroId } from './types.ts';

describeEachDatabase('ledger: accounts', (database) => {
  it('migration 0002 creates every operator account with its well-known id and code, and no limit flag', async () => {
    const ids = Object.values(operatorAccounts);
    const accounts = await lookupAccounts(database(), ids);
    expect(accounts.map((account) => account.id)).toEqual(ids);
    for (const [name, id] of Object.entries(operatorAccounts)) {
      const account = accounts.find((candidate) => candidate.id === id);
      expect(account?.code, name).toBe(operatorAccountCodes[name as keyof typeof operatorAccounts]);
      expect(account?.ledger).toBe(usd);
      expect(account?.flags).toBe(0);
    }
    await expectLedgerConsistent(database());
  });

  it('a new account starts with four zero counters and answers ok with the stored account', async () => {
    const id = randomUUID();
    const [outcome] = await createAccounts(database(), [
      { id, ledger: usd, code: accountCodes.customerSavings, flags: accountFlags.debitsMustNotExceedCredits },
    ]);
    expect(outcome).toMatchObject({
      result: 'ok',
      account: { id, debitsPendingCents: 0n, debitsPostedCents: 0n, creditsPendingCents: 0n, creditsPostedCents: 0n },
    });
  });

  it('an account created again answers exists, or exists_with_different_<field> when a field differs', async () => {
    const id = randomUUID();
    const account = { id, ledger: usd, code: accountCodes.customerChecking, flags: accountFlags.debitsMustNotExceedCredits };
    await createAccounts(database(), [account]);
    const outcomes = await createAccounts(database(), [
      account,
      { ...account, flags: 0 },
      { ...account, ledger: 978 },
      { ...account, code: accountCodes.card },
    ]);
    expect(outcomes.map((outcome) => outcome.result)).toEqual([
      'exists',
      'exists_with_different_flags',
      'exists_with_different_ledger',
      'exists_with_different_code',
    ]);
  });

  it('malformed accounts answer their own result codes', async () => {
    const both = accountFlags.debitsMustNotExceedCredits | accountFlags.creditsMustNotExceedDebits;
    const base = { ledger: usd, code: accountCodes.customerChecking };
    const outcomes = await createAccounts(database(), [
      { ...base, id: randomUUID(), flags: 8 },
      { ...base, id: zeroId },
      { ...base, id: intMaxId },
      { ...base, id: randomUUID(), flags: both },
      { ...base, id: randomUUID(), ledger: 0 },
      { ...base, id: randomUUID(), code: 0 },
    ]);
    expect(outcomes.map((outcome) => outcome.result)).toEqual([
      'reserved_flag',
      'id_must_not_be_zero',
      'id_must_not_be_int_max',
      'flags_are_mutually_exclusive',
      'ledger_must_not_be_zero',
      'code_must_not_be_zero',
    ]);
  });

  it('linked accounts are created all or none', async () => {
    const first = randomUUID();
    const second = randomUUID();
    const outcomes = await createAccounts(database(), [
      { id: first, ledger: usd, code: accountCodes.loan, flags: accountFlags.linked },
      { id: second, ledger: usd, code: 0 },
    ]);
    expect(outcomes.map((outcome) => outcome.result)).toEqual(['linked_event_failed', 'code_must_not_be_zero']);
    expect(await lookupAccounts(database(), [first, second])).toEqual([]);
  });

  it('a batch of accounts may not end inside a chain', async () => {
    const open = randomUUID();
    const outcomes = await createAccounts(database(), [
      { id: randomUUID(), ledger: usd, code: accountCodes.card },
      { id: open, ledger: usd, code: accountCodes.card, flags: accountFlags.linked },
    ]);
    expect(outcomes.map((outcome) => outcome.result)).toEqual(['ok', 'linked_event_chain_open']);
    expect(await lookupAccounts(database(), [open])).toEqual([]);
  });

  it('lookupAccounts answers the accounts found, in the order asked, leaving out unknown ids', async () => {
    const found = await lookupAccounts(database(), [operatorAccounts.feesIncome, randomUUID(), operatorAccounts.bankCapital]);
    expect(found.map((account) => account.id)).toEqual([operatorAccounts.feesIncome, operatorAccounts.bankCapital]);
  });

  it('lookups asked at the same moment are read in one statement, each answered with its own accounts in its order', async () => {
    const statements: RecordedStatement[] = [];
    const recorded = recordingStatements(database(), statements);
    const unknown = randomUUID();
    const asked = [
      [operatorAccounts.feesIncome, unknown, operatorAccounts.bankCapital],
      [operatorAccounts.bankCapital],
      [unknown],
      [operatorAccounts.bankCapital, operatorAccounts.feesIncome, operatorAccounts.bankCapital],
    ];
    const answers = await Promise.all(asked.map((ids) => lookupAccounts(recorded, ids)));
    expect(answers.map((accounts) => accounts.map((account) => account.id))).toEqual([
      [operatorAccounts.feesIncome, operatorAccounts.bankCapital],
      [operatorAccounts.bankCapital],
      [],
      [operatorAccounts.bankCapital, operatorAccounts.feesIncome, operatorAccounts.bankCapital],
    ]);
    const lookups = () => statements.filter(({ text }) => /FROM unnest\(\$1::uuid\[\]\) AS wanted \(id\) JOIN ledger_accounts/.test(text));
    expect(lookups()).toEqual([expect.objectContaining({ inTransaction: false })]);
    // Inside a transaction, a lookup must see the transaction's own writes: it is read there.
    await recorded.transaction(async (tx) => {
      expect(await lookupAccounts(tx, [operatorAccounts.bankCapital])).toHaveLength(1);
    });
    expect(lookups().map(({ inTransaction }) => inTransaction)).toEqual([false, true]);
  });

  it('balances read on the normal side: deposits are credit-normal, loans and settlement debit-normal', () => {
    const account = {
      id: randomUUID(),
      ledger: usd,
      code: accountCodes.customerChecking,
      flags: accountFlags.debitsMustNotExceedCredits,
      debitsPendingCents: 30n,
      debitsPostedCents: 200n,
      creditsPendingCents: 5n,
      creditsPostedCents: 1_000n,
      createdAt: new Date(),
    };
    expect(balanceOf(account)).toEqual({ side: 'credit', balanceCents: 800n, availableCents: 770n });
    expect(balanceOf({ ...account, flags: 0, code: accountCodes.settlementAch })).toEqual({
      side: 'debit',
      balanceCents: -800n,
      availableCents: -805n,
    });
    expect(normalSideOf({ flags: 0, code: accountCodes.loansReceivable })).toBe('debit');
    expect(normalSideOf({ flags: 0, code: accountCodes.feesIncome })).toBe('credit');
  });
});
