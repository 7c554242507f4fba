import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test/databases.ts';
import { balanceOf, createAccounts } from './accounts.ts';
import { accountCodes, operatorAccounts, transferCodes } from './codes.ts';
import { createTransfers } from './create-transfers.ts';
import { accountOf, createOne, expectLedgerConsistent, openCustomerAccount, payment, usd } from '../test/ledger.ts';
import { accountFlags, intMaxId, transferFlags, zeroId } from './types.ts';

describeEachDatabase('ledger: single-phase transfers and their result codes', (database) => {
  it('a posted transfer moves money from one account to the other and answers ok with the stored transfer', async () => {
    const from = await openCustomerAccount(database(), 10_000n);
    const to = await openCustomerAccount(database());
    const transfer = payment(from, to, 2_500n);
    const outcome = await createOne(database(), transfer);
    expect(outcome.result).toBe('ok');
    if (outcome.result !== 'ok') return;
    expect(outcome.transfer).toMatchObject({ id: transfer.id, amountCents: 2_500n, debitAccountId: from, creditAccountId: to });
    expect(outcome.transfer.sequence).toBeGreaterThan(0n);
    expect(balanceOf(await accountOf(database(), from))).toEqual({ side: 'credit', balanceCents: 7_500n, availableCents: 7_500n });
    expect(balanceOf(await accountOf(database(), to)).balanceCents).toBe(2_500n);
    await expectLedgerConsistent(database());
  });

  it('a transfer sent again with the same fields answers exists with the first transfer and moves nothing', async () => {
    const from = await openCustomerAccount(database(), 1_000n);
    const to = await openCustomerAccount(database());
    const transfer = payment(from, to, 400n);
    const first = await createOne(database(), transfer);
    const second = await createOne(database(), transfer);
    expect(second.result).toBe('exists');
    if (first.result !== 'ok' || second.result !== 'exists') return;
    expect(second.transfer).toEqual(first.transfer);
    expect(balanceOf(await accountOf(database(), from)).balanceCents).toBe(600n);
  });

  it('a transfer sent again with one field changed answers exists_with_different_<field>, in precedence order', async () => {
    const from = await openCustomerAccount(database(), 1_000n);
    const to = await openCustomerAccount(database());
    const other = await openCustomerAccount(database());
    const original = payment(from, to, 100n);
    expect((await createOne(database(), original)).result).toBe('ok');
    const cases = [
      [{ flags: transferFlags.pending }, 'exists_with_different_flags'],
      [{ pendingId: randomUUID() }, 'exists_with_different_pending_id'],
      [{ timeoutSeconds: 60 }, 'exists_with_different_timeout'],
      [{ debitAccountId: other }, 'exists_with_different_debit_account_id'],
      [{ creditAccountId: other }, 'exists_with_different_credit_account_id'],
      [{ amountCents: 101n }, 'exists_with_different_amount'],
      [{ ledger: 978 }, 'exists_with_different_ledger'],
      [{ code: transferCodes.fee }, 'exists_with_different_code'],
      [{ flags: transferFlags.pending, amountCents: 5n }, 'exists_with_different_flags'],
      [{ amountCents: 5n, code: transferCodes.fee }, 'exists_with_different_amount'],
    ] as const;
    for (const [change, expected] of cases) {
      expect((await createOne(database(), { ...original, ...change })).result, expected).toBe(expected);
    }
    expect(balanceOf(await accountOf(database(), from)).balanceCents).toBe(900n);
  });

  it('an id that failed for insufficient funds keeps failing, with id_already_failed, even once funds arrive', async () => {
    const from = await openCustomerAccount(database(), 100n);
    const to = await openCustomerAccount(database());
    const transfer = payment(from, to, 101n);
    expect((await createOne(database(), transfer)).result).toBe('exceeds_credits');
    await openCustomerAccount(database());
    await createOne(database(), payment(operatorAccounts.bankCapital, from, 1_000n));
    const retry = await createOne(database(), transfer);
    expect(retry).toEqual({ index: 0, id: transfer.id, result: 'id_already_failed', firstResult: 'exceeds_credits' });
    expect((await createOne(database(), { ...transfer, amountCents: 1n })).result).toBe('id_already_failed');
    expect(balanceOf(await accountOf(database(), from)).balanceCents).toBe(1_100n);
  });

  it('a failure decided by the request alone is not remembered, so the corrected request succeeds', async () => {
    const from = await openCustomerAccount(database(), 100n);
    const to = await openCustomerAccount(database());
    const transfer = { ...payment(from, to, 10n), creditAccountId: from };
    expect((await createOne(database(), transfer)).result).toBe('accounts_must_be_different');
    expect((await createOne(database(), { ...transfer, creditAccountId: to })).result).toBe('ok');
  });

  it('each malformed transfer answers its own result code and nothing moves', async () => {
    const a = await openCustomerAccount(database(), 1_000n);
    const b = await openCustomerAccount(database());
    const base = payment(a, b, 10n);
    const cases = [
      [{ flags: 16 }, 'reserved_flag'],
      [{ id: zeroId }, 'id_must_not_be_zero'],
      [{ id: intMaxId }, 'id_must_not_be_int_max'],
      [{ flags: transferFlags.pending | transferFlags.voidPendingTransfer }, 'flags_are_mutually_exclusive'],
      [{ flags: transferFlags.postPendingTransfer | transferFlags.voidPendingTransfer }, 'flags_are_mutually_exclusive'],
      [{ debitAccountId: undefined }, 'debit_account_id_must_not_be_zero'],
      [{ debitAccountId: intMaxId }, 'debit_account_id_must_not_be_int_max'],
      [{ creditAccountId: zeroId }, 'credit_account_id_must_not_be_zero'],
      [{ creditAccountId: intMaxId }, 'credit_account_id_must_not_be_int_max'],
      [{ creditAccountId: a }, 'accounts_must_be_different'],
      [{ pendingId: randomUUID() }, 'pending_id_must_be_zero'],
      [{ timeoutSeconds: 30 }, 'timeout_reserved_for_pending_transfer'],
      [{ amountCents: 0n }, 'amount_must_not_be_zero'],
      [{ amountCents: undefined }, 'amount_must_not_be_zero'],
      [{ ledger: 0 }, 'ledger_must_not_be_zero'],
      [{ code: undefined }, 'code_must_not_be_zero'],
      [{ debitAccountId: randomUUID() }, 'debit_account_not_found'],
      [{ creditAccountId: randomUUID() }, 'credit_account_not_found'],
      [{ ledger: 978 }, 'transfer_must_have_the_same_ledger_as_accounts'],
      [{ amountCents: 1_001n }, 'exceeds_credits'],
    ] as const;
    for (const [change, expected] of cases) {
      const outcome = await createOne(database(), { ...base, id: randomUUID(), ...change });
      expect(outcome.result, expected).toBe(expected);
    }
    expect(balanceOf(await accountOf(database(), a)).balanceCents).toBe(1_000n);
    await expectLedgerConsistent(database());
  });

  it('accounts of two ledgers cannot transfer to each other', async () => {
    const dollars = await openCustomerAccount(database(), 100n);
    const euros = randomUUID();
    await createAccounts(database(), [{ id: euros, ledger: 978, code: accountCodes.customerChecking }]);
    expect((await createOne(database(), payment(dollars, euros, 10n))).result).toBe('accounts_must_have_the_same_ledger');
  });

  it('an account that must not have more credits than debits refuses a credit beyond them with exceeds_debits', async () => {
    const loan = randomUUID();
    await createAccounts(database(), [{ id: loan, ledger: usd, code: accountCodes.loan, flags: accountFlags.creditsMustNotExceedDebits }]);
    const customer = await openCustomerAccount(database(), 1_000n);
    // The loan is disbursed (debit), then repaid (credit) but never beyond what was lent.
    expect((await createOne(database(), payment(loan, customer, 300n))).result).toBe('ok');
    expect((await createOne(database(), payment(customer, loan, 301n))).result).toBe('exceeds_debits');
    expect((await createOne(database(), payment(customer, loan, 300n))).result).toBe('ok');
    expect(balanceOf(await accountOf(database(), loan))).toEqual({ side: 'debit', balanceCents: 0n, availableCents: 0n });
  });

  it('a later transfer of a batch sees the earlier ones: money received can be spent in the same batch', async () => {
    const a = await openCustomerAccount(database());
    const b = await openCustomerAccount(database());
    const outcomes = await createTransfers(database(), [
      payment(operatorAccounts.bankCapital, a, 500n),
      payment(a, b, 500n),
      payment(a, b, 1n),
      payment(b, a, 200n),
    ]);
    expect(outcomes.map((outcome) => outcome.result)).toEqual(['ok', 'ok', 'exceeds_credits', 'ok']);
    expect(outcomes.map((outcome) => outcome.index)).toEqual([0, 1, 2, 3]);
    expect(balanceOf(await accountOf(database(), a)).balanceCents).toBe(200n);
    expect(balanceOf(await accountOf(database(), b)).balanceCents).toBe(300n);
    await expectLedgerConsistent(database());
  });

  it('the same id twice in one batch answers ok, then exists or exists_with_different_<field>', async () => {
    const a = await openCustomerAccount(database(), 1_000n);
    const b = await openCustomerAccount(database());
    const transfer = payment(a, b, 10n);
    const outcomes = await createTransfers(database(), [transfer, transfer, { ...transfer, amountCents: 11n }]);
    expect(outcomes.map((outcome) => outcome.result)).toEqual(['ok', 'exists', 'exists_with_different_amount']);
    expect(balanceOf(await accountOf(database(), a)).balanceCents).toBe(990n);
  });

  it('transfers get increasing sequence numbers in the order of the batch', async () => {
    const a = await openCustomerAccount(database(), 1_000n);
    const b = await openCustomerAccount(database());
    const outcomes = await createTransfers(database(), [payment(a, b, 1n), payment(a, b, 2n), payment(a, b, 3n)]);
    const sequences = outcomes.map((outcome) => (outcome.result === 'ok' ? outcome.transfer.sequence : 0n));
    expect([...sequences].sort((x, y) => (x < y ? -1 : 1))).toEqual(sequences);
    expect(new Set(sequences).size).toBe(3);
  });

  it('a malformed id or a negative amount is a caller bug and throws before anything is written', async () => {
    const a = await openCustomerAccount(database(), 1_000n);
    const b = await openCustomerAccount(database());
    await expect(createOne(database(), { ...payment(a, b, 1n), id: 'not-a-uuid' })).rejects.toThrow(/uuid/);
    await expect(createOne(database(), payment(a, b, -1n))).rejects.toThrow(/cents/);
    await expect(createOne(database(), { ...payment(a, b, 1n), timeoutSeconds: 1.5 })).rejects.toThrow(/timeoutSeconds/);
  });

  it('ids in uppercase are stored and answered in lowercase', async () => {
    const a = await openCustomerAccount(database(), 1_000n);
    const b = await openCustomerAccount(database());
    const transfer = payment(a.toUpperCase(), b, 1n);
    const outcome = await createOne(database(), { ...transfer, id: transfer.id.toUpperCase() });
    expect(outcome.result).toBe('ok');
    expect(outcome.id).toBe(transfer.id.toLowerCase());
  });
});
