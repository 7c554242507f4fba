import { formatMoney } from '@strongroom/contracts/money.ts';

/** bigint cents to a JSON number, refusing any amount a JSON number cannot hold exactly. */
export function centsToJson(cents: bigint): number {
  if (cents > BigInt(Number.MAX_SAFE_INTEGER) || cents < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError('an amount in cents is beyond what JSON can carry exactly');
  }
  return Number(cents);
}

/** `$1,234.50` for messages the server writes (SMS, notifications): the contracts' formatter, bigint only. */
export function formatCents(cents: bigint): string {
  return formatMoney(cents);
}
