import { createHash } from 'node:crypto';

/**
 * A uuid fixed by its name: the same parts always give the same id, so a step that a crash
 * interrupted can be done again under the same id, and the ledger answers `exists` the second
 * time. Shaped as a version-4 uuid (version nibble 4, variant 10xx), as every id in the ledger is.
 */
export function derivedUuid(...parts: readonly string[]): string {
  const hex = createHash('sha256').update(parts.join(':')).digest('hex');
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
