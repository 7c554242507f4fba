import type { PaymentKind } from './payments.ts';
import type { TransactionCategory } from './transactions.ts';

/**
 * The one definition of a history line: one side of one payment on one of the customer's accounts,
 * worded from the payment's stored facts. The history screen, the dashboard, the Details dialog,
 * receipts and statements all word a line through this file, and a history search matches the
 * description made here, so a line reads and is found alike everywhere.
 */
export type LineSide = 'in' | 'out';

/** What a line is worded from, as the payment stored it. */
export interface HistoryLineFacts {
  kind: PaymentKind;
  /** The reason the customer gave; blank when none. */
  message: string;
  counterpartyName: string;
  counterpartyBankName: string | null;
  /** The sender's name as the paying side gave it, when it did (money in); otherwise `counterpartyName`. */
  senderName: string | null;
  /** A card payment into a credit card's account at this bank: it pays what the card owes. */
  paysCreditCard?: boolean;
  /** A bill payment: the last four characters of the customer's account number at the biller ("account ending 4821"). */
  accountEnding?: string | null;
}

/** The kinds of payment that can make a line on each side. */
export const lineKindsBySide: Readonly<Record<LineSide, readonly PaymentKind[]>> = {
  out: ['own', 'internal', 'external', 'card', 'bill', 'withdrawal', 'loan_repayment', 'fee', 'dispute_reversal'],
  in: ['own', 'internal', 'deposit', 'funding', 'loan_disbursement', 'referral_bonus', 'interest', 'fee_refund', 'dispute_credit'],
};

/**
 * The seed's history categories: Transfer, Debit and Withdrawal (the seed's 'withdraw') are money out; Credit, Deposit and Funding money in.
 * Interest (money in) and Fee (a fee out, or a fee given back in) are the bank's own (issue 32).
 */
export function lineCategory(kind: PaymentKind, side: LineSide): TransactionCategory {
  if (kind === 'interest') return 'Interest';
  if (kind === 'fee' || kind === 'fee_refund') return 'Fee';
  if (side === 'in') {
    if (kind === 'deposit') return 'Deposit';
    if (kind === 'funding') return 'Funding';
    return 'Credit';
  }
  if (kind === 'card') return 'Debit';
  if (kind === 'withdrawal') return 'Withdrawal';
  return 'Transfer';
}

/** The seed shows the payment's reason as its description; without one, who it was with. */
export function lineDescription(facts: HistoryLineFacts, side: LineSide): string {
  if (facts.message.trim().length > 0) return facts.message;
  if (facts.kind === 'funding') return 'Opening deposit';
  if (facts.kind === 'referral_bonus') return 'Referral bonus';
  if (facts.kind === 'interest') return 'Interest paid';
  if (facts.kind === 'fee') return 'Monthly maintenance fee';
  if (facts.kind === 'fee_refund') return 'Fee refunded';
  // A dispute's lines carry their words ("Provisional credit: dispute of ..."); these are for one without (issue 34).
  if (facts.kind === 'dispute_credit') return 'Provisional credit';
  if (facts.kind === 'dispute_reversal') return 'Provisional credit reversed';
  const party = lineParty(facts, side);
  // Only the bank's own payments (above) have no party.
  if (party === null) throw new Error(`a ${facts.kind} payment names who it was with`);
  return party;
}

/** The payments whose other party is the bank itself: no "To" or "From" names anyone. */
const bankOwnKinds: ReadonlySet<PaymentKind> = new Set(['funding', 'referral_bonus', 'interest', 'fee', 'fee_refund', 'dispute_credit', 'dispute_reversal']);

/**
 * Who the line was with, as its heading names them: "To Grace Landlord", "From Ada Lovelace";
 * paying a credit card is "Credit card payment", whoever holds the card; paying a bill "Bill
 * payment to City Water, account ending 4821". Null for the opening
 * deposit and a referral bonus, whose other party is the bank itself.
 */
export function lineParty(facts: HistoryLineFacts, side: LineSide): string | null {
  if (bankOwnKinds.has(facts.kind)) return null;
  // A bill payment is money out only, to a biller: its line names the biller and the customer's account there.
  if (facts.kind === 'bill') return billPaymentParty(facts.counterpartyName, facts.accountEnding ?? null);
  if (side === 'in') return `From ${facts.senderName ?? facts.counterpartyName}`;
  if (facts.kind === 'card' && facts.paysCreditCard === true) return 'Credit card payment';
  return facts.counterpartyBankName ? `To ${facts.counterpartyName}, ${facts.counterpartyBankName}` : `To ${facts.counterpartyName}`;
}

/** A bill payment's other party, as its line names it: "Bill payment to City Water, account ending 4821" (issue 33). */
export function billPaymentParty(billerName: string, accountEnding: string | null): string {
  return accountEnding ? `Bill payment to ${billerName}, account ending ${accountEnding}` : `Bill payment to ${billerName}`;
}

/**
 * The party a line's heading names. An own transfer's facts name the account the money went to,
 * which on the line in is this line's own account, so that line names the customer's own account
 * instead. (The description keeps `lineParty`'s words, which the history search's SQL matches.)
 */
export function headingParty(facts: HistoryLineFacts, side: LineSide): string | null {
  if (facts.kind === 'own' && side === 'in' && !facts.senderName) return 'From your own account';
  return lineParty(facts, side);
}

/** The separator between the parts of a line's heading, as card purchases already read ("Corner Grocer · Groceries"). */
const headingSeparator = ' · ';

/**
 * A line as the history list, the dashboard and statements show it: who it was with, then its
 * description ("To Grace Landlord · Rent for May"); the party once when the description is the party already.
 */
export function lineHeading(party: string | null | undefined, description: string): string {
  if (!party || party === description) return description;
  return `${party}${headingSeparator}${description}`;
}

/** A payment's amount as its line shows it: money out is negative. */
export function signedLineCents(amountCents: bigint, side: LineSide): bigint {
  if (amountCents < 0n) throw new RangeError('a payment amount is never negative');
  return side === 'out' ? -amountCents : amountCents;
}

/** The sides, and the kinds on each, that make lines of one category; a side left out has none. */
export function lineKindsOfCategory(category: TransactionCategory): Partial<Record<LineSide, readonly PaymentKind[]>> {
  const sides: Partial<Record<LineSide, readonly PaymentKind[]>> = {};
  for (const side of ['out', 'in'] as const) {
    const kinds = lineKindsBySide[side].filter((kind) => lineCategory(kind, side) === category);
    if (kinds.length > 0) sides[side] = kinds;
  }
  return sides;
}

/** Whether a category is money out (shown in red with a minus); every other category is money in. */
export function isMoneyOutCategory(category: TransactionCategory): boolean {
  return lineKindsOfCategory(category).out !== undefined;
}
