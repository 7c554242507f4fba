import type { Clock } from '../../db/clock.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { balanceOf, createAccounts, lookupAccounts } from '../../ledger/accounts.ts';
import { accountCodes, ledgers } from '../../ledger/codes.ts';
import { accountFlags } from '../../ledger/types.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { bookMovements } from '../money/service.ts';
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
 * funded with the credit limit from loans receivable (`grantCreditLine`): a purchase debits it, so
 * the ledger itself refuses one beyond the available credit (TigerBeetle's credit-line recipe). Its
 * id is derived from the card, so creating it again (a crash, two approvals at once) answers `exists`.
 */
export async function openCreditLineAccount(db: Database, ledgerAccountId: string): Promise<void> {
  const [account] = await createAccounts(db, [
    { id: ledgerAccountId, ledger: ledgers.usd, code: accountCodes.card, flags: accountFlags.debitsMustNotExceedCredits },
  ]);
  if (!account || (account.result !== 'ok' && account.result !== 'exists')) throw new Error(`the card's ledger account was refused: ${account?.result}`);
}

/** The line of credit, in the approving transaction, under an id derived from the card. */
export async function grantCreditLine(tx: Queryable, cardId: string, ledgerAccountId: string, limitCents: bigint, clock: Clock | undefined): Promise<void> {
  const [grant] = await bookMovements(
    tx,
    [{ id: derivedUuid('card-credit-line', cardId), kind: 'card_credit_line', toLedgerAccountId: ledgerAccountId, amountCents: limitCents }],
    { clock },
  );
  if (grant?.outcome === 'refused') throw new Error(`the line of credit of card ${cardId} was refused: ${grant.code}`);
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
  const answers = await bookMovements(
    tx,
    [
      ...(lineCents > 0n
        ? [
            {
              id: derivedUuid('card-credit-line-returned', card.id),
              kind: 'card_credit_line_returned' as const,
              fromLedgerAccountId: account.id,
              amountCents: lineCents,
            },
          ]
        : []),
      ...(refundCents > 0n
        ? [
            {
              id: derivedUuid('card-credit-balance-refunded', card.id),
              kind: 'card_credit_refund' as const,
              fromLedgerAccountId: account.id,
              toLedgerAccountId: checking.ledger_account_id,
              amountCents: refundCents,
            },
          ]
        : []),
    ],
    { clock },
  );
  const refused = answers.find((answer) => answer.outcome === 'refused');
  if (refused) throw new Error(`closing card ${card.id} left money in its account: ${refused.code}`);
  return refundCents;
}
