import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { TestClock } from '../db/clock.ts';
import { describeEachDatabase } from '../test/databases.ts';
import { balanceOf } from './accounts.ts';
import { operatorAccounts, transferCodes } from './codes.ts';
import { createTransfers } from './create-transfers.ts';
import { expirePendingTransfers } from './expire.ts';
import { lookupPendingStates } from './history.ts';
import { accountOf, createOne, expectLedgerConsistent, openCustomerAccount, payment, usd } from '../test/ledger.ts';
import { transferFlags, zeroId, intMaxId, type TransferInput } from './types.ts';

function hold(from: string, to: string, amountCents: bigint, timeoutSeconds = 0): TransferInput {
  return { ...payment(from, to, amountCents), flags: transferFlags.pending, timeoutSeconds };
}
function post(pendingId: string, amountCents?: bigint): TransferInput {
  return { id: randomUUID(), pendingId, flags: transferFlags.postPendingTransfer, amountCents };
}
function voiding(pendingId: string): TransferInput {
  return { id: randomUUID(), pendingId, flags: transferFlags.voidPendingTransfer };
}

describeEachDatabase('ledger: pending transfers, posts, voids and timeouts', (database) => {
  it('a pending transfer reserves the amount: the balance stays, the available balance drops', async () => {
    const customer = await openCustomerAccount(database(), 1_000n);
    const pending = hold(customer, operatorAccounts.settlementAch, 300n);
    expect((await createOne(database(), pending)).result).toBe('ok');
    expect(balanceOf(await accountOf(database(), customer))).toEqual({ side: 'credit', balanceCents: 1_000n, availableCents: 700n });
    // The reservation counts against the limit at once.
    expect((await createOne(database(), payment(customer, operatorAccounts.settlementAch, 701n))).result).toBe('exceeds_credits');
    const [state] = await lookupPendingStates(database(), [pending.id]);
    expect(state).toMatchObject({ state: 'pending', expiresAt: null, resolvedById: null });
    await expectLedgerConsistent(database());
  });

  it('posting the whole amount moves it, and the post records the pending transfer accounts, ledger and code', async () => {
    const customer = await openCustomerAccount(database(), 1_000n);
    const pending = hold(customer, operatorAccounts.settlementWire, 300n);
    await createOne(database(), pending);
    const posting = post(pending.id);
    const outcome = await createOne(database(), posting);
    expect(outcome.result).toBe('ok');
    if (outcome.result !== 'ok') return;
    expect(outcome.transfer).toMatchObject({
      debitAccountId: customer,
      creditAccountId: operatorAccounts.settlementWire,
      amountCents: 300n,
      pendingId: pending.id,
      ledger: usd,
      code: transferCodes.internalTransfer,
    });
    expect(balanceOf(await accountOf(database(), customer))).toEqual({ side: 'credit', balanceCents: 700n, availableCents: 700n });
    expect((await lookupPendingStates(database(), [pending.id]))[0]).toMatchObject({ state: 'posted', resolvedById: posting.id });
    await expectLedgerConsistent(database());
  });

  it('posting part of the amount moves that part and releases the rest', async () => {
    const customer = await openCustomerAccount(database(), 1_000n);
    const pending = hold(customer, operatorAccounts.settlementCard, 300n);
    await createOne(database(), pending);
    expect((await createOne(database(), post(pending.id, 120n))).result).toBe('ok');
    expect(balanceOf(await accountOf(database(), customer))).toEqual({ side: 'credit', balanceCents: 880n, availableCents: 880n });
    await expectLedgerConsistent(database());
  });

  it('a pending transfer is resolved exactly once: posting or voiding it again is refused', async () => {
    const customer = await openCustomerAccount(database(), 1_000n);
    const posted = hold(customer, operatorAccounts.settlementAch, 100n);
    const voided = hold(customer, operatorAccounts.settlementAch, 100n);
    await createTransfers(database(), [posted, voided]);
    expect((await createOne(database(), post(posted.id))).result).toBe('ok');
    expect((await createOne(database(), post(posted.id))).result).toBe('pending_transfer_already_posted');
    expect((await createOne(database(), voiding(posted.id))).result).toBe('pending_transfer_already_posted');
    expect((await createOne(database(), voiding(voided.id))).result).toBe('ok');
    expect((await createOne(database(), voiding(voided.id))).result).toBe('pending_transfer_already_voided');
    expect((await createOne(database(), post(voided.id))).result).toBe('pending_transfer_already_voided');
    expect(balanceOf(await accountOf(database(), customer))).toEqual({ side: 'credit', balanceCents: 900n, availableCents: 900n });
    await expectLedgerConsistent(database());
  });

  it('a post or void sent again with the same id answers exists, absent fields being taken from the pending transfer', async () => {
    const customer = await openCustomerAccount(database(), 1_000n);
    const pending = hold(customer, operatorAccounts.settlementAch, 100n);
    await createOne(database(), pending);
    const posting = post(pending.id, 60n);
    expect((await createOne(database(), posting)).result).toBe('ok');
    expect((await createOne(database(), posting)).result).toBe('exists');
    expect((await createOne(database(), { ...posting, debitAccountId: customer, code: transferCodes.internalTransfer })).result).toBe('exists');
    expect((await createOne(database(), { ...posting, amountCents: 61n })).result).toBe('exists_with_different_amount');
    expect((await createOne(database(), { ...posting, creditAccountId: customer })).result).toBe('exists_with_different_credit_account_id');
  });

  it('a post or void that does not match its pending transfer answers the matching result code', async () => {
    const customer = await openCustomerAccount(database(), 1_000n);
    const other = await openCustomerAccount(database());
    const pending = hold(customer, operatorAccounts.settlementAch, 100n);
    const plain = payment(customer, other, 1n);
    await createTransfers(database(), [pending, plain]);
    const cases = [
      [{ ...post(pending.id), pendingId: undefined }, 'pending_id_must_not_be_zero'],
      [{ ...post(pending.id), pendingId: zeroId }, 'pending_id_must_not_be_zero'],
      [{ ...post(pending.id), pendingId: intMaxId }, 'pending_id_must_not_be_int_max'],
      [{ ...post(pending.id), id: pending.id }, 'exists_with_different_flags'],
      [{ ...post(pending.id), timeoutSeconds: 5 }, 'timeout_reserved_for_pending_transfer'],
      [post(randomUUID()), 'pending_transfer_not_found'],
      [post(plain.id), 'pending_transfer_not_pending'],
      [{ ...post(pending.id), debitAccountId: other }, 'pending_transfer_has_different_debit_account_id'],
      [{ ...post(pending.id), creditAccountId: other }, 'pending_transfer_has_different_credit_account_id'],
      [{ ...post(pending.id), ledger: 978 }, 'pending_transfer_has_different_ledger'],
      [{ ...post(pending.id), code: transferCodes.fee }, 'pending_transfer_has_different_code'],
      [post(pending.id, 101n), 'exceeds_pending_transfer_amount'],
      [{ ...voiding(pending.id), amountCents: 99n }, 'pending_transfer_has_different_amount'],
    ] as const;
    for (const [transfer, expected] of cases) {
      expect((await createOne(database(), transfer)).result, expected).toBe(expected);
    }
    const sameId = randomUUID();
    expect((await createOne(database(), { ...post(pending.id), id: sameId, pendingId: sameId })).result).toBe('pending_id_must_be_different');
    expect((await createOne(database(), voiding(pending.id))).result).toBe('ok');
    await expectLedgerConsistent(database());
  });

  it('a pending transfer created and posted in the same batch ends posted', async () => {
    const customer = await openCustomerAccount(database(), 1_000n);
    const pending = hold(customer, operatorAccounts.settlementAch, 100n, 3_600);
    const outcomes = await createTransfers(database(), [pending, post(pending.id, 40n), voiding(pending.id)]);
    expect(outcomes.map((outcome) => outcome.result)).toEqual(['ok', 'ok', 'pending_transfer_already_posted']);
    expect(balanceOf(await accountOf(database(), customer)).availableCents).toBe(960n);
    expect((await lookupPendingStates(database(), [pending.id]))[0]?.state).toBe('posted');
    await expectLedgerConsistent(database());
  });

  it('the sweep releases a reservation whose timeout has passed, and it can no longer be posted or voided', async () => {
    const customer = await openCustomerAccount(database(), 1_000n);
    const expiring = hold(customer, operatorAccounts.settlementAch, 200n, 60);
    const lasting = hold(customer, operatorAccounts.settlementAch, 300n, 86_400);
    const held = hold(customer, operatorAccounts.settlementAch, 100n);
    await createTransfers(database(), [expiring, lasting, held]);
    expect(balanceOf(await accountOf(database(), customer)).availableCents).toBe(400n);

    const inTwoMinutes = new TestClock().later(120_000);
    const sweep = await expirePendingTransfers(database(), inTwoMinutes);
    expect(sweep.expiredCount).toBeGreaterThanOrEqual(1);
    expect(sweep.finished).toBe(true);
    expect(balanceOf(await accountOf(database(), customer))).toEqual({ side: 'credit', balanceCents: 1_000n, availableCents: 600n });
    expect((await createOne(database(), post(expiring.id))).result).toBe('pending_transfer_expired');
    expect((await createOne(database(), voiding(expiring.id))).result).toBe('pending_transfer_expired');
    const states = await lookupPendingStates(database(), [expiring.id, lasting.id, held.id]);
    expect(states.map((state) => state.state)).toEqual(['expired', 'pending', 'pending']);
    // A second sweep finds nothing more to release.
    expect((await expirePendingTransfers(database(), inTwoMinutes)).expiredCount).toBe(0);
    expect((await createOne(database(), post(lasting.id))).result).toBe('ok');
    await expectLedgerConsistent(database());
  });

  it('a pending transfer past its deadline cannot be posted even before the sweep reaches it', async () => {
    const clock = new TestClock();
    const createdAt = clock.now();
    const customer = await openCustomerAccount(database(), 1_000n);
    const pending = hold(customer, operatorAccounts.settlementAch, 200n, 1);
    await createTransfers(database(), [pending], clock);
    clock.advance(999);
    expect((await expirePendingTransfers(database(), clock)).expiredCount).toBe(0);
    clock.advance(1);
    expect((await createTransfers(database(), [post(pending.id)], clock))[0]?.result).toBe('pending_transfer_expired');
    // The money stays reserved until the sweep gives it back.
    expect(balanceOf(await accountOf(database(), customer)).availableCents).toBe(800n);
    expect((await expirePendingTransfers(database(), clock)).expiredCount).toBe(1);
    expect(balanceOf(await accountOf(database(), customer)).availableCents).toBe(1_000n);
    expect((await lookupPendingStates(database(), [pending.id]))[0]).toMatchObject({
      state: 'expired',
      expiresAt: new Date(createdAt.getTime() + 1_000),
      resolvedAt: clock.now(),
    });
    await expectLedgerConsistent(database());
  });

  it('a post that names a pending transfer from a failed chain of the same batch finds nothing to post', async () => {
    const customer = await openCustomerAccount(database(), 1_000n);
    const pending = { ...hold(customer, operatorAccounts.settlementAch, 100n), flags: transferFlags.pending | transferFlags.linked };
    const outcomes = await createTransfers(database(), [pending, payment(customer, customer, 1n), post(pending.id)]);
    expect(outcomes.map((outcome) => outcome.result)).toEqual(['linked_event_failed', 'accounts_must_be_different', 'pending_transfer_not_found']);
    expect(balanceOf(await accountOf(database(), customer)).availableCents).toBe(1_000n);
  });
});
