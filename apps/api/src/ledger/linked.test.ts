import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test/databases.ts';
import { balanceOf } from './accounts.ts';
import { operatorAccounts, transferCodes } from './codes.ts';
import { createTransfers } from './create-transfers.ts';
import { lookupTransfers } from './history.ts';
import { accountOf, expectLedgerConsistent, openCustomerAccount, payment } from '../test/ledger.ts';
import { transferFlags, type TransferInput } from './types.ts';

function linked(transfer: TransferInput): TransferInput {
  return { ...transfer, flags: (transfer.flags ?? 0) | transferFlags.linked };
}

describeEachDatabase('ledger: linked chains', (database) => {
  it('a transfer and its fee succeed together', async () => {
    const customer = await openCustomerAccount(database(), 1_000n);
    const payee = await openCustomerAccount(database());
    const outcomes = await createTransfers(database(), [
      linked(payment(customer, payee, 500n)),
      { ...payment(customer, operatorAccounts.feesIncome, 25n), code: transferCodes.fee },
    ]);
    expect(outcomes.map((outcome) => outcome.result)).toEqual(['ok', 'ok']);
    expect(balanceOf(await accountOf(database(), customer)).balanceCents).toBe(475n);
  });

  it('a chain failing in the middle fails as a whole: the failing transfer keeps its own result, the others answer linked_event_failed', async () => {
    const customer = await openCustomerAccount(database(), 1_000n);
    const payee = await openCustomerAccount(database());
    const chain = [
      linked(payment(customer, payee, 600n)),
      linked(payment(customer, payee, 300n)),
      linked(payment(customer, payee, 200n)),
      payment(customer, payee, 1n),
    ];
    const after = payment(customer, payee, 1_000n);
    const outcomes = await createTransfers(database(), [...chain, after]);
    expect(outcomes.map((outcome) => outcome.result)).toEqual(['linked_event_failed', 'linked_event_failed', 'exceeds_credits', 'linked_event_failed', 'ok']);
    // The transfer after the chain did not see the chain's effects, so all 1,000 were there for it.
    expect(balanceOf(await accountOf(database(), payee)).balanceCents).toBe(1_000n);
    expect(
      await lookupTransfers(
        database(),
        chain.map((transfer) => transfer.id),
      ),
    ).toEqual([]);
    await expectLedgerConsistent(database());
  });

  it('a batch may not end inside a chain: the open chain fails with linked_event_chain_open', async () => {
    const customer = await openCustomerAccount(database(), 1_000n);
    const payee = await openCustomerAccount(database());
    const outcomes = await createTransfers(database(), [
      payment(customer, payee, 1n),
      linked(payment(customer, payee, 2n)),
      linked(payment(customer, payee, 3n)),
    ]);
    expect(outcomes.map((outcome) => outcome.result)).toEqual(['ok', 'linked_event_failed', 'linked_event_chain_open']);
    expect(balanceOf(await accountOf(database(), payee)).balanceCents).toBe(1n);
  });

  it('two chains in one batch succeed or fail independently', async () => {
    const customer = await openCustomerAccount(database(), 100n);
    const payee = await openCustomerAccount(database());
    const outcomes = await createTransfers(database(), [
      linked(payment(customer, payee, 50n)),
      payment(customer, payee, 60n),
      linked(payment(customer, payee, 40n)),
      payment(customer, payee, 10n),
    ]);
    expect(outcomes.map((outcome) => outcome.result)).toEqual(['linked_event_failed', 'exceeds_credits', 'ok', 'ok']);
    expect(balanceOf(await accountOf(database(), customer)).balanceCents).toBe(50n);
  });

  it('a chain sent again answers exists for its first transfer and linked_event_failed for the rest, as TigerBeetle does', async () => {
    const customer = await openCustomerAccount(database(), 100n);
    const payee = await openCustomerAccount(database());
    const chain = [linked(payment(customer, payee, 10n)), payment(customer, payee, 20n)];
    expect((await createTransfers(database(), chain)).map((outcome) => outcome.result)).toEqual(['ok', 'ok']);
    expect((await createTransfers(database(), chain)).map((outcome) => outcome.result)).toEqual(['exists', 'linked_event_failed']);
    expect(balanceOf(await accountOf(database(), customer)).balanceCents).toBe(70n);
  });

  it('the id that broke a chain for want of funds stays failed; the ids of the rest may be used again', async () => {
    const customer = await openCustomerAccount(database(), 100n);
    const payee = await openCustomerAccount(database());
    const first = linked(payment(customer, payee, 10n));
    const second = payment(customer, payee, 500n);
    expect((await createTransfers(database(), [first, second])).map((outcome) => outcome.result)).toEqual(['linked_event_failed', 'exceeds_credits']);
    const retried = await createTransfers(database(), [first, { ...second, amountCents: 20n }]);
    expect(retried.map((outcome) => outcome.result)).toEqual(['linked_event_failed', 'id_already_failed']);
    expect((await createTransfers(database(), [{ ...first, flags: 0 }])).map((outcome) => outcome.result)).toEqual(['ok']);
    await expectLedgerConsistent(database());
  });
});
