import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test/databases.ts';
import { checkLedger } from './check-ledger.ts';
import { operatorAccounts } from './codes.ts';
import { createTransfers } from './create-transfers.ts';
import { TestClock } from '../db/clock.ts';
import { expirePendingTransfers } from './expire.ts';
import { openCustomerAccount, payment } from '../test/ledger.ts';
import { transferFlags } from './types.ts';

/**
 * Each test corrupts the books by direct SQL, as a bug or an operator might, sees checkLedger
 * report it, and puts the books back, so the suite's database ends as consistent as it began.
 */
describeEachDatabase('ledger: checkLedger', (database) => {
  it('passes on a ledger built only through createTransfers and the sweep, and counts what it read', async () => {
    const customer = await openCustomerAccount(database(), 1_000n);
    const pending = { ...payment(customer, operatorAccounts.settlementAch, 100n), flags: transferFlags.pending, timeoutSeconds: 60 };
    await createTransfers(database(), [pending, payment(customer, operatorAccounts.feesIncome, 5n)]);
    await expirePendingTransfers(database(), new TestClock().later(120_000));
    const check = await checkLedger(database());
    expect(check).toEqual({ ok: true, accounts: Object.keys(operatorAccounts).length + 1, transfers: 3, violations: [] });
  });

  it('finds an account whose counter was changed by direct SQL, and the unbalanced sums', async () => {
    const customer = await openCustomerAccount(database(), 1_000n);
    await database().query('UPDATE ledger_accounts SET credits_posted = credits_posted + 1 WHERE id = $1', [customer]);
    const check = await checkLedger(database());
    expect(check.ok).toBe(false);
    expect(check.violations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ invariant: 'debits_equal_credits', subjectId: null }),
        expect.objectContaining({ invariant: 'counters_match_transfers', subjectId: customer }),
      ]),
    );
    await database().query('UPDATE ledger_accounts SET credits_posted = credits_posted - 1 WHERE id = $1', [customer]);
    expect((await checkLedger(database())).ok).toBe(true);
  });

  it('finds an account that breaks its limit flag when the safety check in the table is bypassed', async () => {
    const customer = await openCustomerAccount(database(), 100n);
    await database()
      .transaction(async (tx) => {
        // Moves 200 out while the account holds 100: balanced, matching transfers, but overdrawn.
        await tx.query('ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_debits_limit');
        await tx.query(
          `INSERT INTO ledger_transfers (id, debit_account_id, credit_account_id, amount, ledger, code, flags)
         VALUES (gen_random_uuid(), $1, $2, 200, 840, 4, 0)`,
          [customer, operatorAccounts.feesIncome],
        );
        await tx.query('UPDATE ledger_accounts SET debits_posted = debits_posted + 200 WHERE id = $1', [customer]);
        await tx.query('UPDATE ledger_accounts SET credits_posted = credits_posted + 200 WHERE id = $1', [operatorAccounts.feesIncome]);
        const check = await checkLedger(tx);
        expect(check.violations).toEqual([expect.objectContaining({ invariant: 'limit_flags_respected', subjectId: customer })]);
        throw new Error('rolled back on purpose');
      })
      .catch((error: Error) => expect(error.message).toBe('rolled back on purpose'));
    expect((await checkLedger(database())).ok).toBe(true);
  });

  it('finds the accounts still counting a reservation that direct SQL marked expired', async () => {
    const customer = await openCustomerAccount(database(), 1_000n);
    const pending = { ...payment(customer, operatorAccounts.settlementAch, 100n), flags: transferFlags.pending };
    await createTransfers(database(), [pending]);
    await database()
      .transaction(async (tx) => {
        await tx.query(`UPDATE pending_transfer_states SET state = 'expired', expires_at = now(), resolved_at = now() WHERE pending_id = $1`, [pending.id]);
        const check = await checkLedger(tx);
        expect(check.violations).toHaveLength(2);
        expect(check.violations).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ invariant: 'counters_match_transfers', subjectId: customer }),
            expect.objectContaining({ invariant: 'counters_match_transfers', subjectId: operatorAccounts.settlementAch }),
          ]),
        );
        throw new Error('rolled back on purpose');
      })
      .catch((error: Error) => expect(error.message).toBe('rolled back on purpose'));
    expect((await checkLedger(database())).ok).toBe(true);
  });

  it('finds a pending transfer resolved after its deadline', async () => {
    const customer = await openCustomerAccount(database(), 1_000n);
    const pending = { ...payment(customer, operatorAccounts.settlementAch, 100n), flags: transferFlags.pending, timeoutSeconds: 3_600 };
    await createTransfers(database(), [pending]);
    await createTransfers(database(), [{ id: randomUUID(), pendingId: pending.id, flags: transferFlags.postPendingTransfer }]);
    await database()
      .transaction(async (tx) => {
        await tx.query(`UPDATE pending_transfer_states SET expires_at = now() - interval '1 hour' WHERE pending_id = $1`, [pending.id]);
        const check = await checkLedger(tx);
        expect(check.violations).toEqual([
          expect.objectContaining({
            invariant: 'pending_resolved_once_in_time',
            subjectId: pending.id,
            detail: 'pending transfer was resolved after it expired',
          }),
        ]);
        throw new Error('rolled back on purpose');
      })
      .catch((error: Error) => expect(error.message).toBe('rolled back on purpose'));
    expect((await checkLedger(database())).ok).toBe(true);
  });
});
