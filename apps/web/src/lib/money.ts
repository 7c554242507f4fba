/**
 * Money arrives as integer cents (bigint from the ledger, number from JSON). Formatting works on
 * the integer digits only, so no float ever touches an amount.
 */
export type Cents = bigint | number;

export type MoneyStyle =
  /** `-$1,234.00`: the usual way to write money out. */
  | 'standard'
  /** `$-1,234.00`: the seed's transaction-history style for money out. */
  | 'history';

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
  const dollars = groupThousands((absolute / 100n).toString());
  const remainder = (absolute % 100n).toString().padStart(2, '0');
  const amount = `${dollars}.${remainder}`;
  if (!negative) return `$${amount}`;
  return style === 'history' ? `$-${amount}` : `-$${amount}`;
}

/** Whole dollars, for marketing prices such as `$2,500`; cents are shown only when present. */
export function formatPrice(cents: Cents): string {
  const text = formatMoney(cents);
  return text.endsWith('.00') ? text.slice(0, -3) : text;
}
