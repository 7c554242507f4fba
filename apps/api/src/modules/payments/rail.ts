import { createHash } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Rail } from './repository.ts';

/**
 * The payment-rail simulator (PRODUCT.md section 4): when a payment that leaves or enters the bank
 * settles, and whether the receiving bank returns it. Production replaces the outcome with the
 * bank's real rail files; the timing rules stay the bank's promise to its customers (seed:
 * ACH 3-5 business days, wire within 24 hours).
 */
export type RailSpeed = Config['railSpeed'];

const fastDelayMs: Record<Rail, number> = { ach: 8_000, wire: 4_000, card: 3_000 };
const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

/** A number 0..n-1 fixed by the payment id, so a restart computes the same settlement time. */
function spreadOf(paymentId: string, n: number): number {
  return createHash('sha256').update(paymentId).digest().readUInt32BE(0) % n;
}

function addBusinessDays(from: Date, days: number): Date {
  const result = new Date(from.getTime());
  let left = days;
  while (left > 0) {
    result.setTime(result.getTime() + dayMs);
    const weekday = result.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return result;
}

export function settlementTime(rail: Rail, speed: RailSpeed, paymentId: string, from: Date): Date {
  if (speed === 'instant') return from;
  if (speed === 'fast') return new Date(from.getTime() + fastDelayMs[rail]);
  switch (rail) {
    case 'ach':
      return addBusinessDays(from, 3 + spreadOf(paymentId, 3));
    case 'wire':
      return new Date(from.getTime() + (1 + spreadOf(paymentId, 23)) * hourMs);
    case 'card':
      return new Date(from.getTime() + (1 + spreadOf(paymentId, 4)) * hourMs);
  }
}

/**
 * The simulated receiving bank returns a payment to an account that does not exist there. The
 * sandbox's "invalid accounts" are account numbers ending in 0000 and card numbers ending in 0000
 * (documented in the README), so a test or a demo can show a return on purpose.
 */
export function isReturnedByRail(accountNumberOrCardLast4: string | null): boolean {
  return accountNumberOrCardLast4 !== null && /0000$/.test(accountNumberOrCardLast4);
}

export const returnReason = 'The receiving bank returned it: no account with this number (R03). The money is back in your account.';
