import { createCommitQueue } from './commit-queue.ts';
import type { Queryable } from './database.ts';

/**
 * Reads that arrive at the same moment go to the database in one statement (decision 044): the
 * lookups asked while `concurrency` earlier statements are in flight (or in the same turn of the
 * event loop) are answered together, as group commit does for writes (commit-queue.ts). Under
 * light load each lookup is a statement of its own, without added latency; under load, 32
 * requests that each read their session cost a handful of statements instead of 32.
 *
 * `run` answers the keys it is given in the same order (undefined for a key with no row); a
 * failure answers every lookup of its statement with the error.
 */
export interface BatchedLookupOptions<Key, Value> {
  /** Most keys in one statement. */
  maxBatch: number;
  /** Most statements in flight at once; each holds a connection for a moment. */
  concurrency: number;
  run(keys: readonly Key[]): Promise<readonly Value[]>;
}

export type BatchedLookup<Key, Value> = (key: Key) => Promise<Value>;

export function createBatchedLookup<Key, Value>(options: BatchedLookupOptions<Key, Value>): BatchedLookup<Key, Value> {
  interface Waiting {
    key: Key;
    resolve(value: Value): void;
    reject(error: unknown): void;
  }
  const queue = createCommitQueue<Waiting>({
    maxWeight: options.maxBatch,
    concurrency: options.concurrency,
    async run(group) {
      try {
        const values = await options.run(group.map((waiting) => waiting.key));
        if (values.length !== group.length) throw new Error(`a batched lookup answered ${values.length} of ${group.length} keys`);
        group.forEach((waiting, index) => waiting.resolve(values[index] as Value));
      } catch (error) {
        for (const waiting of group) waiting.reject(error);
      }
    },
  });
  return (key) => new Promise<Value>((resolve, reject) => queue.push({ key, resolve, reject }));
}

/**
 * One batched lookup per database handle (each app, each test's database), made on first use.
 * Inside a transaction a lookup must see the transaction's own writes, so a handle that is a
 * transaction's (it cannot begin one) is read directly, one statement per key.
 */
export function batchedPerDatabase<Key, Value>(
  make: (db: Queryable) => BatchedLookup<Key, Value>,
  direct: (db: Queryable, key: Key) => Promise<Value>,
): (db: Queryable, key: Key) => Promise<Value> {
  const lookups = new WeakMap<Queryable, BatchedLookup<Key, Value>>();
  return (db, key) => {
    if (!isPool(db)) return direct(db, key);
    let lookup = lookups.get(db);
    if (!lookup) {
      lookup = make(db);
      lookups.set(db, lookup);
    }
    return lookup(key);
  };
}

/** A handle that can begin transactions is the pool (or PGlite's one connection), not a transaction. */
function isPool(db: Queryable): boolean {
  return typeof Reflect.get(db, 'transaction') === 'function';
}

/**
 * A read with no key (the product catalogue, the last business day run) shared by every caller
 * that asks while earlier statements are in flight: one statement answers them all, and none is
 * answered by a statement sent before it asked, so each still sees every write committed before it
 * asked. Inside a transaction it is read directly. Each caller gets an array of its own.
 */
export function sharedReadPerDatabase<Row>(read: (db: Queryable) => Promise<Row[]>): (db: Queryable) => Promise<Row[]> {
  const lookup = batchedPerDatabase<null, Row[]>(
    (db) =>
      createBatchedLookup<null, Row[]>({
        maxBatch: 1_000,
        concurrency: 1,
        run: async (keys) => {
          const rows = await read(db);
          return keys.map(() => rows);
        },
      }),
    (db) => read(db),
  );
  return async (db) => [...(await lookup(db, null))];
}
