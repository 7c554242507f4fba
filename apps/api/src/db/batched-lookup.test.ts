import { describe, expect, it } from 'vitest';
import { createBatchedLookup } from './batched-lookup.ts';

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
