/** bigint cents to a JSON number, refusing any amount a JSON number cannot hold exactly. */
export function centsToJson(cents: bigint): number {
  if (cents > BigInt(Number.MAX_SAFE_INTEGER) || cents < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError('an amount in cents is beyond what JSON can carry exactly');
  }
  return Number(cents);
}
