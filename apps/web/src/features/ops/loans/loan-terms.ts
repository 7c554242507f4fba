import { levelPaymentCents, loanRules } from '@strongroom/contracts/loans.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const aprRangeMessage = 'the APR is 0% to 36%';

/**
 * An APR typed as a percentage ("12", "12.5", "12.50%") in, whole basis points out (1,250), by the
 * digits of the text: no float ever holds the rate. Two decimals at most, since a basis point is the
 * hundredth of a percent; 0% to 36% (loanRules.maxAprBps).
 */
export function parseAprPercentToBps(text: string): Parsed<number> {
  const trimmed = text.trim().replace(/\s*%$/, '');
  if (trimmed === '') return { ok: false, message: validationMessages.required };
  const match = /^(\d{1,3})(?:\.(\d*))?$/.exec(trimmed);
  if (!match) return { ok: false, message: validationMessages.numberInvalid };
  const fraction = match[2] ?? '';
  if (fraction.length > 2) return { ok: false, message: 'the APR has at most two decimals (a basis point)' };
  const bps = Number(match[1]) * 100 + Number(fraction.padEnd(2, '0'));
  if (bps > loanRules.maxAprBps) return { ok: false, message: aprRangeMessage };
  return { ok: true, value: bps };
}

/** A term in whole months, 1 to 84. */
export function parseTermMonths(text: string): Parsed<number> {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, message: validationMessages.required };
  if (!/^\d{1,4}$/.test(trimmed)) return { ok: false, message: validationMessages.numberInvalid };
  const months = Number(trimmed);
  if (months < loanRules.minTermMonths || months > loanRules.maxTermMonths) return { ok: false, message: 'the term is 1 to 84 months' };
  return { ok: true, value: months };
}

/**
 * The level monthly payment the customer would owe, as the server's schedule computes it (docs/product.md
 * section 6): the one formula in contracts/loans.ts, in exact integer arithmetic, rounded half-up once.
 */
export function monthlyPaymentCents(amountCents: number, aprBps: number, termMonths: number): number {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new RangeError('an amount is positive whole cents');
  if (!Number.isInteger(aprBps) || aprBps < 0) throw new RangeError('an APR is whole basis points');
  if (!Number.isInteger(termMonths) || termMonths < 1) throw new RangeError('a term is whole months');
  return Number(levelPaymentCents(BigInt(amountCents), aprBps, termMonths));
}

/** Debt-to-income in basis points as a percentage with one decimal: 3,512 -> "35.1%". */
export function formatRatioBps(bps: number): string {
  const tenths = Math.round(bps / 10);
  return `${Math.trunc(tenths / 10)}.${tenths % 10}%`;
}

/** An APR in whole basis points as a percentage with two decimals: 1,250 -> "12.50%" (the contracts' one wording). */
export { formatAprBps as formatAprPercent } from '@strongroom/contracts/loans.ts';
