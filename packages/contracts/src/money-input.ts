/**
 * Turning what a person typed into integer cents, by string arithmetic only: "12.5" is 1250 cents,
 * never 12.5 * 100 in floating point. Zod-free, so any screen can use it.
 */

/** The largest single payment the bank accepts: $1,000,000.00. Larger is a typing mistake or fraud. */
export const maxPaymentCents = 100_000_000;

export type DollarsParseResult = { ok: true; cents: number } | { ok: false; reason: 'invalid' | 'not_positive' | 'fractional_cent' | 'too_large' };

/** Whole dollars (grouped or not) with optional cents, or cents alone: ".50" is $0.50, as people write it. */
const dollarsPattern = /^(\d{1,3}(,\d{3})+|\d+)?(\.(\d*))?$/;

export function parseDollarsToCents(text: string): DollarsParseResult {
  const trimmed = text.trim().replace(/^\$/, '');
  const match = dollarsPattern.exec(trimmed);
  // Neither dollars nor cents ("", "." or "$"): nothing was typed that could be an amount.
  if (!match || (match[1] === undefined && !match[4])) return { ok: false, reason: 'invalid' };
  const wholeDigits = (match[1] ?? '').replaceAll(',', '');
  const fraction = match[4] ?? '';
  if (fraction.length > 2) return { ok: false, reason: 'fractional_cent' };
  // Compare by length first so that a 40-digit amount never becomes an imprecise number.
  const whole = wholeDigits.replace(/^0+(?=\d)/, '');
  if (whole.length > String(maxPaymentCents / 100).length) return { ok: false, reason: 'too_large' };
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (cents <= 0) return { ok: false, reason: 'not_positive' };
  if (cents > maxPaymentCents) return { ok: false, reason: 'too_large' };
  return { ok: true, cents };
}

/** ABA routing number: nine digits whose weighted sum (3, 7, 1 repeating) is a multiple of ten. */
export function isValidRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  const sum = weights.reduce((total, weight, index) => total + weight * Number(value[index]), 0);
  return sum % 10 === 0;
}
