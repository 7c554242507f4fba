import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Database } from '../../db/database.ts';
import { ledgers, operatorAccounts, transferCodes } from '../../ledger/codes.ts';
import { createTransfers } from '../../ledger/create-transfers.ts';
import { transferFlags } from '../../ledger/types.ts';
import type { SmsSender } from '../../platform/messaging/sms-sender.ts';
import { microDepositsWithoutTransfer, verifiedPhoneOf } from './repository.ts';

/** Sending the two micro-deposits of a new link: through the ledger, and (sandbox) their amounts by SMS. */

/**
 * The micro-deposits are real money the bank spends (account verification expense -> ACH
 * settlement), posted as one linked pair under the ids recorded with the link. Sending them
 * again after a crash answers `exists`.
 */
export async function sendMicroDeposits(db: Database, deposits: readonly { id: string; amountCents: bigint }[]): Promise<void> {
  const outcomes = await createTransfers(
    db,
    deposits.map((deposit, index) => ({
      id: deposit.id,
      debitAccountId: operatorAccounts.accountVerificationExpense,
      creditAccountId: operatorAccounts.settlementAch,
      amountCents: deposit.amountCents,
      ledger: ledgers.usd,
      code: transferCodes.microDeposit,
      flags: index < deposits.length - 1 ? transferFlags.linked : 0,
    })),
  );
  const refused = outcomes.find((outcome) => outcome.result !== 'ok' && outcome.result !== 'exists');
  if (refused) throw new Error(`the ledger refused a micro-deposit: ${refused.result}`);
}

/**
 * The sandbox has no other bank to look at, so the amounts arrive by SMS (docs/product.md: the only two
 * numbers of one or two digits after "$0."). A real bank's customer reads them on the other bank's
 * statement.
 */
export async function sendSandboxAmounts(
  dependencies: { db: Database; sms: SmsSender; config: { bankName: string } },
  customerId: string,
  last4: string,
  deposits: readonly { amountCents: bigint }[],
): Promise<void> {
  const phone = await verifiedPhoneOf(dependencies.db, customerId);
  if (!phone) return;
  const amounts = deposits.map((deposit) => formatMoney(deposit.amountCents)).join(' and ');
  await dependencies.sms.send({
    to: phone,
    text: `${dependencies.config.bankName} sandbox: the two small deposits to your account ending ${last4} at another bank were ${amounts}. Enter both to verify it.`,
  });
}

/** Sends the micro-deposits a crash left unsent; part of the payments sweep. */
export async function finishMicroDeposits(db: Database, olderThanSeconds: number, limit = 100): Promise<number> {
  const unsent = await microDepositsWithoutTransfer(db, olderThanSeconds, limit);
  const bySource = new Map<string, typeof unsent>();
  for (const deposit of unsent) bySource.set(deposit.funding_source_id, [...(bySource.get(deposit.funding_source_id) ?? []), deposit]);
  for (const deposits of bySource.values()) {
    await sendMicroDeposits(
      db,
      deposits.map((deposit) => ({ id: deposit.id, amountCents: deposit.amount_cents })),
    );
  }
  return unsent.length;
}
