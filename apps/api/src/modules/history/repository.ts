import { createHash } from 'node:crypto';
import type { LineSide } from '@strongroom/contracts/history-line.ts';
import type { PaymentKind } from '@strongroom/contracts/payments.ts';
import { batchedPerDatabase, createBatchedLookup } from '../../db/batched-lookup.ts';
import type { Queryable } from '../../db/database.ts';
import type { StoredPaymentStatus } from '../../platform/payment-status.ts';
import { searchTextSql } from './search-pattern.ts';

/** One side of one payment on one of the customer's accounts. */
export interface LineRow {
  id: string;
  side: LineSide;
  account_id: string;
  kind: PaymentKind;
  status: StoredPaymentStatus;
  amount_cents: bigint;
  message: string;
  counterparty_name: string;
  counterparty_bank_name: string | null;
  details: Record<string, string>;
  created_at: Date;
  /** The timestamp as PostgreSQL prints it, to the microsecond: the cursor keeps it exactly. */
  created_text: string;
}

export interface LineCursor {
  createdText: string;
  id: string;
  side: LineSide;
}

/**
 * What a page of history asks for. `kinds` per side: null for every kind, a list for a category;
 * a side left out is not wanted at all. `fromDate`/`toDate` are inclusive dates in `timeZone`.
 * `searchPattern` narrows the lines to those whose wordings may contain a searched text (a LIKE
 * pattern over `history_search_text`, made by `searchPatternOf`); the description is worded in
 * TypeScript (contracts' history-line.ts), so the service decides there which of them match.
 * `searchProbe` is the pattern the trigram index is probed with (`searchProbeOf`): the search
 * pattern itself, or a rare piece of it, the whole pattern then filtering what the probe found.
 */
export interface LineQuery {
  customerId: string;
  accountIds: readonly string[];
  sides: Partial<Record<LineSide, readonly PaymentKind[] | null>>;
  cursor: LineCursor | null;
  fromDate?: string;
  toDate?: string;
  timeZone: string;
  searchPattern?: string;
  searchProbe?: string;
  limit: number;
}

const lineColumns = `p.id, p.kind, p.status, p.amount_cents, p.message, p.counterparty_name, p.counterparty_bank_name, p.details, p.created_at, p.created_at::text AS created_text`;

/**
 * The lines of one side on the account `account` that its owner (`customer`, a SQL expression) sees:
 * money out is every payment from the account (not refused); money in is every payment into it,
 * except an internal transfer from someone else that is not yet completed.
 */
function visibleOn(side: LineSide, account: string, customer: string | undefined): string {
  if (side === 'out') return `p.from_account_id = ${account} AND p.status NOT IN ('creating', 'failed')`;
  return `p.to_account_id = ${account} AND p.status NOT IN ('creating', 'failed') AND (p.kind <> 'internal' OR p.status = 'completed' OR p.customer_id = ${customer})`;
}

/**
 * A page of history lines, newest first, after the cursor. Money out is every payment from the
 * accounts (not refused); money in is every payment into them, except an internal transfer from
 * someone else that is not yet completed (a held payment is the sender's business until released).
 *
 * Keyset pagination on (created_at, id, side), 'out' before 'in' within one payment. Each side is
 * read per account (and per kind, for a category) through a LATERAL index scan with an equality
 * on the account, so PostgreSQL walks `payments_*_account[_kind]` backwards and stops after
 * `limit` rows: `account = ANY(array)` or a three-column row comparison with a constant cannot
 * use the index order and sorts the whole account instead (docs/decisions/017-receipts.md).
 */
export async function listLines(db: Queryable, query: LineQuery): Promise<LineRow[]> {
  const params: unknown[] = [];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const limit = param(query.limit);
  const cursorTime = query.cursor ? param(query.cursor.createdText) : undefined;
  const cursorId = query.cursor ? param(query.cursor.id) : undefined;
  const zone = query.fromDate !== undefined || query.toDate !== undefined ? param(query.timeZone) : undefined;
  const fromDate = query.fromDate !== undefined ? param(query.fromDate) : undefined;
  const toDate = query.toDate !== undefined ? param(query.toDate) : undefined;
  const customer = query.sides.in !== undefined ? param(query.customerId) : undefined;
  const search = query.searchPattern !== undefined ? param(query.searchPattern) : undefined;
  const probe = search && query.searchProbe !== undefined && query.searchProbe !== query.searchPattern ? param(query.searchProbe) : undefined;
  let accounts: string | undefined;

  /** The conditions of one side's lines on the account `account` (and of the kind `kind`, for a category). */
  const conditionsOf = (side: LineSide, account: string, kind: string | undefined): string => {
    const conditions = [visibleOn(side, account, customer)];
    if (kind) conditions.push(`p.kind = ${kind}`);
    if (query.cursor) {
      // The 'in' line of the payment at the cursor comes right after its 'out' line.
      const before = side === 'in' && query.cursor.side === 'out' ? '<=' : '<';
      conditions.push(`(p.created_at, p.id) ${before} (${cursorTime}::timestamptz, ${cursorId}::uuid)`);
    }
    if (fromDate) conditions.push(`p.created_at >= (${fromDate}::date)::timestamp AT TIME ZONE ${zone}::text`);
    if (toDate) conditions.push(`p.created_at < (${toDate}::date + 1)::timestamp AT TIME ZONE ${zone}::text`);
    return conditions.join(' AND ');
  };
  const selectOf = (side: LineSide, account: string, kind: string | undefined): string => {
    const column = side === 'out' ? 'p.from_account_id' : 'p.to_account_id';
    // A search's branch reads the hits (below), with no order and no limit of its own: PostgreSQL
    // finds all matches at once, through the trigram index, and never walks the account hoping to
    // meet the text soon (the service reads the newest lines without the index first,
    // docs/decisions/046-history-search-index.md).
    const order = search ? 'OFFSET 0' : `ORDER BY p.created_at DESC, p.id DESC LIMIT ${limit}`;
    return `SELECT ${lineColumns}, '${side}' AS side, ${column} AS account_id FROM ${search ? 'hits' : 'payments'} p
        WHERE ${conditionsOf(side, account, kind)}
        ${order}`;
  };
  const sideSql = (side: LineSide, kinds: readonly PaymentKind[] | null): string => {
    if (search) {
      // A search names each account (and kind) in a branch of its own, as a parameter of this
      // query's own plan, not through a LATERAL over an array, whose plan is made for an
      // average account (docs/decisions/046-history-search-index.md).
      const accountsOfBranches = query.accountIds.map((account) => param(account));
      const kindsOfBranches = kinds ? kinds.map((kind) => param(kind)) : [undefined];
      return accountsOfBranches
        .flatMap((account) => kindsOfBranches.map((kind) => `(${selectOf(side, `${account}::uuid`, kind && `${kind}::text`)})`))
        .join(' UNION ALL ');
    }
    const kindJoin = kinds ? ` CROSS JOIN unnest(${param(kinds)}::text[]) AS wanted(kind)` : '';
    // The accounts as a VALUES list, a parameter each: the prepared statement's generic plan then
    // counts them as exactly as a custom plan does, so PostgreSQL keeps the generic plan instead of
    // planning every page afresh (0.26 ms a page, four times the reading; an array would count as
    // 100 accounts in a generic plan).
    accounts ??= `(VALUES ${query.accountIds.map((account) => `(${param(account)}::uuid)`).join(', ')})`;
    return `SELECT line.* FROM ${accounts} AS mine(id)${kindJoin} CROSS JOIN LATERAL (
        ${selectOf(side, 'mine.id', kinds ? 'wanted.kind' : undefined)}) AS line`;
  };

  const parts: string[] = [];
  if (query.sides.out !== undefined) parts.push(sideSql('out', query.sides.out));
  if (query.sides.in !== undefined) parts.push(sideSql('in', query.sides.in));
  if (parts.length === 0) return [];
  // A search probes the trigram index once for both sides: the payments whose wording may hold
  // the text, from the cursor's (the branches keep each side's own bound). Probed with a rare piece
  // of the text, the whole pattern filters what the probe found, outside it (OFFSET 0 keeps
  // PostgreSQL from adding the whole pattern to the index's conditions).
  const fromCursor = query.cursor ? ` AND (p.created_at, p.id) <= (${cursorTime}::timestamptz, ${cursorId}::uuid)` : '';
  const hits = !search
    ? ''
    : probe
      ? `WITH hits AS MATERIALIZED (SELECT * FROM (SELECT * FROM payments p WHERE ${searchTextSql} LIKE ${probe}${fromCursor} OFFSET 0) p WHERE ${searchTextSql} LIKE ${search}) `
      : `WITH hits AS MATERIALIZED (SELECT * FROM payments p WHERE ${searchTextSql} LIKE ${search}${fromCursor}) `;
  const text = `${hits}SELECT * FROM (${parts.join(' UNION ALL ')}) AS lines ORDER BY created_at DESC, id DESC, side DESC LIMIT ${limit}`;
  // One prepared statement per shape of query (which filters are on): a few dozen at most. Not a
  // search: its plan is made for its pattern and accounts (a prepared statement's generic plan
  // would guess both).
  if (search) return db.query<LineRow>(text, params);
  return db.query<LineRow>(text, params, { name: statementNameOf(text) });
}

/** Statement names by text: hashing a page's SQL at every request showed in the profile (issue 37). */
const statementNames = new Map<string, string>();

function statementNameOf(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `history_lines_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
    // A few dozen shapes times the numbers of accounts a customer has: bounded, but kept bounded anyway.
    if (statementNames.size >= 1_000) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}

/** A first page of history with no filter: the newest `limit` lines of one of the customer's open accounts, or of all of them (`accountId` null). */
export interface FirstPageQuery {
  customerId: string;
  /** Well-formed (the route's schema checks it); someone else's or a closed account gives no line and `owned` false. */
  accountId: string | null;
  limit: number;
}

export interface FirstPage {
  /** The account asked for is one of the customer's open accounts; with none asked for, whether they have any. */
  owned: boolean;
  lines: LineRow[];
}

/**
 * First pages of history, newest first, as `listLines` reads them with no cursor and no filter: the
 * pages asked for at the same moment are read in one statement (db/batched-lookup.ts, decision 044;
 * every history page and dashboard opens with one). The statement finds each page's accounts
 * itself, the customer's open accounts or the one asked for if it is one of them, so a page costs
 * no lookup of the customer's accounts before it (decision 082); each side of each account is a
 * LATERAL index scan that stops after the page's limit, as in `listLines`. A page with no line
 * still gives a row, which says whether the account was the customer's. The arrays are read
 * through a subquery PostgreSQL does not flatten: it then counts the pages as it would in a
 * generic plan, whatever their number, and keeps the prepared statement's generic plan instead of
 * planning every batch afresh (0.4 ms a batch, as long as reading it).
 */
async function readFirstPages(db: Queryable, queries: readonly FirstPageQuery[]): Promise<FirstPage[]> {
  const sideOf = (side: LineSide) =>
    `SELECT line.* FROM unnest(mine.ids) AS mine_account(id) CROSS JOIN LATERAL (
       SELECT ${lineColumns}, '${side}' AS side, p.${side === 'out' ? 'from' : 'to'}_account_id AS account_id FROM payments p
        WHERE ${visibleOn(side, 'mine_account.id', 'w.customer_id')}
        ORDER BY p.created_at DESC, p.id DESC LIMIT w.row_limit) AS line`;
  const rows = await db.query<{ position: string; owned: boolean } & (LineRow | { id: null })>(
    `SELECT w.position::text AS position, mine.owned, page.*
       FROM (SELECT $1::uuid[] AS customers, $2::uuid[] AS accounts, $3::int[] AS limits OFFSET 0) AS batch
       CROSS JOIN LATERAL unnest(batch.customers, batch.accounts, batch.limits) WITH ORDINALITY AS w (customer_id, account_id, row_limit, position)
       -- An aggregate: PostgreSQL cannot pull it up into a join, so it stays a probe of the customer's accounts.
       CROSS JOIN LATERAL (
         SELECT array_agg(a.id) AS ids, count(*) > 0 AS owned FROM customer_accounts a
          WHERE a.customer_id = w.customer_id AND a.status <> 'closed' AND (w.account_id IS NULL OR a.id = w.account_id)
       ) AS mine
       LEFT JOIN LATERAL (
         SELECT * FROM (${sideOf('out')} UNION ALL ${sideOf('in')}) AS lines
          ORDER BY created_at DESC, id DESC, side DESC LIMIT w.row_limit) AS page ON true
      ORDER BY w.position, page.created_at DESC, page.id DESC, page.side DESC`,
    [queries.map((query) => query.customerId), queries.map((query) => query.accountId), queries.map((query) => query.limit)],
    { name: 'history_first_pages_of_customers' },
  );
  // Each row keeps its position (nothing shows a row as it is): copying twenty rows a page without it showed in the profile.
  const pages: FirstPage[] = queries.map(() => ({ owned: false, lines: [] }));
  for (const row of rows) {
    const page = pages[Number(row.position) - 1];
    if (!page) continue;
    page.owned = row.owned;
    if (row.id !== null) page.lines.push(row);
  }
  return pages;
}

// Two statements in flight, not four: only pages read it, and larger batches cost a read less (decision 081).
const firstPagesBatched = batchedPerDatabase<FirstPageQuery, FirstPage>(
  (db) => createBatchedLookup({ maxBatch: 100, concurrency: 2, run: (queries) => readFirstPages(db, queries) }),
  async (db, query) => (await readFirstPages(db, [query]))[0] ?? { owned: false, lines: [] },
);

/** A first page of history with no filter (see `readFirstPages`). */
export function listFirstPage(db: Queryable, query: FirstPageQuery): Promise<FirstPage> {
  return firstPagesBatched(db, query);
}

/** A line with what its Details dialog and receipt show. */
export interface LineDetailRow extends LineRow {
  customer_id: string;
  account_type: string;
  account_number: string;
  counterparty_account_number: string | null;
  counterparty_route_number: string | null;
  status_reason: string | null;
  /** The account the money came from, only when it is this customer's own (an own transfer). */
  own_source_name: string | null;
  own_source_number: string | null;
}

/**
 * One line of this customer's history by payment id and side, under the same rules as `listLines`;
 * undefined for a line that is not theirs, exactly as for one that does not exist.
 */
export async function findLine(db: Queryable, customerId: string, paymentId: string, side: LineSide): Promise<LineDetailRow | undefined> {
  const [row] = await db.query<LineDetailRow>(
    `SELECT ${lineColumns}, $3::text AS side, a.id AS account_id, p.customer_id, a.type AS account_type, a.number AS account_number,
            p.counterparty_account_number, p.counterparty_route_number, p.status_reason,
            source.name AS own_source_name, source.number AS own_source_number
     FROM payments p
     JOIN customer_accounts a ON a.id = CASE WHEN $3::text = 'out' THEN p.from_account_id ELSE p.to_account_id END
     LEFT JOIN customer_accounts source ON source.id = p.from_account_id AND source.customer_id = $2
     WHERE p.id = $1 AND a.customer_id = $2 AND a.status <> 'closed' AND p.status NOT IN ('creating', 'failed')
       AND ($3::text = 'out' OR p.kind <> 'internal' OR p.status = 'completed' OR p.customer_id = $2)`,
    [paymentId, customerId, side],
    { name: 'history_line_by_id' },
  );
  return row;
}

export async function findReferenceOfLine(db: Queryable, paymentId: string, side: LineSide): Promise<string | undefined> {
  const [row] = await db.query<{ reference: string }>('SELECT reference FROM receipt_references WHERE payment_id = $1 AND side = $2', [paymentId, side], {
    name: 'receipt_reference_of_line',
  });
  return row?.reference;
}

/** Does nothing when the line has its reference already (or, beyond all odds, the reference is taken). */
export async function insertReference(db: Queryable, reference: { reference: string; paymentId: string; side: LineSide }): Promise<void> {
  await db.query('INSERT INTO receipt_references (reference, payment_id, side) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
    reference.reference,
    reference.paymentId,
    reference.side,
  ]);
}

/** Whether a payment exists at all: a refused look-up at someone else's line goes to the audit log. */
export async function paymentExists(db: Queryable, paymentId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM payments WHERE id = $1', [paymentId]);
  return rows.length > 0;
}

export interface MonthFlowRow {
  month: string;
  code: number | null;
  /** The money went into a credit card's account at this bank: it paid what the card owes. */
  into_card: boolean | null;
  money_in: bigint | null;
  money_out: bigint | null;
}

/**
 * Money in and out of the customer's accounts this month in the bank's time zone, straight from
 * the ledger (D8): posted transfers only (a plain posted transfer or the post of a pending one),
 * and none between two of the customer's own accounts. Split by transfer code, and by whether the
 * money went into a card's account (`cardAccountCode`): a card push there pays a credit card.
 */
export async function monthFlowsByCode(db: Queryable, customerId: string, timeZone: string, cardAccountCode: number): Promise<MonthFlowRow[]> {
  return db.query<MonthFlowRow>(
    `WITH mine AS (SELECT ledger_account_id AS id FROM customer_accounts WHERE customer_id = $1 AND ledger_account_id IS NOT NULL),
          bounds AS (SELECT date_trunc('month', now() AT TIME ZONE $2) AT TIME ZONE $2 AS start, to_char(now() AT TIME ZONE $2, 'YYYY-MM') AS month),
          moves AS (
            SELECT t.code, t.amount,
                   t.credit_account_id IN (SELECT id FROM mine) AS into_mine,
                   t.debit_account_id IN (SELECT id FROM mine) AS from_mine,
                   EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = t.credit_account_id AND a.code = $3) AS into_card
            FROM ledger_transfers t, bounds
            WHERE (t.debit_account_id IN (SELECT id FROM mine) OR t.credit_account_id IN (SELECT id FROM mine))
              AND t.flags & 10 = 0 AND t.created_at >= bounds.start)
     SELECT bounds.month, moves.code, moves.into_card,
            sum(moves.amount) FILTER (WHERE moves.into_mine AND NOT moves.from_mine)::bigint AS money_in,
            sum(moves.amount) FILTER (WHERE moves.from_mine AND NOT moves.into_mine)::bigint AS money_out
     FROM bounds LEFT JOIN moves ON true
     GROUP BY bounds.month, moves.code, moves.into_card`,
    [customerId, timeZone, cardAccountCode],
  );
}
