import { createHash } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Rail } from './repository.ts';

/**
 * The payment-rail simulator (docs/product.md section 4): when a payment that leaves or enters the bank
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

/** NACHA return reason codes, in the words a customer reads. */
const returnReasons: Readonly<Record<string, string>> = {
  R01: 'insufficient funds',
  R02: 'the account is closed',
  R03: 'no account with this number',
  R04: 'the account number is not valid',
  R05: 'a debit the account holder did not authorise',
  R07: 'the authorisation was revoked',
  R08: 'the payment was stopped',
  R10: 'the account holder says it was not authorised',
  R16: 'the account is frozen',
  R20: 'the account does not allow this payment',
  R29: 'the account holder says it was not authorised',
};

export const returnCodePattern = /^R[0-9]{2}$/;

export function describeReturnCode(code: string): string {
  return returnReasons[code] ?? 'returned by the other bank';
}

/** Codes after which nothing more may be pulled from the account: it is closed, missing or frozen. */
export function returnCodeEndsSource(code: string): boolean {
  return ['R02', 'R03', 'R04', 'R16', 'R20'].includes(code);
}

/**
 * What the simulated other bank answers (docs/product.md sections 4 and 6; documented in docs/operations.md): a
 * payment to an account or card number ending in 0000 comes back R03 (no such account); a deposit
 * pulled from a source whose number ends in 0001 comes back R01 (insufficient funds), 0002 R02
 * (account closed). A test or a demo can show a return on purpose.
 */
export function simulatedReturnCode(payment: { kind: string; counterparty_account_number: string | null }): string | null {
  const number = payment.counterparty_account_number ?? '';
  if (payment.kind === 'deposit') {
    if (/0001$/.test(number)) return 'R01';
    if (/0002$/.test(number)) return 'R02';
    return null;
  }
  return /0000$/.test(number) ? 'R03' : null;
}

/** Why a payment came back, for its history line and notification. */
export function returnReasonFor(kind: string, code: string, afterSettlement: boolean): string {
  const why = `${describeReturnCode(code)} (${code})`;
  if (kind !== 'deposit') return `The receiving bank returned it: ${why}. The money is back in your account.`;
  return afterSettlement
    ? `The other bank returned it after it had cleared: ${why}. The money was taken back.`
    : `The other bank returned it: ${why}. Nothing was added to your account.`;
}
