import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sqlInstant, type Clock } from '../db/clock.ts';
import { createCommitQueue, type CommitQueue } from '../db/commit-queue.ts';
import type { Queryable } from '../db/database.ts';

/**
 * A store for @fastify/rate-limit that keeps its counters in the database, so every API process on
 * one DATABASE_URL counts against the same allowance (docs/product.md section 6: "several API processes
 * on one DATABASE_URL are one bank"). The time is the database's (or a test's clock): processes on
 * machines whose clocks disagree still agree on when a window ends.
 * See docs/decisions/042-rate-limits-in-the-database.md.
 */

/** Longer than any scope or key the API makes; the table checks the same bound. */
export const rateLimitKeyMaxLength = 300;
/** The longest window a limit may have: a window's remaining milliseconds must fit an integer. */
export const rateLimitWindowMaxMs = 24 * 60 * 60 * 1_000;

export const rateLimitSweepJobKind = 'rate-limits.sweep';
/** How often counters whose window ended are deleted; a stale row is harmless meanwhile. */
export const rateLimitSweepIntervalMs = 5 * 60 * 1_000;

/**
 * One statement for the requests counted at the same moment (decision 044: under load, the
 * increments queued while earlier ones are in flight go together, db/commit-queue.ts): each
 * counter is created, or counts its requests in the current window, or opens a new window if the
 * last one ended; and says how many requests the window holds and how long it has left. A key
 * asked for several times in one statement counts them all at once, and each request is given its
 * own place in the count. The row locks of the upsert order concurrent statements (taken in
 * (scope, key) order, so two processes' statements cannot deadlock); the count stops at the
 * largest integer, which is far past any limit.
 */
const incrementSql = `
  INSERT INTO rate_limit_counters AS counter (scope, key, hits, window_ends_at)
  SELECT c.scope, c.key, c.hits, coalesce($5::timestamptz, now()) + c.window_ms * interval '1 millisecond'
    FROM unnest($1::text[], $2::text[], $3::integer[], $4::integer[]) WITH ORDINALITY AS c (scope, key, hits, window_ms, position)
   ORDER BY c.position
  ON CONFLICT (scope, key) DO UPDATE SET
    hits = CASE WHEN counter.window_ends_at <= coalesce($5::timestamptz, now()) THEN excluded.hits
                ELSE least(counter.hits, 2147483647 - excluded.hits) + excluded.hits END,
    window_ends_at = CASE WHEN counter.window_ends_at <= coalesce($5::timestamptz, now()) THEN excluded.window_ends_at ELSE counter.window_ends_at END
  RETURNING scope, key, hits, ceil(extract(epoch FROM counter.window_ends_at - coalesce($5::timestamptz, now())) * 1000)::integer AS ttl_ms`;

interface CounterRow {
  scope: string;
  key: string;
  hits: number;
  ttl_ms: number;
}

interface Increment {
  scope: string;
  key: string;
  windowMs: number;
  resolve(result: { current: number; ttl: number }): void;
  reject(error: unknown): void;
}

/** Most increments in one statement. */
const maxIncrementsPerStatement = 500;
/** Most increment statements in flight at once (each holds a connection for a moment). */
const incrementConcurrency = 4;

/** One queue per database and clock: every store of an app (each limit's child) shares its app's. */
const queues = new WeakMap<object, Map<Clock | undefined, CommitQueue<Increment>>>();

function incrementQueueOf(db: Queryable, clock: Clock | undefined): CommitQueue<Increment> {
  let byClock = queues.get(db);
  if (!byClock) {
    byClock = new Map();
    queues.set(db, byClock);
  }
  let queue = byClock.get(clock);
  if (!queue) {
    queue = createCommitQueue<Increment>({
      maxWeight: maxIncrementsPerStatement,
      concurrency: incrementConcurrency,
      run: (group) => incrementAll(db, clock, group),
    });
    byClock.set(clock, queue);
  }
  return queue;
}

const counterId = (scope: string, key: string) => `${scope}\u0000${key}`;

/**
 * Counts a group of increments in as few statements as windows differ (one, in practice): the
 * requests of one counter are counted together, in the order they came, and each is told its own
 * place in the window's count. Answers each increment; never throws.
 */
async function incrementAll(db: Queryable, clock: Clock | undefined, group: readonly Increment[]): Promise<void> {
  const counters = new Map<string, { scope: string; key: string; windowMs: number; increments: Increment[] }>();
  const later: Increment[] = [];
  for (const increment of group) {
    const id = counterId(increment.scope, increment.key);
    const counter = counters.get(id);
    if (!counter) counters.set(id, { scope: increment.scope, key: increment.key, windowMs: increment.windowMs, increments: [increment] });
    else if (counter.windowMs === increment.windowMs) counter.increments.push(increment);
    // The same counter with another window (two limits sharing a scope and key): its own statement.
    else later.push(increment);
  }
  // In (scope, key) order: two statements lock the rows they share in the same order.
  const ordered = [...counters.values()].sort((a, b) => {
    const x = counterId(a.scope, a.key);
    const y = counterId(b.scope, b.key);
    return x < y ? -1 : x > y ? 1 : 0;
  });
  try {
    const rows = await db.query<CounterRow>(
      incrementSql,
      [ordered.map((c) => c.scope), ordered.map((c) => c.key), ordered.map((c) => c.increments.length), ordered.map((c) => c.windowMs), sqlInstant(clock)],
      { name: 'rate-limit-increment-many' },
    );
    const byId = new Map(rows.map((row) => [counterId(row.scope, row.key), row]));
    for (const counter of ordered) {
      const row = byId.get(counterId(counter.scope, counter.key));
      const valid = row !== undefined && Number.isInteger(row.hits) && row.hits >= counter.increments.length && Number.isInteger(row.ttl_ms);
      counter.increments.forEach((increment, index) => {
        if (!row || !valid) {
          increment.reject(new Error('The rate-limit counter did not come back'));
          return;
        }
        // now() is when a statement's transaction began: one that waited on the row lock behind
        // another process's new window may see a little more than a whole window left.
        increment.resolve({ current: row.hits - (counter.increments.length - 1 - index), ttl: Math.min(Math.max(row.ttl_ms, 0), counter.windowMs) });
      });
    }
  } catch (error) {
    for (const counter of ordered) for (const increment of counter.increments) increment.reject(error);
  }
  if (later.length > 0) await incrementAll(db, clock, later);
}

/** A property of an object the plugin hands over untyped (its types call it a RouteOptions). */
function propertyOf(value: unknown, name: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const property: unknown = Reflect.get(value, name);
  return property;
}

/**
 * Which counters a limit uses, from what the plugin gives `child`: the route's merged limit
 * options, with the route under `routeInfo`. A group (`groupId`) is one allowance over all its
 * routes; a route has its own; a limiter made with `app.createRateLimit` has no route (the plugin
 * gives it none), so its key generator names it (`payee-check:<customer>`).
 */
export function rateLimitScopeOf(options: object): string {
  const groupId = propertyOf(options, 'groupId');
  if (typeof groupId === 'string' && groupId.length > 0) return `group ${groupId}`;
  const routeInfo = propertyOf(options, 'routeInfo');
  const method = propertyOf(routeInfo, 'method');
  const url = propertyOf(routeInfo, 'url');
  const methods = Array.isArray(method) ? method.join(',') : method;
  if (typeof methods === 'string' && methods.length > 0 && typeof url === 'string') return `${methods} ${url}`;
  return 'limiter';
}

export class DatabaseRateLimitStore implements FastifyRateLimitStore {
  readonly #db: Queryable;
  readonly #clock: Clock | undefined;
  readonly scope: string;

  constructor(db: Queryable, clock: Clock | undefined, scope: string) {
    if (scope.length === 0 || scope.length > rateLimitKeyMaxLength) throw new Error(`A rate-limit scope must have 1 to ${rateLimitKeyMaxLength} characters`);
    this.#db = db;
    this.#clock = clock;
    this.scope = scope;
  }

  incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
    this.increment(key, timeWindow).then(
      (result) => callback(null, result),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
  }

  async increment(key: string, timeWindowMs: number): Promise<{ current: number; ttl: number }> {
    // The key comes from the API's own key generators (an address, a customer id): a bad one is a defect.
    if (key.length === 0 || key.length > rateLimitKeyMaxLength) throw new Error(`A rate-limit key must have 1 to ${rateLimitKeyMaxLength} characters`);
    if (!Number.isInteger(timeWindowMs) || timeWindowMs <= 0 || timeWindowMs > rateLimitWindowMaxMs)
      throw new Error(`Not a rate-limit window: ${timeWindowMs} ms`);
    const queue = incrementQueueOf(this.#db, this.#clock);
    return new Promise((resolve, reject) => queue.push({ scope: this.scope, key, windowMs: timeWindowMs, resolve, reject }));
  }

  child(options: object): DatabaseRateLimitStore {
    return new DatabaseRateLimitStore(this.#db, this.#clock, rateLimitScopeOf(options));
  }
}

/** The plugin makes its store with `new`, so the database and the clock come in by closure. */
export function databaseRateLimitStore(db: Queryable, clock?: Clock): FastifyRateLimitStoreCtor {
  return class extends DatabaseRateLimitStore {
    constructor() {
      super(db, clock, 'global');
    }
  };
}

/** Deletes counters whose window has ended; returns how many. Run by the recurring sweep job. */
export async function sweepRateLimitCounters(db: Queryable, clock?: Clock): Promise<number> {
  const rows = await db.query<{ deleted: number }>(
    `WITH gone AS (DELETE FROM rate_limit_counters WHERE window_ends_at <= coalesce($1::timestamptz, now()) RETURNING 1)
     SELECT count(*)::integer AS deleted FROM gone`,
    [sqlInstant(clock)],
  );
  return rows[0]?.deleted ?? 0;
}
