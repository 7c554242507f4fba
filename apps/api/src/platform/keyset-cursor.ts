import { isUuid } from './path-parameters.ts';

/**
 * An opaque cursor for keyset pagination over `(timestamp, id)`: the timestamp travels as
 * PostgreSQL's own text of it (microseconds kept, so no row is skipped or repeated between pages)
 * and the id as a uuid. A cursor that does not decode is treated as no cursor: the first page.
 */
export interface KeysetPosition {
  at: string;
  id: string;
}

export function encodeCursor(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify([position.at, position.id]), 'utf8').toString('base64url');
}

const timestampText = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/;

/**
 * `isId` checks the id part: a uuid by default; a table keyed by a bigint identity (the audit log)
 * passes `isBigintId`.
 */
export function decodeCursor(cursor: string | undefined, isId: (id: string) => boolean = isUuid): KeysetPosition | undefined {
  if (!cursor) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
    const [at, id] = parsed as unknown[];
    if (typeof at !== 'string' || typeof id !== 'string' || !timestampText.test(at) || !isId(id)) return undefined;
    return { at, id };
  } catch {
    return undefined;
  }
}

export function isBigintId(id: string): boolean {
  return /^[1-9]\d{0,18}$/.test(id);
}
