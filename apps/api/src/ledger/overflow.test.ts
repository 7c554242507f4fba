import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test/databases.ts';
import { createAccounts } from './accounts.ts';
import { accountCodes } from './codes.ts';
import { createTransfers } from './create-transfers.ts';
import { expectLedgerConsistent, payment, usd } from '../test/ledger.ts';
import { amountMaxCents } from './limits.ts';
import { transferFlags } from './types.ts';

/** Counters at the top of PostgreSQL's bigint, in a database of their own. */
describeEachDatabase('ledger: counters that would overflow bigint', (database) => {
  it('answers each overflows_<counter> result instead of wrapping or throwing', async () => {
    const ids = Array.from({ length: 8 }, () => randomUUID());
    await createAccounts(
      database(),
      ids.map((id) => ({ id, ledger: usd, code: accountCodes.settlementAch })),
    );
    const [x, y, z, w, v, u, s, r] = ids as [string, string, string, string, string, string, string, string];
    const pending = (from: string, to: string, amountCents: bigint) => ({
      ...payment(from, to, amountCents),
      flags: transferFlags.pending,
    });
    const outcomes = await createTransfers(database(), [
      payment(x, y, amountMaxCents),
      payment(x, z, 1n),
      payment(z, y, 1n),
      pending(w, v, amountMaxCents),
      pending(w, u, 1n),
      pending(u, v, 1n),
      pending(x, s, 1n),
      pending(r, y, 1n),
    ]);
    expect(outcomes.map((outcome) => outcome.result)).toEqual([
      'ok',
      'overflows_debits_posted',
      'overflows_credits_posted',
      'ok',
      'overflows_debits_pending',
      'overflows_credits_pending',
      'overflows_debits',
      'overflows_credits',
    ]);
    await expectLedgerConsistent(database());
  });
});
