import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { TestClock } from '../db/clock.ts';
import type { Queryable } from '../db/database.ts';
import { describeEachDatabase } from '../test/databases.ts';
import { DatabaseRateLimitStore } from './rate-limit-store.ts';

/**
 * The counters of requests counted at the same moment go to the database together (decision 044):
 * one statement for a turn's increments, each request still given its own place in its window.
 */
describeEachDatabase('rate-limit counters counted together', (database) => {
  /** The database, counting the statements sent through it. */
  function counting(): { db: Queryable; statements: () => number } {
    let statements = 0;
    return {
      db: {
        query: (text, params, options) => {
          statements += 1;
          return database().query(text, params, options);
        },
      },
      statements: () => statements,
    };
  }

  it("counts one turn's increments in one statement, each request in its own place, several keys and scopes at once", async () => {
    const { db, statements } = counting();
    const clock = new TestClock();
    const alice = `customer:${randomUUID()}`;
    const bob = `customer:${randomUUID()}`;
    const money = new DatabaseRateLimitStore(db, clock, 'group money');
    const contact = new DatabaseRateLimitStore(db, clock, 'POST /api/v1/contact');
    const answers = await Promise.all([
      money.increment(alice, 60_000),
      money.increment(bob, 60_000),
      money.increment(alice, 60_000),
      contact.increment(alice, 60_000),
      money.increment(alice, 60_000),
    ]);
    expect(answers.map((answer) => answer.current)).toEqual([1, 1, 2, 1, 3]);
    for (const answer of answers) expect(answer.ttl).toBe(60_000);
    expect(statements()).toBe(1);

    // The next turn counts on from there; a window that ended starts again at one.
    expect((await money.increment(alice, 60_000)).current).toBe(4);
    clock.advance(60_001);
    const [afresh, again] = await Promise.all([money.increment(alice, 60_000), money.increment(alice, 60_000)]);
    expect([afresh.current, again.current]).toEqual([1, 2]);
    expect(statements()).toBe(3);
  });

  it('counts one key asked with two windows in the same turn in two statements, each right', async () => {
    const { db, statements } = counting();
    const clock = new TestClock();
    const key = `address:${randomUUID()}`;
    const store = new DatabaseRateLimitStore(db, clock, 'limiter');
    const [minute, hour] = await Promise.all([store.increment(key, 60_000), store.increment(key, 3_600_000)]);
    expect(minute.current).toBe(1);
    expect(hour.current).toBe(2);
    expect(minute.ttl).toBe(60_000);
    expect(statements()).toBe(2);
  });

  it('gives every request of a failed statement the error, and counts nothing', async () => {
    const broken: Queryable = { query: () => Promise.reject(new Error('the database is away')) };
    const store = new DatabaseRateLimitStore(broken, undefined, 'group money');
    const results = await Promise.allSettled([store.increment('customer:x', 60_000), store.increment('customer:y', 60_000)]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  });
});
