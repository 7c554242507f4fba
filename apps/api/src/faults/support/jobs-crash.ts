import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { repositoryRoot } from './server-process.ts';

/**
 * Kills a job worker mid-run, deterministically and without a hook in the product: the test holds
 * a row lock (SELECT ... FOR UPDATE in an open transaction) on a row that the k-th effect of the
 * job writes, starts the worker (support/jobs-run-once.ts), waits until PostgreSQL shows the
 * worker's connection waiting for that lock, and sends SIGKILL. What the worker committed before
 * the k-th effect stays; what it had in hand is rolled back; its job stays `running` under a lease
 * nobody renews.
 */
const workerApplicationName = 'strongroom-jobs-crash-worker';
const blockTimeoutMs = 45_000;

export interface PreparedWorker {
  readonly child: ChildProcess;
  /** What the worker printed so far. */
  output(): string;
  readonly exited: Promise<number | string>;
}

const idleWorkers = new Set<PreparedWorker>();

/**
 * Starts a worker now (loading the app takes seconds) that waits to be told to run; the test seeds
 * its data meanwhile. `databaseUrl`: the test database's connection string (PostgreSQL); `env`: the
 * worker's environment besides DATABASE_URL (DATA_DIR, RAIL_SPEED, ...).
 */
export function prepareWorker(databaseUrl: string, env: Record<string, string>): PreparedWorker {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('apps/api/src/faults/support/jobs-run-once.ts')], {
    cwd: repositoryRoot,
    env: { ...process.env, ...env, DATABASE_URL: withApplicationName(databaseUrl) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const worker: PreparedWorker = {
    child,
    output: () => printed,
    exited: new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'))),
  };
  idleWorkers.add(worker);
  void worker.exited.then(() => idleWorkers.delete(worker));
  return worker;
}

/** Ends the workers a failed test prepared and never used. */
export async function stopIdleWorkers(): Promise<void> {
  for (const worker of idleWorkers) worker.child.kill('SIGKILL');
  await Promise.all([...idleWorkers].map((worker) => worker.exited));
}

export interface CrashOptions {
  /** The test database's connection string (PostgreSQL). */
  databaseUrl: string;
  worker: PreparedWorker;
  /** The instant the worker's clock stands at; without one, the database's now(). */
  at?: Date;
  /** A `SELECT ... FOR UPDATE` that locks exactly one row, the one the k-th effect needs, or a `LOCK TABLE`. */
  lock: { text: string; values: unknown[] };
}

export interface CrashOutcome {
  /** What the worker printed before it died. */
  output: string;
  /** How it ended: 'SIGKILL' when the test killed it. */
  ended: number | string;
}

function withApplicationName(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('application_name', workerApplicationName);
  return url.toString();
}

export async function crashWorkerOnLockedRow(options: CrashOptions): Promise<CrashOutcome> {
  const { worker } = options;
  const { child } = worker;
  const holder = new pg.Client({ connectionString: options.databaseUrl });
  await holder.connect();
  try {
    await holder.query('BEGIN');
    const locked = await holder.query(options.lock.text, options.lock.values);
    if (locked.command === 'SELECT' && locked.rowCount !== 1) throw new Error(`the lock query locked ${locked.rowCount} rows, not 1`);

    const readyBy = Date.now() + blockTimeoutMs;
    while (!worker.output().includes('worker: ready')) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`The worker ended before it was ready:\n${worker.output()}`);
      if (Date.now() > readyBy) throw new Error(`The worker was not ready within ${blockTimeoutMs} ms:\n${worker.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    child.stdin?.end(`${JSON.stringify(options.at ? { at: options.at.toISOString() } : {})}\n`);
    const output = () => worker.output();
    const exited = worker.exited;

    const deadline = Date.now() + blockTimeoutMs;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        const jobs = await holder.query('SELECT kind, status, run_at, last_error FROM jobs ORDER BY id DESC LIMIT 12');
        throw new Error(`The worker finished without reaching the locked row (so nothing was killed mid-run):\n${output()}\n${JSON.stringify(jobs.rows)}`);
      }
      // Inside a transaction pg_stat_activity is read once and kept: clear that snapshot each time.
      await holder.query('SELECT pg_stat_clear_snapshot()');
      const waiting = await holder.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = $1 AND wait_event_type = 'Lock'`,
        [workerApplicationName],
      );
      if ((waiting.rows[0] as { n: number }).n > 0) break;
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        const activity = await holder.query(
          `SELECT application_name, state, wait_event_type, wait_event, left(query, 200) AS query FROM pg_stat_activity WHERE datname = current_database()`,
        );
        throw new Error(`The worker never waited for the locked row within ${blockTimeoutMs} ms:\n${output()}\n${JSON.stringify(activity.rows, null, 1)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }

    child.kill('SIGKILL');
    const ended = await exited;
    // The dead process's server connections would otherwise linger until they next write to the
    // socket; the server ends them, as it does once it notices a client gone (their open
    // transactions roll back). Only the worker's connections, named by application_name.
    await holder.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [
      workerApplicationName,
    ]);
    for (let attempt = 0; attempt < 200; attempt += 1) {
      await holder.query('SELECT pg_stat_clear_snapshot()');
      const left = await holder.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [
        workerApplicationName,
      ]);
      if ((left.rows[0] as { n: number }).n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return { output: output(), ended };
  } finally {
    await holder.query('ROLLBACK').catch(() => undefined);
    await holder.end();
  }
}
