import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import type { SmsSender } from '../../platform/messaging/sms-sender.ts';
import { bookMovements } from '../money/service.ts';
import { microDepositsWithoutTransfer, verifiedPhoneOf } from './repository.ts';

/** Sending the two micro-deposits of a new link: through the ledger, and (sandbox) their amounts by SMS. */

/**
 * The micro-deposits are real money the bank spends (kinds.ts: micro_deposit, account verification
 * expense -> ACH settlement), booked by the money module as one linked pair under the ids recorded
 * with the link, in the transaction that records it. Sending them again answers `already`.
 */
export async function sendMicroDeposits(tx: Queryable, deposits: readonly { id: string; amountCents: bigint }[]): Promise<void> {
  const answers = await bookMovements(
    tx,
    deposits.map((deposit) => ({ id: deposit.id, kind: 'micro_deposit' as const, amountCents: deposit.amountCents })),
    { linked: true },
  );
  const refused = answers.find((answer) => answer.outcome === 'refused');
  if (refused) throw new Error(`the ledger refused a micro-deposit: ${refused.code}`);
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

/**
 * Sends the micro-deposits of links recorded before a link and its micro-deposits committed in one
 * transaction (decision 069): a crash between the two left them unsent. Part of the payments sweep;
 * a link made since has none to find.
 */
export async function finishMicroDeposits(db: Database, olderThanSeconds: number, limit = 100): Promise<number> {
  const unsent = await microDepositsWithoutTransfer(db, olderThanSeconds, limit);
  const bySource = new Map<string, typeof unsent>();
  for (const deposit of unsent) bySource.set(deposit.funding_source_id, [...(bySource.get(deposit.funding_source_id) ?? []), deposit]);
  for (const deposits of bySource.values()) {
    await retryOnWriteConflict(() =>
      db.transaction((tx) =>
        sendMicroDeposits(
          tx,
          deposits.map((deposit) => ({ id: deposit.id, amountCents: deposit.amount_cents })),
        ),
      ),
    );
  }
  return unsent.length;
}
