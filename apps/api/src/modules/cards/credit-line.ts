import type { Clock } from '../../db/clock.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { balanceOf, createAccounts, lookupAccounts } from '../../ledger/accounts.ts';
import { accountCodes, ledgers, operatorAccounts, transferCodes } from '../../ledger/codes.ts';
import { createTransfers, createTransfersIn } from '../../ledger/create-transfers.ts';
import { accountFlags } from '../../ledger/types.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { AppError } from '../../platform/errors.ts';
import { owingAmong, repayOwedIn } from '../accounts/service.ts';
import { accountById, findCreditCardByLedgerAccount, type CardRow } from './card-repository.ts';

/** What a credit card owes: its limit less what is left of the line (posted), never below zero. */
export function owedOf(limitCents: bigint, lineBalanceCents: bigint): bigint {
  const owed = limitCents - lineBalanceCents;
  return owed > 0n ? owed : 0n;
}

/** A credit card's own ledger account: a credit card without one is a defect. */
export function creditLineOf(card: CardRow): string {
  if (!card.ledger_account_id || card.credit_limit_cents === null) throw new Error(`credit card ${card.id} has no line of credit`);
  return card.ledger_account_id;
}

/** What a credit card owes now, from the ledger; the caller holds the card's row lock when it pays against it. */
export async function creditCardOwed(db: Queryable, card: CardRow): Promise<bigint> {
  const [line] = await lookupAccounts(db, [creditLineOf(card)]);
  if (!line || card.credit_limit_cents === null) throw new Error(`credit card ${card.id} has no ledger account`);
  return owedOf(BigInt(card.credit_limit_cents), balanceOf(line).balanceCents);
}

/**
 * For a card push (payments' planner) to a credit card of this bank, inside the transaction that
 * moves the money: locks the card's row, as `payCard` does, and answers what it owes now, so that a
 * push and a payment (or two pushes) at the same moment never pay the debt twice.
 */
export async function lockedCreditCardOwed(tx: Queryable, cardLedgerAccountId: string): Promise<bigint> {
  const card = await findCreditCardByLedgerAccount(tx, cardLedgerAccountId, { lock: true });
  if (!card) throw new Error(`no credit card has the ledger account ${cardLedgerAccountId}`);
  return creditCardOwed(tx, card);
}

/**
 * A credit card's own ledger account, credit-normal and never overdrawn (debits_must_not_exceed_credits),
 * funded with the credit limit from loans receivable: a purchase debits it, so the ledger itself
 * refuses one beyond the available credit (TigerBeetle's credit-line recipe). Both ids are derived
 * from the card, so a repeat (a crash, two approvals at once) answers `exists`.
 */
export async function openCreditLine(db: Database, cardId: string, ledgerAccountId: string, limitCents: bigint): Promise<void> {
  const [account] = await createAccounts(db, [
    { id: ledgerAccountId, ledger: ledgers.usd, code: accountCodes.card, flags: accountFlags.debitsMustNotExceedCredits },
  ]);
  if (!account || (account.result !== 'ok' && account.result !== 'exists')) throw new Error(`the card's ledger account was refused: ${account?.result}`);
  const [grant] = await createTransfers(db, [
    {
      id: derivedUuid('card-credit-line', cardId),
      debitAccountId: operatorAccounts.loansReceivable,
      creditAccountId: ledgerAccountId,
      amountCents: limitCents,
      ledger: ledgers.usd,
      code: transferCodes.cardCreditLine,
    },
  ]);
  if (!grant || (grant.result !== 'ok' && grant.result !== 'exists')) throw new AppError('already_decided', 'This card was already decided');
}

/**
 * Closing empties the card's account, in the closing transaction: the line of credit goes back where
 * it came from (the card's account -> loans receivable), and whatever the card holds beyond its
 * limit (a credit balance: paid more than it owed, say by two payments at once before issue 30) is
 * the customer's money and goes back to the checking account the card belongs to (issue 30 item 2).
 * Ids are derived from the card, so a retried transaction writes them once. Answers the refund.
 */
export async function returnCreditLine(tx: Queryable, card: CardRow, clock: Clock | undefined): Promise<bigint> {
  const [account] = await lookupAccounts(tx, [creditLineOf(card)]);
  const checking = await accountById(tx, card.linked_account_id);
  if (!account || !checking || card.credit_limit_cents === null) throw new Error(`credit card ${card.id} has no line of credit or no checking account`);
  const left = balanceOf(account).availableCents;
  const limit = BigInt(card.credit_limit_cents);
  const lineCents = left < limit ? left : limit;
  const refundCents = left - lineCents;
  const transfers = [
    ...(lineCents > 0n
      ? [
          {
            id: derivedUuid('card-credit-line-returned', card.id),
            debitAccountId: account.id,
            creditAccountId: operatorAccounts.loansReceivable,
            amountCents: lineCents,
            ledger: ledgers.usd,
            code: transferCodes.cardCreditLine,
          },
        ]
      : []),
    ...(refundCents > 0n
      ? [
          {
            id: derivedUuid('card-credit-balance-refunded', card.id),
            debitAccountId: account.id,
            creditAccountId: checking.ledger_account_id,
            amountCents: refundCents,
            ledger: ledgers.usd,
            code: transferCodes.cardCreditRefund,
          },
        ]
      : []),
  ];
  const outcomes = await createTransfersIn(tx, transfers, clock);
  for (const outcome of outcomes) {
    if (outcome.result !== 'ok' && outcome.result !== 'exists') throw new Error(`closing card ${card.id} left money in its account: ${outcome.result}`);
  }
  if (refundCents > 0n)
    await repayOwedIn(tx, await owingAmong(tx, [checking.ledger_account_id]), (inTx, transfers) => createTransfersIn(inTx, transfers, clock));
  return refundCents;
}
