/** bigint cents to a JSON number, refusing any amount a JSON number cannot hold exactly. */
export function centsToJson(cents: bigint): number {
  if (cents > BigInt(Number.MAX_SAFE_INTEGER) || cents < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError('an amount in cents is beyond what JSON can carry exactly');
  }
  return Number(cents);
}

/** `$1,234.50` for messages the server writes (SMS, notifications); integer arithmetic only. */
export function formatCents(cents: bigint): string {
  const negative = cents < 0n;
  const absolute = negative ? -cents : cents;
  const dollars = (absolute / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}$${dollars}.${(absolute % 100n).toString().padStart(2, '0')}`;
}
