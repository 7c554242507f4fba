import { formatMoney } from '@strongroom/contracts/money.ts';

/**
 * FDX writes amounts as JSON numbers in the currency's units with two decimals (`1399.02`); the
 * bank keeps integer cents. The decimal is made from the cents by string formatting only
 * (contracts' formatMoney: integer digits, no float arithmetic) and then read as a number, never
 * as `cents / 100` on a float. A decimal string of at most 15 significant digits is read to the
 * double whose shortest form is that same string, so `JSON.stringify` writes exactly the
 * formatted amount (without trailing zeros: `12.5` for 1250 cents). Beyond 15 digits that no
 * longer holds, and the amount is refused rather than rounded (docs/connected-apps.md, "Amounts").
 */
export const fdxAmountMaxCents = 999_999_999_999_999n;

export function fdxAmount(cents: bigint | number): number {
  const value = typeof cents === 'bigint' ? cents : BigInt(cents);
  if (value > fdxAmountMaxCents || value < -fdxAmountMaxCents) throw new RangeError('an amount in cents is beyond what an FDX decimal carries exactly');
  const decimal = formatMoney(value, 'decimal');
  const amount = Number(decimal);
  // The round trip the comment above promises, checked on the strings: a wrong amount must never leave the bank.
  if (String(amount) !== decimal.replace(/\.?0+$/, '')) throw new Error(`the amount ${decimal} did not survive its conversion`);
  return amount;
}
