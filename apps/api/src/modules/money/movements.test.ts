import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TestClock } from '../../db/clock.ts';
import type { Database } from '../../db/database.ts';
import { balanceOf } from '../../ledger/accounts.ts';
import { operatorAccounts, transferCodes } from '../../ledger/codes.ts';
import { lookupTransfers } from '../../ledger/history.ts';
import { transferFlags } from '../../ledger/types.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { accountOf, expectLedgerConsistent, openCustomerAccount } from '../../test/ledger.ts';
import { bookedMovementKinds } from './kinds.ts';
import { bookMovements, resolveHeld, type BookedMovement, type HeldResolution } from './movements.ts';

/**
 * The money module's primitives on a real ledger (decision 069): each runs inside the caller's
 * transaction, takes its sides from kinds.ts, and answers a value for what a caller expects.
 */
describeEachDatabase('the money module', (database) => {
  const book = (movements: readonly BookedMovement[], options: { linked?: boolean; clock?: TestClock } = {}, db: Database = database()) =>
    db.transaction((tx) => bookMovements(tx, movements, options));
  const resolve = (resolution: HeldResolution, clock?: TestClock) => database().transaction((tx) => resolveHeld(tx, resolution, clock));

  describe('bookMovements', () => {
    it('posts a movement with the sides and code of its row in kinds.ts, and a rerun of its id moves nothing', async () => {
      const checking = await openCustomerAccount(database(), 10_000n);
      const card = await openCustomerAccount(database());
      const id = randomUUID();
      const movement: BookedMovement = { id, kind: 'card_repayment', fromLedgerAccountId: checking, toLedgerAccountId: card, amountCents: 2_500n };
      expect(await book([movement])).toEqual([{ outcome: 'booked' }]);
      expect(await book([movement])).toEqual([{ outcome: 'already' }]);
      const [transfer] = await lookupTransfers(database(), [id]);
      expect(transfer).toMatchObject({ debitAccountId: checking, creditAccountId: card, amountCents: 2_500n, code: transferCodes.cardRepayment });
      expect(balanceOf(await accountOf(database(), checking)).balanceCents).toBe(7_500n);
      expect(balanceOf(await accountOf(database(), card)).balanceCents).toBe(2_500n);
    });

    it('answers a refusal for want of money as a value, and the caller commits what it records beside it', async () => {
      const checking = await openCustomerAccount(database(), 1_000n);
      const card = await openCustomerAccount(database());
      const note = randomUUID();
      const answers = await database().transaction(async (tx) => {
        const answered = await bookMovements(tx, [
          { id: randomUUID(), kind: 'card_repayment', fromLedgerAccountId: checking, toLedgerAccountId: card, amountCents: 1_001n },
        ]);
        await tx.query('INSERT INTO audit_log (actor_type, actor_id, action, subject, outcome) VALUES ($1, $2, $3, $4, $5)', [
          'system',
          'money-test',
          'money.refused',
          note,
          'failure',
        ]);
        return answered;
      });
      expect(answers).toEqual([{ outcome: 'refused', code: 'insufficient_funds' }]);
      expect(await database().query('SELECT 1 FROM audit_log WHERE subject = $1', [note])).toHaveLength(1);
      expect(balanceOf(await accountOf(database(), checking)).balanceCents).toBe(1_000n);
    });

    it('books a linked pair as one: both, from the bank accounts its row names', async () => {
      const expenseBefore = balanceOf(await accountOf(database(), operatorAccounts.accountVerificationExpense)).balanceCents;
      const ids = [randomUUID(), randomUUID()];
      expect(
        await book(
          ids.map((id, index) => ({ id, kind: 'micro_deposit' as const, amountCents: BigInt(7 + index) })),
          { linked: true },
        ),
      ).toEqual([{ outcome: 'booked' }, { outcome: 'booked' }]);
      const transfers = await lookupTransfers(database(), ids);
      for (const transfer of transfers) {
        expect(transfer).toMatchObject({
          debitAccountId: operatorAccounts.accountVerificationExpense,
          creditAccountId: operatorAccounts.settlementAch,
          code: transferCodes.microDeposit,
        });
      }
      expect(transfers[0]?.flags && transferFlags.linked).toBeTruthy();
      expect(balanceOf(await accountOf(database(), operatorAccounts.accountVerificationExpense)).balanceCents - expenseBefore).toBe(15n);
      await expectLedgerConsistent(database());
    });

    it('refuses a movement whose row needs an account the caller did not name: a defect, not a refusal', async () => {
      await expect(book([{ id: randomUUID(), kind: 'card_repayment', amountCents: 1n }])).rejects.toThrow(/names no 'from' ledger account/);
    });
  });

  describe('resolveHeld', () => {
    async function hold(amountCents: bigint, clock?: TestClock) {
      const checking = await openCustomerAccount(database(), 5_000n);
      const id = randomUUID();
      expect(await book([{ id, kind: 'card_authorization', fromLedgerAccountId: checking, amountCents }], { clock })).toEqual([{ outcome: 'booked' }]);
      return { checking, id };
    }

    it('holds a card authorisation pending for its row’s timeout, then posts it for less and releases the rest', async () => {
      const { checking, id } = await hold(2_000n);
      const [held] = await lookupTransfers(database(), [id]);
      expect(held).toMatchObject({ timeoutSeconds: bookedMovementKinds.card_authorization.timeoutSeconds, code: transferCodes.cardPurchase });
      expect(balanceOf(await accountOf(database(), checking)).availableCents).toBe(3_000n);
      const post = { id: randomUUID(), pendingId: id, action: 'post' as const, amountCents: 1_500n };
      expect(await resolve(post)).toEqual({ outcome: 'resolved' });
      expect(await resolve(post)).toEqual({ outcome: 'already' });
      expect(balanceOf(await accountOf(database(), checking))).toMatchObject({ balanceCents: 3_500n, availableCents: 3_500n });
      expect(await resolve({ id: randomUUID(), pendingId: id, action: 'void' })).toEqual({ outcome: 'refused', code: 'hold_already_posted' });
    });

    it('answers a hold that was voided, or that expired, as a refusal', async () => {
      const voided = await hold(100n);
      expect(await resolve({ id: randomUUID(), pendingId: voided.id, action: 'void' })).toEqual({ outcome: 'resolved' });
      expect(await resolve({ id: randomUUID(), pendingId: voided.id, action: 'post' })).toEqual({ outcome: 'refused', code: 'hold_already_voided' });

      const clock = new TestClock();
      const expiring = await hold(100n, clock);
      const afterTimeout = clock.later((bookedMovementKinds.card_authorization.timeoutSeconds + 60) * 1_000);
      expect(await resolve({ id: randomUUID(), pendingId: expiring.id, action: 'post' }, afterTimeout)).toEqual({ outcome: 'refused', code: 'hold_expired' });
      await expectLedgerConsistent(database());
    });
  });
});
