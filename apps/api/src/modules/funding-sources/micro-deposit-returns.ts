import type { Database } from '../../db/database.ts';
import { ledgers, operatorAccounts, transferCodes } from '../../ledger/codes.ts';
import { createTransfers } from '../../ledger/create-transfers.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { findFundingSourceById, findMicroDeposit, markFailed, markMicroDepositReturned } from './repository.ts';

/**
 * A micro-deposit the other bank returned: its money comes back (ACH settlement -> verification
 * expense, under an id derived from the micro-deposit's, so writing it twice is harmless), then
 * the micro-deposit is marked returned and the account can no longer be verified. False when it
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
  const [outcome] = await createTransfers(db, [
    {
      id: derivedUuid(microDepositId, 'return'),
      debitAccountId: operatorAccounts.settlementAch,
      creditAccountId: operatorAccounts.accountVerificationExpense,
      amountCents: deposit.amount_cents,
      ledger: ledgers.usd,
      code: transferCodes.microDeposit,
    },
  ]);
  if (!outcome || (outcome.result !== 'ok' && outcome.result !== 'exists'))
    throw new Error(`could not take back micro-deposit ${microDepositId}: ${outcome?.result ?? 'no result'}`);
  const customerId = await db.transaction(async (tx) => {
    if (!(await markMicroDepositReturned(tx, microDepositId, returnCode))) return undefined;
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
  });
  if (customerId) dependencies.liveEvents?.publish(customerId, 'notifications');
  return customerId !== undefined;
}
