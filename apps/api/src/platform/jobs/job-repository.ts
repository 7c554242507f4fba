import type { Queryable } from '../../db/database.ts';

/**
 * Each statement takes `now`: the instant of a test clock, or null for the database's now()
 * (db/clock.ts), so one server's clock never disagrees with another's about what is due.
 */

export interface JobRow {
  id: bigint;
  kind: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
}

export interface NewJob {
  kind: string;
  payload?: unknown;
  runAt?: Date;
  maxAttempts?: number;
}

export async function insertJob(db: Queryable, job: NewJob, now: Date | null = null): Promise<bigint> {
  const [row] = await db.query<{ id: bigint }>(
    `INSERT INTO jobs (kind, payload, run_at, max_attempts)
     VALUES ($1, $2::jsonb, coalesce($3::timestamptz, $5::timestamptz, now()), $4) RETURNING id`,
    [job.kind, JSON.stringify(job.payload ?? {}), job.runAt ?? null, job.maxAttempts ?? 5, now],
  );
  if (!row) throw new Error('INSERT ... RETURNING gave no row');
  return row.id;
}

/**
 * Claims up to `limit` due jobs, oldest due first, and hands them back in that order (an UPDATE's
 * RETURNING follows no order of its own: without the outer ORDER BY the card hold release could run
 * before the ledger sweep that expires the holds, in one pass). `SKIP LOCKED` lets several workers
 * (or servers) share the queue on PostgreSQL without waiting on each other; on PGlite there is one
 * connection, so it is moot.
 */
export async function claimDueJobs(db: Queryable, limit: number, now: Date | null = null): Promise<JobRow[]> {
  return db.query<JobRow>(
    `WITH claimed AS (
       UPDATE jobs SET status = 'running', locked_at = coalesce($2::timestamptz, now()), attempts = attempts + 1
        WHERE id IN (
          SELECT id FROM jobs
           WHERE status = 'queued' AND run_at <= coalesce($2::timestamptz, now())
           ORDER BY run_at, id
           LIMIT $1
           FOR UPDATE SKIP LOCKED)
        RETURNING id, kind, payload, attempts, max_attempts, run_at)
     SELECT id, kind, payload, attempts, max_attempts FROM claimed ORDER BY run_at, id`,
    [limit, now],
    { name: 'jobs_claim_due' },
  );
}

export async function markJobDone(db: Queryable, id: bigint, now: Date | null = null): Promise<void> {
  await db.query(`UPDATE jobs SET status = 'done', finished_at = coalesce($2::timestamptz, now()), locked_at = NULL WHERE id = $1`, [id, now]);
}

/** Requeues after `retryDelayMs`, or fails the job for good once its attempts are spent. */
export async function markJobFailed(db: Queryable, job: JobRow, error: string, retryDelayMs: number, now: Date | null = null): Promise<'retrying' | 'failed'> {
  const exhausted = job.attempts >= job.max_attempts;
  await db.query(
    `UPDATE jobs
        SET status = $2, last_error = $3, locked_at = NULL,
            run_at = CASE WHEN $2 = 'queued' THEN coalesce($5::timestamptz, now()) + make_interval(secs => $4::double precision / 1000) ELSE run_at END,
            finished_at = CASE WHEN $2 = 'failed' THEN coalesce($5::timestamptz, now()) ELSE NULL END
      WHERE id = $1`,
    [job.id, exhausted ? 'failed' : 'queued', error.slice(0, 2_000), retryDelayMs, now],
  );
  return exhausted ? 'failed' : 'retrying';
}

/**
 * A job whose run lost the database (a failover, a restart) goes back to the queue at once, and
 * the outage does not count as one of its attempts. Only if it is still this worker's claim: the
 * same attempt, still running (another worker may have taken it back after the lease).
 */
export async function requeueInterruptedJob(db: Queryable, job: Pick<JobRow, 'id' | 'attempts'>): Promise<void> {
  await db.query(
    `UPDATE jobs SET status = 'queued', locked_at = NULL, attempts = greatest(attempts - 1, 0),
            last_error = 'the database was unavailable during the run'
      WHERE id = $1 AND status = 'running' AND attempts = $2`,
    [job.id, job.attempts],
  );
}

/** Jobs left running by a worker that died are given back to the queue after the lease runs out. */
export async function releaseStaleJobs(db: Queryable, leaseMs: number, now: Date | null = null): Promise<number> {
  const rows = await db.query(
    `UPDATE jobs SET status = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
            locked_at = NULL, last_error = coalesce(last_error, 'worker lease expired')
      WHERE status = 'running' AND locked_at < coalesce($2::timestamptz, now()) - make_interval(secs => $1::double precision / 1000)
      RETURNING id`,
    [leaseMs, now],
  );
  return rows.length;
}

export async function countQueuedJobs(db: Queryable): Promise<number> {
  const [row] = await db.query<{ depth: bigint }>(`SELECT count(*)::bigint AS depth FROM jobs WHERE status = 'queued'`);
  return Number(row?.depth ?? 0n);
}

/**
 * Queues a run of a recurring kind unless one is queued or running, in one statement: two runners
 * enqueueing it at once cannot both insert, because the second meets the unique index on pending
 * recurring runs (migration 0024) and does nothing. The NOT EXISTS also counts a run queued
 * before that migration, or by hand. Returns the new job's id, or undefined when one was pending.
 */
export async function enqueueRecurringJob(db: Queryable, kind: string, now: Date | null = null): Promise<bigint | undefined> {
  const [row] = await db.query<{ id: bigint }>(
    `INSERT INTO jobs (kind, run_at, max_attempts, recurring)
     SELECT $1, coalesce($2::timestamptz, now()), 1, true
      WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE kind = $1 AND status IN ('queued', 'running'))
     ON CONFLICT (kind) WHERE recurring AND status IN ('queued', 'running') DO NOTHING
     RETURNING id`,
    [kind, now],
    { name: 'jobs_enqueue_recurring' },
  );
  return row?.id;
}
