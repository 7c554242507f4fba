import type { Queryable } from '../../db/database.ts';

/*
 * What a text search in history gives SQL: the LIKE pattern over `history_search_text` (migration
 * 0026; since 0037 it holds every party wording of a line beside its message) that narrows the
 * lines, and the pattern the trigram index is probed with (docs/decisions/046-history-search-index.md,
 * 061-export-everything-and-search-by-party.md). The service still decides which lines match.
 */

/** The expression the trigram index `payments_search` is built on, word for word. */
export const searchTextSql = `history_search_text(p.kind, p.message, p.counterparty_name, p.counterparty_bank_name, p.details ->> 'senderName')`;

/**
 * The LIKE pattern over `history_search_text` (migrations 0026 and 0037) that every line whose
 * description or party contains `text`, whatever its case, matches: the ASCII characters of the
 * text in lower case, and '%' for any other character (JavaScript's lower case of it may be
 * longer, or differ from PostgreSQL's), with LIKE's own characters escaped. A few lines more may match; none fewer.
 */
export function searchPatternOf(text: string): string {
  const pieces = ['%'];
  for (const character of text.toLowerCase()) {
    if ((character.codePointAt(0) ?? 0) > 0x7f) {
      if (pieces.at(-1) !== '%') pieces.push('%');
    } else {
      pieces.push(/[\\%_]/.test(character) ? `\\${character}` : character);
    }
  }
  if (pieces.at(-1) !== '%') pieces.push('%');
  return pieces.join('');
}

/**
 * The pieces of a searched text the trigram index can be probed with alone, as LIKE patterns: its
 * runs of three or more ASCII letters and digits (a trigram holds letters and digits only), in
 * lower case, once each. Each is a part of `searchPatternOf`'s pattern, so a line that matches the
 * pattern matches every piece.
 */
export function searchPiecesOf(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? [])].map((piece) => `%${piece}%`);
}

/**
 * How much more common than the rarest piece of a text its commonest piece must be (in PostgreSQL's
 * estimate) before the trigram index is probed with the rarest piece alone. The index probe for the
 * whole text intersects every piece's posting lists, decoding each item of each list; the probe
 * for one piece reads and rechecks every line it lets through instead. Measured on PostgreSQL 15,
 * 1M lines (bench:history's data): "groceries 12345" probed whole took 16 ms (the lists of
 * "groceries", on 500,000 lines, about 5 ns an item), "12345" alone 0.9 ms for 20 lines read and
 * rechecked (about 30 us each): one line rechecked costs about what a thousand posting items do.
 * docs/decisions/046-history-search-index.md.
 */
const rarePieceFactor = 1_000;

/** Most pieces of a text whose lines are estimated (the longest, when a text has more). */
const maxEstimatedPieces = 6;

/** PostgreSQL's estimate of the lines a pattern lets through, from an EXPLAIN planned and not run. */
async function estimatedLines(db: Queryable, pattern: string): Promise<number | undefined> {
  const [row] = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) SELECT 1 FROM payments p WHERE ${searchTextSql} LIKE $1`, [pattern]);
  const explained: unknown = typeof row?.['QUERY PLAN'] === 'string' ? JSON.parse(row['QUERY PLAN']) : row?.['QUERY PLAN'];
  // The top node's estimate is the whole table's, under a Gather too (its workers' add up to it).
  const rows: unknown = Array.isArray(explained) ? (explained[0] as { Plan?: { 'Plan Rows'?: unknown } } | undefined)?.Plan?.['Plan Rows'] : undefined;
  return typeof rows === 'number' && rows > 0 ? rows : undefined;
}

/**
 * The pattern to probe the trigram index with for `text`: its rarest piece (`searchPiecesOf`) when
 * PostgreSQL, from the statistics of the index's expression, estimates its commonest piece on at
 * least `rarePieceFactor` times as many lines (a rare number beside a word on every other line);
 * else the whole pattern (`searchPatternOf`). One EXPLAIN a piece, planned, not run: about half a
 * millisecond each, once per search that reads past the newest lines.
 */
export async function searchProbeOf(db: Queryable, text: string): Promise<string> {
  const whole = searchPatternOf(text);
  const pieces = searchPiecesOf(text)
    .sort((a, b) => b.length - a.length)
    .slice(0, maxEstimatedPieces);
  if (pieces.length < 2) return whole;
  // One after the other: a search holds one connection at a time, like any request.
  const known: { rows: number; piece: string }[] = [];
  for (const piece of pieces) {
    const rows = await estimatedLines(db, piece);
    if (rows !== undefined) known.push({ rows, piece });
  }
  if (known.length < 2) return whole;
  const rarest = known.reduce((a, b) => (b.rows < a.rows ? b : a));
  const commonest = known.reduce((a, b) => (b.rows > a.rows ? b : a));
  return commonest.rows >= rarePieceFactor * rarest.rows ? rarest.piece : whole;
}
