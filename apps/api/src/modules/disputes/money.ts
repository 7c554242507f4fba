import type { Clock } from '../../db/clock.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { balanceOf, lookupAccounts } from '../../ledger/accounts.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { ensureOwedAccount } from '../accounts/service.ts';
import { bookMovements, type BookedMovementKind } from '../money/service.ts';
import { moveMoney } from '../payments/service.ts';
import type { DisputeRow } from './repository.ts';
import { disputedTransactionOf } from './staff-presenter.ts';
import { disputedAccountOf, findStaffDispute } from './staff-repository.ts';

/**
 * The money of a dispute (issue 34; docs/disputes.md), each movement inside the caller's transaction
 * through the money module (decisions 065 and 069), under an id derived from the dispute's, so a
 * rerun or a second caller finds it done and nothing moves twice:
 * - the credit (provisional, or final when the bank decides for the customer before giving one):
 *   disputes suspense -> the disputed account, a payment of kind dispute_credit (a history line);
 * - when the bank decides for the customer, suspense is cleared: by the card network paying a card
 *   charge back (card settlement -> suspense), otherwise by the bank bearing it (dispute losses -> suspense);
 * - after a denial, on its reversal date, the credit taken back: the account -> suspense, a payment
 *   of kind dispute_reversal; what the account lacks is owed to the bank, as for a deposit returned
 *   after it was spent (accounts/owed.ts), and money that comes in later pays it.
 */

/** A payment's message is at most 140 characters (contracts' payments.ts). */
const messageMaxLength = 140;
/** The bank's name on a dispute's lines when the caller gives none (its lines name no other party: contracts' history-line.ts). */
const defaultBankName = 'The bank';

export function creditPaymentId(disputeId: string): string {
  return derivedUuid('dispute_credit', disputeId);
}

export function reversalPaymentId(disputeId: string): string {
  return derivedUuid('dispute_reversal', disputeId);
}

/** The disputed transaction as the customer's history words it: "Corner Grocer", "To Grace Landlord". */
async function disputedTransactionWords(tx: Queryable, disputeId: string): Promise<string> {
  const row = await findStaffDispute(tx, disputeId);
  if (!row) throw new Error(`dispute ${disputeId} not found`);
  return disputedTransactionOf(row);
}

function lineMessage(prefix: string, transaction: string): string {
  return `${prefix}: dispute of ${transaction}`.slice(0, messageMaxLength);
}

/**
 * The dispute's credit into the disputed account: "Provisional credit: dispute of <transaction>"
 * (or "Credit: dispute of ..." when `final`, a decision for the customer with no credit before).
 * Answers its payment id; a second call finds the payment made and moves nothing.
 */
export async function giveProvisionalCredit(
  tx: Queryable,
  dispute: DisputeRow,
  at: Clock | undefined,
  options: { bankName?: string; final?: boolean } = {},
): Promise<string> {
  const id = creditPaymentId(dispute.id);
  const transaction = await disputedTransactionWords(tx, dispute.id);
  const moved = await moveMoney(
    tx,
    {
      id,
      kind: 'dispute_credit',
      customerId: dispute.customer_id,
      fromAccountId: null,
      toAccountId: dispute.account_id,
      amountCents: dispute.amount_cents,
      counterpartyName: options.bankName ?? defaultBankName,
      message: lineMessage(options.final === true ? 'Credit' : 'Provisional credit', transaction),
    },
    at,
  );
  // Suspense has no limit: a refusal is a defect, and nothing of this credit commits.
  if (moved.outcome === 'refused') throw new Error(`the ledger refused the credit of dispute ${dispute.id}: ${moved.code}`);
  return id;
}

/**
 * A case decided for the customer: the credit it gave is the bank's to recover. A card purchase is
 * charged back, and the network's money comes back to card settlement; anything else the bank
 * bears. Answers the chargeback's transfer id, or null when the bank bore it.
 */
export async function settleForCustomer(tx: Queryable, dispute: DisputeRow, creditCents: bigint, at: Clock | undefined): Promise<string | null> {
  const chargeback = dispute.point_of_sale;
  const kind: BookedMovementKind = chargeback ? 'dispute_chargeback' : 'dispute_loss';
  const id = derivedUuid(kind, dispute.id);
  const [booked] = await bookMovements(tx, [{ id, kind, amountCents: creditCents }], { clock: at });
  if (booked?.outcome === 'refused') throw new Error(`the ledger refused the ${kind} of dispute ${dispute.id}: ${booked.code}`);
  return chargeback ? id : null;
}

/** Before a reversal's transaction: the account's ledger account of what it owes, created if the credit is more than it has now. */
export async function prepareReversal(db: Database, dispute: DisputeRow, creditCents: bigint): Promise<void> {
  const account = await disputedAccountOf(db, dispute.account_id);
  const [ledgerAccount] = await lookupAccounts(db, [account.ledger_account_id]);
  if (!ledgerAccount) throw new Error(`account ${account.id} has no ledger account`);
  if (balanceOf(ledgerAccount).availableCents < creditCents) await ensureOwedAccount(db, account);
}

/**
 * A denied case's credit taken back: "Provisional credit reversed: dispute of <transaction>", for
 * the whole credit. What the account does not have is first lent to it from what it owes the bank
 * (so its balance goes below zero by that much, and payments out of it wait until it is paid);
 * prepareReversal created that ledger account. Answers the payment id and what is now owed of it.
 */
export async function reverseProvisionalCredit(
  tx: Queryable,
  dispute: DisputeRow,
  creditCents: bigint,
  at: Clock | undefined,
  options: { bankName?: string } = {},
): Promise<{ paymentId: string; owedCents: bigint }> {
  const id = reversalPaymentId(dispute.id);
  const transaction = await disputedTransactionWords(tx, dispute.id);
  const account = await disputedAccountOf(tx, dispute.account_id);
  const [ledgerAccount] = await lookupAccounts(tx, [account.ledger_account_id]);
  if (!ledgerAccount) throw new Error(`account ${account.id} has no ledger account`);
  const available = balanceOf(ledgerAccount).availableCents;
  const shortCents = available >= creditCents ? 0n : creditCents - (available > 0n ? available : 0n);
  if (shortCents > 0n) {
    // prepareReversal makes this account; one spent meanwhile by a payment is found short on the next run.
    if (!account.owed_ledger_account_id) throw new Error(`account ${account.id} is short for the reversal of dispute ${dispute.id} and owes nowhere yet`);
    const [owed] = await bookMovements(
      tx,
      [
        {
          id: derivedUuid('dispute_reversal_owed', dispute.id),
          kind: 'dispute_reversal_owed',
          fromLedgerAccountId: account.owed_ledger_account_id,
          toLedgerAccountId: account.ledger_account_id,
          amountCents: shortCents,
        },
      ],
      { clock: at },
    );
    if (owed?.outcome === 'refused') throw new Error(`the ledger refused what dispute ${dispute.id}'s reversal leaves owed: ${owed.code}`);
  }
  const moved = await moveMoney(
    tx,
    {
      id,
      kind: 'dispute_reversal',
      customerId: dispute.customer_id,
      fromAccountId: dispute.account_id,
      toAccountId: null,
      amountCents: creditCents,
      counterpartyName: options.bankName ?? defaultBankName,
      message: lineMessage('Provisional credit reversed', transaction),
    },
    at,
  );
  // Spent between the reading and the taking: the caller's transaction rolls back, and the next run tries again.
  if (moved.outcome === 'refused') throw new Error(`dispute ${dispute.id}: the account was spent while its credit was taken back`);
  return { paymentId: id, owedCents: shortCents };
}
