/**
 * Where the ledger's deadlines and the job queue's schedule read the time. In production no clock
 * is given and SQL uses the transaction's now(): one clock for every server sharing the database,
 * and every row a transaction writes gets the same instant. A test gives a clock instead; its
 * instant is read once per transaction and sent as a parameter in place of now(), so a test can
 * let an hour pass without waiting for it. It lives in db/ because the ledger may import only db/.
 */
export interface Clock {
  now(): Date;
}

/** The time of the machine, for the work that happens in the process (when a recurring job is due). */
export const systemClock: Clock = { now: () => new Date() };

/** What to send in place of now(): null lets `coalesce($n::timestamptz, now())` take the database's time. */
export function sqlInstant(clock: Clock | undefined): Date | null {
  return clock ? clock.now() : null;
}

/**
 * A clock that stands still until the test moves it. It starts at the real time, so rows that
 * other code writes with the database's now() are not in its future.
 */
export class TestClock implements Clock {
  #nowMs: number;

  constructor(start: Date = new Date()) {
    this.#nowMs = start.getTime();
  }

  now(): Date {
    return new Date(this.#nowMs);
  }

  advance(milliseconds: number): void {
    if (!Number.isInteger(milliseconds) || milliseconds < 0) throw new RangeError('A test clock moves forward by whole milliseconds');
    this.#nowMs += milliseconds;
  }

  /** Another clock standing `milliseconds` later, leaving this one where it is. */
  later(milliseconds: number): TestClock {
    return new TestClock(new Date(this.#nowMs + milliseconds));
  }
}
