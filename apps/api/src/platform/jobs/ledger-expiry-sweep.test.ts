import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { TestClock } from '../../db/clock.ts';
import { lookupAccounts, balanceOf } from '../../ledger/accounts.ts';
import { ledgers, operatorAccounts, transferCodes } from '../../ledger/codes.ts';
import { createTransfers } from '../../ledger/create-transfers.ts';
import { lookupPendingStates } from '../../ledger/history.ts';
import { transferFlags } from '../../ledger/types.ts';
import { ledgerExpirySweepIntervalMs } from '../../app.ts';
import { buildTestApp } from '../../test/app.ts';
import { onboardedCustomer } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';

describeEachDatabase('the background sweep of expired reservations', (database) => {
  it('gives reserved money back once a pending transfer times out, through the job queue', async () => {
    const clock = new TestClock();
    const { app } = await buildTestApp(database(), { dependencies: { clock } });
    const customer = await onboardedCustomer({ db: database(), storage: app.services.storage, encryptionKey: Buffer.alloc(32, 1) }, { fundCents: 10_000n });
    const checking = customer.accounts.find((account) => account.type === 'checking');
    if (!checking) throw new Error('no checking account');
    const pendingId = randomUUID();
    const [outcome] = await createTransfers(
      database(),
      [
        {
          id: pendingId,
          debitAccountId: checking.ledgerAccountId,
          creditAccountId: operatorAccounts.settlementAch,
          amountCents: 4_000n,
          ledger: ledgers.usd,
          code: transferCodes.externalTransfer,
          flags: transferFlags.pending,
          timeoutSeconds: 1,
        },
      ],
      clock,
    );
    expect(outcome?.result).toBe('ok');
    const reserved = balanceOf((await lookupAccounts(database(), [checking.ledgerAccountId]))[0]!);
    expect(reserved).toMatchObject({ balanceCents: 10_000n, availableCents: 6_000n });

    // Before its deadline the sweep runs and leaves the reservation alone.
    clock.advance(999);
    await app.services.jobs.runOnce();
    expect(balanceOf((await lookupAccounts(database(), [checking.ledgerAccountId]))[0]!)).toMatchObject({ availableCents: 6_000n });
    expect((await lookupPendingStates(database(), [pendingId]))[0]?.state).toBe('pending');

    // The sweep is a recurring job: the next one is due an interval later.
    clock.advance(ledgerExpirySweepIntervalMs);
    await app.services.jobs.runOnce();
    const released = balanceOf((await lookupAccounts(database(), [checking.ledgerAccountId]))[0]!);
    expect(released).toMatchObject({ balanceCents: 10_000n, availableCents: 10_000n });
    expect((await lookupPendingStates(database(), [pendingId]))[0]?.state).toBe('expired');
    await app.close();
  });
});
