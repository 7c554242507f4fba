import { batchedPerDatabase, createBatchedLookup } from '../../db/batched-lookup.ts';
import type { Queryable } from '../../db/database.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import type { KeyRow } from '../../platform/idempotency.ts';

/**
 * What a payment reads of the parties before it moves anything: the accounts it names, the payer
 * (name, freeze and Idempotency-Key in one statement) and the customer locks its transaction takes.
 * Reads only: the payments table itself is written in repository.ts alone.
 */

export interface AccountRef {
  id: string;
  customer_id: string;
  type: 'checking' | 'savings';
  number: string;
  name: string;
  status: 'active' | 'inactive' | 'closed';
  ledger_account_id: string;
  /** Set once a returned deposit has taken the account below zero (accounts/owed.ts). */
  owed_ledger_account_id: string | null;
  identity_approved: boolean;
  holder_name: string;
}

const accountRefColumns = `a.id, a.customer_id, a.type, a.number, a.name, a.status, a.ledger_account_id, a.owed_ledger_account_id,
  approved.yes IS NOT NULL AS identity_approved, c.first_name || ' ' || c.last_name AS holder_name`;

export function findAccountById(db: Queryable, id: string): Promise<AccountRef | undefined> {
  return isUuid(id) ? findAccountBatched(db, id.toLowerCase()) : Promise.resolve(undefined);
}

/**
 * Several accounts, in the order asked; a missing (or malformed) id is undefined. The accounts
 * asked for at the same moment, by this request and others, are read in one statement
 * (db/batched-lookup.ts, decision 044).
 */
export function findAccountsById(db: Queryable, ids: readonly string[]): Promise<(AccountRef | undefined)[]> {
  return Promise.all(ids.map((id) => (isUuid(id) ? findAccountBatched(db, id.toLowerCase()) : Promise.resolve(undefined))));
}

/** The accounts by id or by number, in the order asked (undefined for none), in one statement. */
async function readAccounts(db: Queryable, by: 'id' | 'number', keys: readonly string[]): Promise<(AccountRef | undefined)[]> {
  const rows = await db.query<AccountRef & { position: string }>(
    `SELECT w.position::text AS position, ${accountRefColumns}
       FROM unnest($1::${by === 'id' ? 'uuid' : 'text'}[]) WITH ORDINALITY AS w (wanted, position)
       -- Each account, its holder and the holder's approval a probe of an index (LATERAL ... LIMIT 1):
       -- an EXISTS here was hashed over every approved review for each batch (decision 081).
       CROSS JOIN LATERAL (SELECT * FROM customer_accounts a WHERE a.${by} = w.wanted LIMIT 1) a
       CROSS JOIN LATERAL (SELECT c.first_name, c.last_name FROM customers c WHERE c.id = a.customer_id LIMIT 1) c
       LEFT JOIN LATERAL (SELECT true AS yes FROM identity_reviews r WHERE r.customer_id = a.customer_id AND r.status = 'approved' LIMIT 1) approved ON true`,
    [keys],
    { name: `payments_accounts_by_${by}s` },
  );
  const byPosition = new Map(rows.map(({ position, ...account }) => [Number(position), account]));
  return keys.map((_, index) => byPosition.get(index + 1));
}

const findAccountBatched = batchedPerDatabase<string, AccountRef | undefined>(
  (db) => createBatchedLookup({ maxBatch: 200, concurrency: 4, run: (ids) => readAccounts(db, 'id', ids) }),
  async (db, id) => (await readAccounts(db, 'id', [id]))[0],
);

/** By its number; the accounts asked for at the same moment are read in one statement (db/batched-lookup.ts). */
export function findAccountByNumber(db: Queryable, number: string): Promise<AccountRef | undefined> {
  // Only digits can be an account number; anything else is none, and never joins a shared statement.
  return /^[0-9]{1,34}$/.test(number) ? findAccountByNumberBatched(db, number) : Promise.resolve(undefined);
}

const findAccountByNumberBatched = batchedPerDatabase<string, AccountRef | undefined>(
  (db) => createBatchedLookup({ maxBatch: 200, concurrency: 4, run: (numbers) => readAccounts(db, 'number', numbers) }),
  async (db, number) => (await readAccounts(db, 'number', [number]))[0],
);

/** What a payment request needs to know of its payer before planning, read in one statement; undefined for a customer who does not exist. */
export interface Payer {
  /** The name as a payment shows it to a recipient. */
  name: string;
  /** Under an open freeze (platform/account-freeze.ts): no money moves. */
  frozen: boolean;
  /** The Idempotency-Key's row, when an earlier request used it. */
  key: KeyRow | undefined;
}

export function findPayer(db: Queryable, customerId: string, idempotencyKey: string): Promise<Payer | undefined> {
  return findPayerBatched(db, { customerId, idempotencyKey });
}

interface PayerKey {
  customerId: string;
  idempotencyKey: string;
}

/** The payers of the requests of one moment in one statement (db/batched-lookup.ts, decision 044). */
async function readPayers(db: Queryable, keys: readonly PayerKey[]): Promise<(Payer | undefined)[]> {
  const rows = await db.query<{ position: string; name: string; frozen: boolean } & { [K in keyof KeyRow]: KeyRow[K] | null }>(
    `SELECT w.position::text AS position, c.first_name || ' ' || c.last_name AS name,
            EXISTS (SELECT 1 FROM customer_freezes f WHERE f.customer_id = c.id AND f.unfrozen_at IS NULL) AS frozen,
            k.request_hash, k.payment_id, k.response_status, k.response_body
       FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS w (customer_id, key, position)
       JOIN customers c ON c.id = w.customer_id
       -- A probe of the key's index for each payer, whatever the statistics say: as a plain join,
       -- planned while the table was small, it read every key for every batch (issue 37).
       LEFT JOIN LATERAL (SELECT k.request_hash, k.payment_id, k.response_status, k.response_body FROM idempotency_keys k
                           WHERE k.customer_id = w.customer_id AND k.key = w.key LIMIT 1) AS k ON true`,
    [keys.map((key) => key.customerId), keys.map((key) => key.idempotencyKey)],
    { name: 'payments_payers' },
  );
  const byPosition = new Map(rows.map((row) => [Number(row.position), row]));
  return keys.map((_, index) => {
    const row = byPosition.get(index + 1);
    if (!row) return undefined;
    const key =
      row.request_hash === null || row.payment_id === null
        ? undefined
        : { request_hash: row.request_hash, payment_id: row.payment_id, response_status: row.response_status, response_body: row.response_body };
    return { name: row.name, frozen: row.frozen, key };
  });
}

const findPayerBatched = batchedPerDatabase<PayerKey, Payer | undefined>(
  (db) => createBatchedLookup({ maxBatch: 200, concurrency: 4, run: (keys) => readPayers(db, keys) }),
  async (db, key) => (await readPayers(db, [key]))[0],
);

/**
 * Locks these customers' rows until the transaction ends, in ascending id order, in one statement:
 * a transaction that locks them all first never waits for one of them later (decision 044). The
 * lock is FOR NO KEY UPDATE: it makes two claims of one customer take turns, and it does not stop
 * another transaction from inserting a row that names the customer (a foreign key takes FOR KEY
 * SHARE, which it lets through), so a payment that takes no customer lock never waits on one.
 */
export async function lockCustomers(tx: Queryable, customerIds: readonly string[]): Promise<void> {
  if (customerIds.length === 0) return;
  await tx.query('SELECT 1 FROM customers WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE', [[...new Set(customerIds)]], {
    name: 'payments_lock_customers',
  });
}

/** Locks the customer's row until the transaction ends: one customer's payments are claimed one at a time. */
export async function lockCustomer(tx: Queryable, customerId: string): Promise<void> {
  await tx.query('SELECT 1 FROM customers WHERE id = $1 FOR UPDATE', [customerId], { name: 'payments_lock_customer' });
}
