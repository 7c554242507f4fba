import type { Product } from '@strongroom/contracts/products.ts';
import { formatPrice } from '../../../lib/money.ts';
import { formatBps } from '../api/products.ts';

/** What a product's card says while its price is on its way, or could not be had. */
export const priceLoading = '…';
export const priceUnavailable = '—';

/** The interest a product pays, one line per balance tier: "1.51% APY (1.50% interest rate) on any balance". */
export function interestLines(product: Product): string[] {
  if (product.tiers.every((tier) => tier.rateBps === 0)) return ['No interest paid'];
  return product.tiers.map((tier, index) => {
    const next = product.tiers[index + 1];
    const rates = `${formatBps(tier.apyBps)} APY (${formatBps(tier.rateBps)} interest rate)`;
    if (product.tiers.length === 1) return `${rates} on any balance`;
    if (!next) return `${rates} on balances of ${formatPrice(tier.fromCents)} or more`;
    return tier.fromCents === 0
      ? `${rates} on balances under ${formatPrice(next.fromCents)}`
      : `${rates} from ${formatPrice(tier.fromCents)} to under ${formatPrice(next.fromCents)}`;
  });
}
