import type { Database } from '../../db/database.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { bookMovements } from '../money/service.ts';
import { findFundingSourceById, findMicroDeposit, markFailed, markMicroDepositReturned } from './repository.ts';

/**
 * A micro-deposit the other bank returned: its money comes back (kinds.ts: micro_deposit_returned,
 * under an id derived from the micro-deposit's) in the transaction that marks it returned, and the
 * account can no longer be verified. False when it
 * was not a sent micro-deposit (unknown, or returned before).
 */
export async function returnMicroDeposit(
  dependencies: { db: Database; liveEvents?: LiveEvents },
  microDepositId: string,
  returnCode: string,
): Promise<boolean> {
  const { db } = dependencies;
  const deposit = await findMicroDeposit(db, microDepositId);
  if (!deposit || deposit.status !== 'sent') return false;
  const customerId = await retryOnWriteConflict(() =>
    db.transaction(async (tx) => {
      if (!(await markMicroDepositReturned(tx, microDepositId, returnCode))) return undefined;
      const [taken] = await bookMovements(tx, [
        { id: derivedUuid(microDepositId, 'return'), kind: 'micro_deposit_returned', amountCents: deposit.amount_cents },
      ]);
      if (taken?.outcome === 'refused') throw new Error(`could not take back micro-deposit ${microDepositId}: ${taken.code}`);
      const source = (await markFailed(tx, deposit.funding_source_id)) ?? (await findFundingSourceById(tx, deposit.funding_source_id));
      if (!source) return undefined;
      await notifyCustomer(tx, {
        customerId: source.customer_id,
        kind: 'funding_source',
        name: 'Account not verified',
        text: `The bank of your account ending ${source.last4} returned our small deposits (${returnCode}), so it cannot be linked. Check the account and routing numbers and link it again.`,
        link: '/deposit/sources',
      });
      return source.customer_id;
    }),
  );
  if (customerId) dependencies.liveEvents?.publish(customerId, 'notifications');
  return customerId !== undefined;
}
