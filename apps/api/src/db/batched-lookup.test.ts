import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../test/databases.ts';
import { createBatchedLookup, sharedReadPerDatabase } from './batched-lookup.ts';
import type { Queryable } from './database.ts';

describe('batched lookups (decision 044)', () => {
  it('answers the lookups of one moment with one run, each its own value, in the order asked', async () => {
    const runs: number[][] = [];
    const lookup = createBatchedLookup<number, string | undefined>({
      maxBatch: 10,
      concurrency: 1,
      run: async (keys) => {
        runs.push([...keys]);
        return keys.map((key) => (key % 2 === 0 ? `even ${key}` : undefined));
      },
    });
    const answers = await Promise.all([1, 2, 3, 4].map((key) => lookup(key)));
    expect(answers).toEqual([undefined, 'even 2', undefined, 'even 4']);
    expect(runs).toEqual([[1, 2, 3, 4]]);
  });

  it('groups what arrives while a run is in flight, at most maxBatch keys a run', async () => {
    const runs: number[][] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const lookup = createBatchedLookup<number, number>({
      maxBatch: 3,
      concurrency: 1,
      run: async (keys) => {
        runs.push([...keys]);
        if (runs.length === 1) await gate;
        return keys.map((key) => key * 10);
      },
    });
    const first = lookup(1);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [2, 3, 4, 5].map((key) => lookup(key));
    release();
    expect(await Promise.all([first, ...later])).toEqual([10, 20, 30, 40, 50]);
    expect(runs).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('fails every lookup of a run that fails, and of one that answers the wrong number of keys, and goes on after', async () => {
    let fail = true;
    const lookup = createBatchedLookup<number, number>({
      maxBatch: 10,
      concurrency: 2,
      run: async (keys) => {
        if (fail) throw new Error('the database is away');
        return keys.length === 2 ? [1] : keys.map((key) => key);
      },
    });
    const failed = await Promise.allSettled([lookup(1), lookup(2)]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    const short = await Promise.allSettled([lookup(3), lookup(4)]);
    expect(short.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(await lookup(7)).toBe(7);
  });
});

/**
 * Keyless reads shared by the requests of one moment (issue 37, decision 080): the catalogue and
 * the last business day run are read once for all the accounts pages asking together, and none is
 * answered by a statement sent before it asked.
 */
describeEachDatabase('shared keyless reads', (database) => {
  it('answers every caller of one moment with one statement, each with an array of its own', async () => {
    let statements = 0;
    const read = sharedReadPerDatabase(async (db: Queryable) => {
      statements += 1;
      return db.query<{ n: number }>('SELECT 1 AS n');
    });
    const answers = await Promise.all(Array.from({ length: 20 }, () => read(database())));
    expect(answers.every((rows) => rows.length === 1 && rows[0]?.n === 1)).toBe(true);
    expect(statements).toBeLessThanOrEqual(2);
    answers[0]?.pop();
    expect(answers[1]).toHaveLength(1);
  });

  it('never answers a caller with a statement sent before it asked: a committed write is seen by the next read', async () => {
    const db = database();
    await db.query('CREATE TABLE shared_read_probe (n int)');
    const read = sharedReadPerDatabase((handle) => handle.query<{ count: number }>('SELECT count(*)::int AS count FROM shared_read_probe'));
    for (let round = 1; round <= 5; round += 1) {
      // A read in flight when the write commits, and one asked after the commit.
      const inFlight = read(db);
      await db.query('INSERT INTO shared_read_probe (n) VALUES ($1)', [round]);
      const after = await read(db);
      expect(after[0]?.count).toBe(round);
      expect((await inFlight)[0]?.count).toBeGreaterThanOrEqual(round - 1);
    }
  });

  it('inside a transaction reads the transaction’s own writes', async () => {
    const db = database();
    await db.query('CREATE TABLE shared_read_tx_probe (n int)');
    const read = sharedReadPerDatabase((handle) => handle.query<{ count: number }>('SELECT count(*)::int AS count FROM shared_read_tx_probe'));
    const inside = await db
      .transaction(async (tx) => {
        await tx.query('INSERT INTO shared_read_tx_probe (n) VALUES (1)');
        const rows = await read(tx);
        throw Object.assign(new Error('roll back'), { rows });
      })
      .catch((error: { rows?: { count: number }[] }) => error.rows ?? []);
    expect(inside[0]?.count).toBe(1);
    expect((await read(db))[0]?.count).toBe(0);
  });
});
