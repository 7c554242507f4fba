import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Product } from '@strongroom/contracts/products.ts';

/** Basis points as a percentage with two decimals ("1.50%"), from integers: no float rounds a rate. */
export function percentOfBps(bps: number): string {
  return `${Math.trunc(bps / 100)}.${String(bps % 100).padStart(2, '0')}%`;
}

/** "$14.95 a month", or "No monthly fee". */
export function monthlyFeeText(product: Pick<Product, 'monthlyFeeCents'>): string {
  return product.monthlyFeeCents === 0 ? 'No monthly fee' : `${formatMoney(product.monthlyFeeCents)} a month`;
}

/** "1.51% APY (1.50% interest rate)", or that the account earns no interest. */
export function rateText(product: Pick<Product, 'interestRateBps' | 'apyBps'>): string {
  return product.interestRateBps === 0 ? 'Earns no interest' : `${percentOfBps(product.apyBps)} APY (${percentOfBps(product.interestRateBps)} interest rate)`;
}

/** "$500.00 minimum opening deposit", or none. */
export function openingDepositText(product: Pick<Product, 'openingDepositCents'>): string {
  return product.openingDepositCents === 0 ? 'No minimum opening deposit' : `${formatMoney(product.openingDepositCents)} minimum opening deposit`;
}
