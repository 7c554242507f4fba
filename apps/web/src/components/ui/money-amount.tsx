import { formatMoney, type Cents, type MoneyStyle } from '@strongroom/contracts/money.ts';

export interface MoneyAmountProps {
  cents: Cents;
  /** Colour money in green and money out red; the sign says the same thing for those who cannot see colour. */
  signed?: boolean;
  style?: MoneyStyle;
}

export function MoneyAmount({ cents, signed = false, style = 'standard' }: MoneyAmountProps) {
  const negative = typeof cents === 'bigint' ? cents < 0n : cents < 0;
  const tone = signed ? (negative ? 'money-out' : 'money-in') : '';
  const text = formatMoney(cents, style);
  return <span className={['tabular', tone].filter(Boolean).join(' ')}>{signed && !negative ? `+${text}` : text}</span>;
}
