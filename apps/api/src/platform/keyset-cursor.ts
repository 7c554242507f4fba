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

/**
 * A page of a keyset walk that read one row more than `pageSize` (to know whether another page
 * follows), each row with its position's timestamp as text (`sort_text`): the page's rows, and the
 * cursor of the page after its last row, or null when none follows.
 */
export function keysetPage<Row extends { id: string; sort_text: string }>(rows: readonly Row[], pageSize: number): { page: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > pageSize && last ? encodeCursor({ at: last.sort_text, id: last.id }) : null };
}

/**
 * The SQL of a keyset walk over `(columns.at, columns.id)` in `order` (ASC: oldest first): the
 * condition that starts after `after` (empty for the first page; its two values are appended to
 * `parameters`, whose placeholders it names) and the ORDER BY clause's terms.
 */
export function keysetWalk(
  columns: { at: string; id: string; idType?: 'uuid' | 'bigint' },
  order: 'ASC' | 'DESC',
  after: KeysetPosition | undefined,
  parameters: unknown[],
): { keyset: string; orderBy: string } {
  const orderBy = `${columns.at} ${order}, ${columns.id} ${order}`;
  if (!after) return { keyset: '', orderBy };
  parameters.push(after.at, after.id);
  const comparison = order === 'ASC' ? '>' : '<';
  const keyset = `AND (${columns.at}, ${columns.id}) ${comparison} ($${parameters.length - 1}::timestamptz, $${parameters.length}::${columns.idType ?? 'uuid'})`;
  return { keyset, orderBy };
}
