import { lineCategory, lineDescription, headingParty, signedLineCents, type HistoryLineFacts } from '@strongroom/contracts/history-line.ts';
import { merchantCategory } from '@strongroom/contracts/cards.ts';
import type { Transaction } from '@strongroom/contracts/transactions.ts';
import { centsToJson } from '../../platform/money.ts';
import { visibleStatus } from '../../platform/payment-status.ts';
import type { LineRow } from './repository.ts';

/** The stored facts a line is worded from (contracts' history-line.ts words them). */
export function lineFactsOf(line: Pick<LineRow, 'kind' | 'message' | 'counterparty_name' | 'counterparty_bank_name' | 'details'>): HistoryLineFacts {
  return {
    kind: line.kind,
    message: line.message,
    counterpartyName: line.counterparty_name,
    counterpartyBankName: line.counterparty_bank_name,
    senderName: line.details.senderName ?? null,
    // Only a payment into a credit card of this bank names the card's ledger account (payments' card planner).
    paysCreditCard: line.kind === 'card' && line.details.cardLedgerAccountId !== undefined,
    // A bill payment keeps the last four characters of the customer's account at the biller (payments' bill planner).
    accountEnding: line.details.accountEnding ?? null,
  };
}

export function presentLine(line: LineRow): Transaction {
  return {
    id: `${line.id}:${line.side}`,
    transferId: line.id,
    accountId: line.account_id,
    kind: line.kind,
    status: visibleStatus(line.status),
    amountCents: centsToJson(signedLineCents(line.amount_cents, line.side)),
    description: isCardPurchase(line) ? cardPurchaseDescription(line) : lineDescription(lineFactsOf(line), line.side),
    party: partyOfLine(line),
    category: lineCategory(line.kind, line.side),
    createdAt: line.created_at.toISOString(),
  };
}

/** Who a line's heading names ("To Grace Landlord"): none for a card purchase, whose description names the merchant. */
export function partyOfLine(line: Pick<LineRow, 'kind' | 'side' | 'message' | 'counterparty_name' | 'counterparty_bank_name' | 'details'>): string | null {
  return isCardPurchase(line) ? null : headingParty(lineFactsOf(line), line.side);
}

/** A purchase with a debit card (cards module): its line names the merchant, not a payee. */
function isCardPurchase(line: Pick<LineRow, 'kind' | 'details'>): boolean {
  return line.kind === 'card' && line.details.cardPurchase === 'true';
}

const releaseDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/**
 * "Corner Grocer · Groceries · Pending - releases on Dec 1, 2026" while the hold waits; the
 * merchant and the category from its merchant category code once it cleared; "Hold released"
 * after a reversal or when the hold expired; "Declined: Card frozen" for an attempt that moved nothing.
 */
export function cardPurchaseDescription(line: Pick<LineRow, 'status' | 'counterparty_name' | 'details'>): string {
  const merchant = line.details.merchantName ?? line.counterparty_name;
  const base = `${merchant} · ${merchantCategory(line.details.mcc ?? '')}`;
  if (line.status === 'pending' && line.details.releasesAt) return `${base} · Pending - releases on ${releaseDate.format(new Date(line.details.releasesAt))}`;
  if (line.status === 'returned') return `${base} · Hold released`;
  if (line.status === 'rejected' && line.details.declined) return `${base} · Declined: ${line.details.declined}`;
  return base;
}
