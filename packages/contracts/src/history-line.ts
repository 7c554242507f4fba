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
}

/** The kinds of payment that can make a line on each side. */
export const lineKindsBySide: Readonly<Record<LineSide, readonly PaymentKind[]>> = {
  out: ['own', 'internal', 'external', 'card', 'withdrawal', 'loan_repayment'],
  in: ['own', 'internal', 'deposit', 'funding', 'loan_disbursement', 'referral_bonus'],
};

/** The seed's history categories: Transfer, Debit and Withdrawal (the seed's 'withdraw') are money out; Credit, Deposit and Funding money in. */
export function lineCategory(kind: PaymentKind, side: LineSide): TransactionCategory {
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
  if (side === 'in') return `From ${facts.senderName ?? facts.counterpartyName}`;
  return facts.counterpartyBankName ? `To ${facts.counterpartyName}, ${facts.counterpartyBankName}` : `To ${facts.counterpartyName}`;
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
