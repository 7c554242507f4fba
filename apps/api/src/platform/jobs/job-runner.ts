import type { FastifyBaseLogger } from 'fastify';
import { sqlInstant, systemClock, type Clock } from '../../db/clock.ts';
import type { Database } from '../../db/database.ts';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import {
  claimDueJobs,
  enqueueRecurringJob,
  insertJob,
  markJobDone,
  markJobFailed,
  releaseStaleJobs,
  requeueInterruptedJob,
  type JobRow,
  type NewJob,
} from './job-repository.ts';

export type JobHandler = (payload: unknown, job: { id: bigint; attempt: number }) => Promise<void>;

export interface JobRunnerOptions {
  pollIntervalMs?: number;
  batchSize?: number;
  leaseMs?: number;
  /** Delay before retry n (1-based): base * 2^(n-1), capped. */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /**
   * Decides what is due. Without one, recurring jobs follow the machine's time and the queue the
   * database's now(); a test gives a clock and moves it instead of waiting (db/clock.ts).
   */
  clock?: Clock;
}

/**
 * How long a claimed job belongs to its worker. A worker that died (a crash, SIGKILL, a lost
 * machine) holds its jobs until then; another worker, or the same server restarted, then runs them
 * again, so every handler must be safe to run twice (faults/jobs-under-crashes.test.ts).
 */
export const defaultJobLeaseMs = 5 * 60 * 1_000;

const defaults = {
  pollIntervalMs: 500,
  batchSize: 10,
  leaseMs: defaultJobLeaseMs,
  retryBaseDelayMs: 1_000,
  retryMaxDelayMs: 15 * 60 * 1_000,
} as const;

interface Recurring {
  kind: string;
  intervalMs: number;
  nextAt: number;
}

/**
 * A database-backed job queue run inside the server process. Jobs survive restarts because they
 * live in the `jobs` table; a failing job is retried with growing delays and given up after its
 * `max_attempts`, with the last error kept for the operator.
 */
export class JobRunner {
  readonly #db: Database;
  readonly #log: FastifyBaseLogger;
  readonly #handlers = new Map<string, JobHandler>();
  readonly #recurring: Recurring[] = [];
  readonly #options: Required<Omit<JobRunnerOptions, 'clock'>>;
  readonly #clock: Clock | undefined;
  /**
   * Jobs whose run lost the database: whether their effect committed is unknown here, and every
   * effect is safe to repeat, so they go back to the queue as soon as the database answers again
   * (the next pass) rather than after the lease (docs/deploy.md, "The bank through a failover").
   */
  readonly #interrupted = new Map<bigint, JobRow>();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;
  #stopped = true;

  constructor(db: Database, log: FastifyBaseLogger, options: JobRunnerOptions = {}) {
    this.#db = db;
    this.#log = log;
    const { clock, ...rest } = options;
    this.#options = { ...defaults, ...rest };
    this.#clock = clock;
  }

  register(kind: string, handler: JobHandler): void {
    if (this.#handlers.has(kind)) throw new Error(`A handler for job kind ${kind} is already registered`);
    this.#handlers.set(kind, handler);
  }

  /**
   * Enqueues `kind` every `intervalMs` unless one is already waiting or running (sweeps,
   * settlements); with several runners on one database, still only one (enqueueRecurringJob).
   */
  every(kind: string, intervalMs: number): void {
    if (intervalMs < 1_000) throw new RangeError('A recurring job runs at most once a second');
    this.#recurring.push({ kind, intervalMs, nextAt: 0 });
  }

  enqueue(job: NewJob): Promise<bigint> {
    return insertJob(this.#db, job, sqlInstant(this.#clock));
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule(0);
  }

  /** Stops polling and waits for the jobs in hand to finish. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#running;
  }

  /**
   * One pass: stale leases released, due recurring jobs enqueued, a batch claimed and run. The
   * leases go first: a recurring job a dead worker held (one attempt, so it ends `failed`) no
   * longer counts as waiting, and the same pass enqueues the next run of that kind instead of
   * leaving its work for a whole interval.
   */
  async runOnce(): Promise<number> {
    const nowMs = (this.#clock ?? systemClock).now().getTime();
    for (const job of this.#interrupted.values()) {
      await requeueInterruptedJob(this.#db, job);
      this.#interrupted.delete(job.id);
    }
    await releaseStaleJobs(this.#db, this.#options.leaseMs, sqlInstant(this.#clock));
    for (const recurring of this.#recurring) {
      if (recurring.nextAt > nowMs) continue;
      recurring.nextAt = nowMs + recurring.intervalMs;
      await enqueueRecurringJob(this.#db, recurring.kind, sqlInstant(this.#clock));
    }
    const jobs = await claimDueJobs(this.#db, this.#options.batchSize, sqlInstant(this.#clock));
    for (const job of jobs) await this.#run(job);
    return jobs.length;
  }

  async #run(job: JobRow): Promise<void> {
    const handler = this.#handlers.get(job.kind);
    try {
      if (!handler) throw new Error(`No handler for job kind ${job.kind}`);
      await handler(job.payload, { id: job.id, attempt: job.attempts });
      await markJobDone(this.#db, job.id, sqlInstant(this.#clock));
    } catch (error) {
      if (isDatabaseUnavailable(error)) {
        this.#interrupted.set(job.id, job);
        this.#log.warn({ jobId: String(job.id), kind: job.kind, attempt: job.attempts }, 'job interrupted: the database is unavailable');
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      const delayMs = Math.min(this.#options.retryBaseDelayMs * 2 ** (job.attempts - 1), this.#options.retryMaxDelayMs);
      const outcome = await markJobFailed(this.#db, job, message, delayMs, sqlInstant(this.#clock));
      this.#log.warn({ jobId: String(job.id), kind: job.kind, attempt: job.attempts, outcome, error: message }, 'job failed');
    }
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#running = this.runOnce().catch((error: unknown) => {
        // The database away (a failover) is not a defect: the next pass tries again.
        if (isDatabaseUnavailable(error))
          this.#log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'job runner pass: the database is unavailable');
        else this.#log.error({ err: error }, 'job runner pass failed');
        return 0;
      });
      void this.#running.then((count) => this.#schedule(count === this.#options.batchSize ? 0 : this.#options.pollIntervalMs));
    }, delayMs);
    this.#timer.unref();
  }
}
