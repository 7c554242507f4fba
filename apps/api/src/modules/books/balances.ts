import type { Queryable } from '../../db/database.ts';
import { accountCodes } from '../../ledger/codes.ts';
import { depositGlAccount, glAccountOfCode, glAccounts, isMappedCode, type DepositProductRow, type GlAccount } from './chart.ts';

/**
 * The general ledger's balances (docs/books.md, "Reports"): the ledger's posted money grouped by
 * the chart of accounts, cumulative through a business day. A closed day's balances were kept when
 * it closed (books_day_balances), so a report reads that snapshot and adds only the days after it;
 * the ledger alone gives the same figures, which is what check-books verifies.
 *
 * A customer may move an account to another product of its kind (docs/books.md, "The chart of
 * accounts"): on any day, the account's whole cumulative balance belongs to the product in force
 * that day (customer_account_products), so a closed day keeps the product it closed with and the
 * new product's line takes the whole balance from the day the change is in force, never a part.
 */

/** Cumulative posted money of one general-ledger account through a day. */
export interface GlBalance {
  gl: GlAccount;
  debits: bigint;
  credits: bigint;
}

interface ProductRow {
  id: string;
  code: string;
  kind: 'checking' | 'savings';
  name: string;
  position: number;
}

/**
 * The deposit products and the general-ledger account each books to. Two products of one kind at
 * the same position (or both beyond 9) share an account number: they become one line, named after
 * both, so the chart never holds one number twice.
 */
async function depositAccounts(db: Queryable): Promise<{ chart: GlAccount[]; byProduct: Map<string, GlAccount> }> {
  const products = await db.query<ProductRow>('SELECT id, code, kind, name, position FROM deposit_products ORDER BY kind, position, code');
  const byNumber = new Map<string, GlAccount>();
  const byProduct = new Map<string, GlAccount>();
  for (const product of products) {
    const gl = depositGlAccount(product satisfies DepositProductRow);
    const shared = byNumber.get(gl.account);
    const merged = shared ? { ...shared, name: `${shared.name}, ${product.name}` } : gl;
    byNumber.set(gl.account, merged);
    byProduct.set(product.id, merged);
  }
  // A merged line's later products renamed it: every product points at the final line.
  for (const [productId, gl] of byProduct) byProduct.set(productId, byNumber.get(gl.account) ?? gl);
  return { chart: [...byNumber.values()], byProduct };
}

function byAccountNumber(left: GlAccount, right: GlAccount): number {
  return left.account < right.account ? -1 : left.account > right.account ? 1 : 0;
}

/** The chart as of now: the fixed accounts and one deposits account per deposit product, in report order (by account number). */
export async function chartOf(db: Queryable): Promise<GlAccount[]> {
  const { chart } = await depositAccounts(db);
  return [...Object.values(glAccounts), ...chart].sort(byAccountNumber);
}

interface MovementRow {
  code: number;
  product_id: string | null;
  debits: string;
  credits: string;
}

/**
 * SQL joining `in_force`: the product in force on the day of parameter `dayParameter` of the
 * customer account `ca` (the latest customer_account_products row from that day or before). Every
 * account has a row from the beginning; were one missing, its current product stands.
 */
function productInForce(dayParameter: string): string {
  return `LEFT JOIN LATERAL (
       SELECT coalesce((SELECT cap.product_id FROM customer_account_products cap
                         WHERE cap.account_id = ca.id AND cap.from_day <= ${dayParameter}::date
                         ORDER BY cap.from_day DESC LIMIT 1), ca.product_id) AS product_id
     ) AS in_force ON ca.id IS NOT NULL`;
}

/**
 * Posted money (flags & 10 = 0: plain and post-pending rows; a pending reservation or a void moves
 * none) per account code and, for customer deposits, per product in force on `throughDay`, booked
 * after `afterDay` (none: from the start) through `throughDay`. One pass over the rows, summed per
 * ledger account first.
 */
async function movements(db: Queryable, afterDay: string | null, throughDay: string): Promise<MovementRow[]> {
  const window = afterDay === null ? 'posted_on <= $1::date' : 'posted_on > $2::date AND posted_on <= $1::date';
  return db.query<MovementRow>(
    `WITH moved AS (
       SELECT debit_account_id AS account_id, sum(amount)::numeric AS debits, 0::numeric AS credits
         FROM ledger_transfers WHERE flags & 10 = 0 AND ${window} GROUP BY debit_account_id
       UNION ALL
       SELECT credit_account_id, 0::numeric, sum(amount)::numeric
         FROM ledger_transfers WHERE flags & 10 = 0 AND ${window} GROUP BY credit_account_id
     )
     SELECT la.code, in_force.product_id, sum(moved.debits)::text AS debits, sum(moved.credits)::text AS credits
       FROM moved
       JOIN ledger_accounts la ON la.id = moved.account_id
       LEFT JOIN customer_accounts ca ON ca.ledger_account_id = la.id
       ${productInForce('$1')}
      GROUP BY la.code, in_force.product_id`,
    afterDay === null ? [throughDay] : [throughDay, afterDay],
  );
}

function emptyBalances(chart: readonly GlAccount[]): Map<string, GlBalance> {
  return new Map(chart.map((gl) => [gl.account, { gl, debits: 0n, credits: 0n }]));
}

/** Where one movement row is booked (chart.ts): customer deposits by product, 2190 without one; the rest by code. */
function glOfMovement(row: MovementRow, byProduct: ReadonlyMap<string, GlAccount>): GlAccount {
  const code = Number(row.code);
  if (!isMappedCode(code)) throw new Error(`ledger account code ${code} has no general-ledger account (chart.ts glAccountOfCode)`);
  const target = glAccountOfCode[code];
  if (target !== 'deposits') return glAccounts[target];
  if (code !== accountCodes.customerChecking && code !== accountCodes.customerSavings) throw new Error(`code ${code} is not a deposit code`);
  if (row.product_id === null) return glAccounts.unassignedDeposits;
  const gl = byProduct.get(row.product_id);
  if (!gl) throw new Error(`customer account product ${row.product_id} is not in deposit_products`);
  return gl;
}

function addMovements(balances: Map<string, GlBalance>, rows: readonly MovementRow[], byProduct: ReadonlyMap<string, GlAccount>, sign = 1n): void {
  for (const row of rows) {
    const gl = glOfMovement(row, byProduct);
    const balance = balances.get(gl.account);
    if (!balance) throw new Error(`general-ledger account ${gl.account} is not in the chart`);
    balance.debits += sign * BigInt(row.debits);
    balance.credits += sign * BigInt(row.credits);
  }
}

/**
 * Moves, from the product line each account was booked to on `fromDay` to the line of its product
 * on `toDay`, the whole cumulative posted money through `fromDay` of every customer deposit
 * account whose product changed in between (usually none): a closed day's kept balances hold each
 * account in its product of that day, and a later day holds it in the product of the later day.
 */
async function reclassifyChangedProducts(
  db: Queryable,
  balances: Map<string, GlBalance>,
  fromDay: string,
  toDay: string,
  byProduct: ReadonlyMap<string, GlAccount>,
): Promise<void> {
  const changed = await db.query<{ code: number; was_product: string; became_product: string; debits: string; credits: string }>(
    `SELECT la.code, was.product_id AS was_product, became.product_id AS became_product,
            coalesce((SELECT sum(t.amount) FROM ledger_transfers t
                       WHERE t.debit_account_id = la.id AND t.flags & 10 = 0 AND t.posted_on <= $1::date), 0)::text AS debits,
            coalesce((SELECT sum(t.amount) FROM ledger_transfers t
                       WHERE t.credit_account_id = la.id AND t.flags & 10 = 0 AND t.posted_on <= $1::date), 0)::text AS credits
       FROM customer_accounts ca
       JOIN ledger_accounts la ON la.id = ca.ledger_account_id
       JOIN LATERAL (SELECT product_id FROM customer_account_products
                      WHERE account_id = ca.id AND from_day <= $1::date ORDER BY from_day DESC LIMIT 1) AS was ON true
       JOIN LATERAL (SELECT product_id FROM customer_account_products
                      WHERE account_id = ca.id AND from_day <= $2::date ORDER BY from_day DESC LIMIT 1) AS became ON true
      WHERE ca.id IN (SELECT account_id FROM customer_account_products WHERE from_day > $1::date AND from_day <= $2::date)
        AND was.product_id <> became.product_id`,
    [fromDay, toDay],
  );
  for (const row of changed) {
    const sums = { code: row.code, debits: row.debits, credits: row.credits };
    addMovements(balances, [{ ...sums, product_id: row.was_product }], byProduct, -1n);
    addMovements(balances, [{ ...sums, product_id: row.became_product }], byProduct);
  }
}

async function balancesFrom(db: Queryable, day: string, useSnapshot: boolean): Promise<Map<string, GlBalance>> {
  const { chart, byProduct } = await depositAccounts(db);
  const balances = emptyBalances([...Object.values(glAccounts), ...chart].sort(byAccountNumber));
  let snapshotDay: string | null = null;
  if (useSnapshot) {
    const [latest] = await db.query<{ day: string | null }>(`SELECT to_char(max(day), 'YYYY-MM-DD') AS day FROM books_closed_days WHERE day <= $1::date`, [
      day,
    ]);
    snapshotDay = latest?.day ?? null;
  }
  if (snapshotDay !== null) {
    const kept = await db.query<{ gl_account: string; debits_cents: string; credits_cents: string }>(
      'SELECT gl_account, debits_cents::text, credits_cents::text FROM books_day_balances WHERE day = $1::date',
      [snapshotDay],
    );
    for (const row of kept) {
      const balance = balances.get(row.gl_account);
      if (!balance) throw new Error(`closed day ${snapshotDay} holds general-ledger account ${row.gl_account}, which is not in the chart`);
      balance.debits += BigInt(row.debits_cents);
      balance.credits += BigInt(row.credits_cents);
    }
  }
  addMovements(balances, await movements(db, snapshotDay, day), byProduct);
  if (snapshotDay !== null && snapshotDay < day) await reclassifyChangedProducts(db, balances, snapshotDay, day, byProduct);
  return balances;
}

/**
 * Cumulative posted debits and credits per GL account (key: GlAccount.account) through `day`
 * inclusive (posted_on <= day): the latest closed day's snapshot on or before `day` plus the ledger
 * rows booked after it. Every account of chartOf is present (zeros included).
 */
export function glBalancesThrough(db: Queryable, day: string): Promise<Map<string, GlBalance>> {
  return balancesFrom(db, day, true);
}

/** The same from the ledger rows alone, ignoring snapshots (what check-books compares a closed day's snapshot with). */
export function glBalancesFromLedger(db: Queryable, day: string): Promise<Map<string, GlBalance>> {
  return balancesFrom(db, day, false);
}

/**
 * glBalancesFromLedger of each of `days` from one pass over the rows (check-books compares every
 * closed day, and reading the whole ledger once per day would grow with the square of its age).
 * An account that never changed product is booked to its one product on every day; an account
 * that did is summed on its own and its whole cumulative balance put, on each day, in the line of
 * its product of that day.
 */
export async function glBalancesFromLedgerOn(db: Queryable, days: readonly string[]): Promise<Map<string, Map<string, GlBalance>>> {
  const result = new Map<string, Map<string, GlBalance>>();
  const sorted = [...new Set(days)].sort();
  const last = sorted.at(-1);
  if (last === undefined) return result;
  const { chart, byProduct } = await depositAccounts(db);
  const running = emptyBalances([...Object.values(glAccounts), ...chart].sort(byAccountNumber));
  const rows = await db.query<MovementRow & { day: string; changed_account: string | null }>(
    `WITH moved AS (
       SELECT posted_on, debit_account_id AS account_id, sum(amount)::numeric AS debits, 0::numeric AS credits
         FROM ledger_transfers WHERE flags & 10 = 0 AND posted_on <= $1::date GROUP BY posted_on, debit_account_id
       UNION ALL
       SELECT posted_on, credit_account_id, 0::numeric, sum(amount)::numeric
         FROM ledger_transfers WHERE flags & 10 = 0 AND posted_on <= $1::date GROUP BY posted_on, credit_account_id
     ),
     changed AS (SELECT account_id FROM customer_account_products GROUP BY account_id HAVING count(*) > 1),
     placed AS (
       SELECT moved.posted_on, la.code, moved.debits, moved.credits,
              CASE WHEN changed.account_id IS NULL THEN in_force.product_id END AS product_id,
              changed.account_id AS changed_account
         FROM moved
         JOIN ledger_accounts la ON la.id = moved.account_id
         LEFT JOIN customer_accounts ca ON ca.ledger_account_id = la.id
         LEFT JOIN changed ON changed.account_id = ca.id
         ${productInForce('$1')}
     )
     SELECT to_char(posted_on, 'YYYY-MM-DD') AS day, code, product_id, changed_account, sum(debits)::text AS debits, sum(credits)::text AS credits
       FROM placed
      GROUP BY posted_on, code, product_id, changed_account
      ORDER BY posted_on`,
    [last],
  );
  const history = await db.query<{ account_id: string; product_id: string; from_day: string }>(
    `SELECT account_id, product_id, to_char(from_day, 'YYYY-MM-DD') AS from_day FROM customer_account_products
      WHERE account_id IN (SELECT account_id FROM customer_account_products GROUP BY account_id HAVING count(*) > 1)
      ORDER BY account_id, from_day`,
  );
  const historyOf = new Map<string, { product_id: string; from_day: string }[]>();
  for (const row of history) {
    const rowsOfAccount = historyOf.get(row.account_id) ?? [];
    rowsOfAccount.push(row);
    historyOf.set(row.account_id, rowsOfAccount);
  }
  const productOn = (accountId: string, day: string): string | null =>
    (historyOf.get(accountId) ?? []).findLast((row) => row.from_day <= day)?.product_id ?? null;
  const changedSums = new Map<string, { code: number; debits: bigint; credits: bigint }>();
  let next = 0;
  for (const day of sorted) {
    const upTo: MovementRow[] = [];
    while (next < rows.length && (rows[next]?.day ?? '') <= day) {
      const row = rows[next];
      next += 1;
      if (!row) continue;
      if (row.changed_account === null) {
        upTo.push(row);
        continue;
      }
      const sums = changedSums.get(row.changed_account) ?? { code: row.code, debits: 0n, credits: 0n };
      sums.debits += BigInt(row.debits);
      sums.credits += BigInt(row.credits);
      changedSums.set(row.changed_account, sums);
    }
    addMovements(running, upTo, byProduct);
    const onDay = new Map([...running].map(([account, balance]) => [account, { ...balance }]));
    for (const [accountId, sums] of changedSums) {
      const movement = { code: sums.code, product_id: productOn(accountId, day), debits: String(sums.debits), credits: String(sums.credits) };
      addMovements(onDay, [movement], byProduct);
    }
    result.set(day, onDay);
  }
  return result;
}

/**
 * The sum of every customer account's balance (credits - debits posted, of
 * customer_accounts.ledger_account_id) booked through `day`, computed from customer_accounts, not
 * from the chart: the other side of the balance sheet's customer deposits tie.
 */
export async function customerAccountBalancesThrough(db: Queryable, day: string): Promise<bigint> {
  const [row] = await db.query<{ balance: string }>(
    `SELECT (coalesce((SELECT sum(t.amount) FROM ledger_transfers t JOIN customer_accounts ca ON ca.ledger_account_id = t.credit_account_id
                        WHERE t.flags & 10 = 0 AND t.posted_on <= $1::date), 0)
           - coalesce((SELECT sum(t.amount) FROM ledger_transfers t JOIN customer_accounts ca ON ca.ledger_account_id = t.debit_account_id
                        WHERE t.flags & 10 = 0 AND t.posted_on <= $1::date), 0))::text AS balance`,
    [day],
  );
  if (!row) throw new Error('no customer balance read');
  return BigInt(row.balance);
}
