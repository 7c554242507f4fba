import type { Queryable } from '../../db/database.ts';
import { insertCardPurchasePayment } from './repository.ts';

/**
 * The history line of a purchase with a debit card (issue 13): a payment row with the id of the
 * authorisation's pending ledger transfer, kind 'card', money out of the checking account the card
 * spends from, counterparty the merchant. The cards module moves the money; this row is only what
 * history, statements and receipts word. Written once, finished or pending, through
 * repository.ts (the one writer of the payments table), and never at a rail (the settlement sweep
 * would settle it).
 */
export interface CardPurchaseLine {
  id: string;
  customerId: string;
  fromAccountId: string;
  amountCents: bigint;
  merchantName: string;
  mcc: string;
  last4: string;
  releasesAt: Date;
}

export async function recordCardPurchaseLine(db: Queryable, line: CardPurchaseLine): Promise<void> {
  await insertCardPurchasePayment(db, {
    id: line.id,
    customerId: line.customerId,
    status: 'pending',
    statusReason: null,
    fromAccountId: line.fromAccountId,
    amountCents: line.amountCents,
    merchantName: line.merchantName,
    cardLabel: `•••• ${line.last4}`,
    details: { cardPurchase: 'true', merchantName: line.merchantName, mcc: line.mcc, last4: line.last4, releasesAt: line.releasesAt.toISOString() },
  });
}

/**
 * A declined purchase with a debit card: a line that moved nothing ('rejected', with the reason), so
 * the customer sees the attempt in history as card apps show it. Its id is the authorisation's.
 */
export async function recordDeclinedCardPurchaseLine(db: Queryable, line: Omit<CardPurchaseLine, 'releasesAt'> & { reason: string }): Promise<void> {
  await insertCardPurchasePayment(db, {
    id: line.id,
    customerId: line.customerId,
    status: 'rejected',
    statusReason: line.reason,
    fromAccountId: line.fromAccountId,
    amountCents: line.amountCents,
    merchantName: line.merchantName,
    cardLabel: `•••• ${line.last4}`,
    details: { cardPurchase: 'true', merchantName: line.merchantName, mcc: line.mcc, last4: line.last4, declined: line.reason },
  });
}

/** Cleared: the line is completed, for what cleared (which may be less than the hold). */
export async function clearCardPurchaseLine(db: Queryable, id: string, clearedCents: bigint): Promise<void> {
  await db.query(`UPDATE payments SET status = 'completed', amount_cents = $2, updated_at = now() WHERE id = $1 AND kind = 'card' AND status = 'pending'`, [
    id,
    clearedCents,
  ]);
}

/** Reversed or expired: the hold is released, the money never left. */
export async function releaseCardPurchaseLine(db: Queryable, id: string): Promise<void> {
  await db.query(
    `UPDATE payments SET status = 'returned', status_reason = 'Hold released', updated_at = now() WHERE id = $1 AND kind = 'card' AND status = 'pending'`,
    [id],
  );
}
