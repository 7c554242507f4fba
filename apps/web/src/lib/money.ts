import { formatMoney, type Cents } from '@strongroom/contracts/money.ts';

/** Whole dollars, for marketing prices such as `$2,500`; cents are shown only when present. */
export function formatPrice(cents: Cents): string {
  const text = formatMoney(cents);
  return text.endsWith('.00') ? text.slice(0, -3) : text;
}
