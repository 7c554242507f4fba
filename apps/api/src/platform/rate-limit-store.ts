import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sqlInstant, type Clock } from '../db/clock.ts';
import type { Queryable } from '../db/database.ts';

/**
 * A store for @fastify/rate-limit that keeps its counters in the database, so every API process on
 * one DATABASE_URL counts against the same allowance (PRODUCT.md section 6: "several API processes
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
 * One statement per request: create the counter, or count one more in the current window, or open
 * a new window if the last one ended; and say how many requests the window holds and how long it
 * has left. The row lock of the upsert orders concurrent requests of one key, so none is lost; the
 * count stops at the largest integer, which is far past any limit.
 */
const incrementSql = `
  INSERT INTO rate_limit_counters AS counter (scope, key, hits, window_ends_at)
  VALUES ($1, $2, 1, coalesce($4::timestamptz, now()) + $3::integer * interval '1 millisecond')
  ON CONFLICT (scope, key) DO UPDATE SET
    hits = CASE WHEN counter.window_ends_at <= coalesce($4::timestamptz, now()) THEN 1 ELSE least(counter.hits, 2147483646) + 1 END,
    window_ends_at = CASE WHEN counter.window_ends_at <= coalesce($4::timestamptz, now()) THEN excluded.window_ends_at ELSE counter.window_ends_at END
  RETURNING hits, ceil(extract(epoch FROM counter.window_ends_at - coalesce($4::timestamptz, now())) * 1000)::integer AS ttl_ms`;

interface CounterRow {
  hits: number;
  ttl_ms: number;
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
    const rows = await this.#db.query<CounterRow>(incrementSql, [this.scope, key, timeWindowMs, sqlInstant(this.#clock)], { name: 'rate-limit-increment' });
    const row = rows[0];
    if (!row || !Number.isInteger(row.hits) || row.hits < 1) throw new Error('The rate-limit counter did not come back');
    if (!Number.isInteger(row.ttl_ms)) throw new Error('The rate-limit window did not come back');
    // now() is when a statement's transaction began: one that waited on the row lock behind another
    // process's new window may see a little more than a whole window left.
    return { current: row.hits, ttl: Math.min(Math.max(row.ttl_ms, 0), timeWindowMs) };
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
