/**
 * The one way money is written, on the server (messages, receipts, statements) and in the web app.
 * Money arrives as integer cents: a bigint from the ledger, a number from JSON. Formatting works on
 * the integer digits only, so no float ever touches an amount.
 */
export type Cents = bigint | number;

export type MoneyStyle =
  /** `-$1,234.00`: the usual way to write money out. */
  | 'standard'
  /** `-1234.00`: signed decimal dollars, no currency sign or separators, as CSV and OFX files carry them. */
  | 'decimal';

function toBigInt(cents: Cents): bigint {
  if (typeof cents === 'bigint') return cents;
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be a safe integer, got ${cents}`);
  return BigInt(cents);
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function formatMoney(cents: Cents, style: MoneyStyle = 'standard'): string {
  const value = toBigInt(cents);
  const negative = value < 0n;
  const absolute = negative ? -value : value;
  const wholeDollars = (absolute / 100n).toString();
  const remainder = (absolute % 100n).toString().padStart(2, '0');
  if (style === 'decimal') return `${negative ? '-' : ''}${wholeDollars}.${remainder}`;
  const amount = `${groupThousands(wholeDollars)}.${remainder}`;
  return negative ? `-$${amount}` : `$${amount}`;
}
