import type { CardType } from '@strongroom/contracts/cards.ts';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { balanceOf, lookupAccounts } from '../../ledger/accounts.ts';
import { cardNumberLookup, isLuhnValid } from './card-numbers.ts';
import { accountById, findCardByLookup, type CardRow } from './card-repository.ts';
import { lockedCreditCardOwed, owedOf } from './credit-line.ts';

// ---- Card push (POST /transfers kind card) to a card of this bank ----

/** What the payment path needs to pay into a card of this bank (payments' OwnCardTarget). */
export interface CardPushTarget {
  status: CardRow['status'];
  customerId: string;
  type: CardType;
  last4: string;
  checkingAccountId: string;
  checkingLedgerAccountId: string;
  checkingOwedLedgerAccountId: string | null;
  cardLedgerAccountId: string | null;
  owedCents: bigint;
  lockedOwedCents?: (tx: Queryable) => Promise<bigint>;
}

/**
 * Finds a card of this bank by its number through the lookup hash (no number is decrypted), for a
 * card push; undefined for any other number, which then goes to the card rail as before.
 */
export async function cardPushTargetOf(db: Queryable, keys: Config['cardKeys'], cardNumber: string): Promise<CardPushTarget | undefined> {
  if (!isLuhnValid(cardNumber)) return undefined;
  const card = await findCardByLookup(db, cardNumberLookup(keys, cardNumber));
  if (!card?.last4) return undefined;
  const checking = await accountById(db, card.linked_account_id);
  if (!checking) return undefined;
  let owedCents = 0n;
  if (card.type === 'credit' && card.ledger_account_id && card.credit_limit_cents !== null) {
    const [line] = await lookupAccounts(db, [card.ledger_account_id]);
    if (line) owedCents = owedOf(BigInt(card.credit_limit_cents), balanceOf(line).balanceCents);
  }
  const creditLine = card.type === 'credit' ? card.ledger_account_id : null;
  return {
    status: card.status,
    customerId: card.customer_id,
    type: card.type,
    last4: card.last4,
    checkingAccountId: checking.id,
    checkingLedgerAccountId: checking.ledger_account_id,
    checkingOwedLedgerAccountId: checking.owed_ledger_account_id,
    cardLedgerAccountId: card.ledger_account_id,
    owedCents,
    ...(creditLine ? { lockedOwedCents: (tx: Queryable) => lockedCreditCardOwed(tx, creditLine) } : {}),
  };
}
