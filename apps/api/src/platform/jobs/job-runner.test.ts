import pino from 'pino';
import { expect, it } from 'vitest';
import { TestClock } from '../../db/clock.ts';
import { describeEachDatabase, openAnotherHandle } from '../../test/databases.ts';
import { claimDueJobs, countQueuedJobs, insertJob, releaseStaleJobs } from './job-repository.ts';
import { JobRunner } from './job-runner.ts';

const silent = pino({ level: 'silent' });

describeEachDatabase('the job queue', (database, kind) => {
  const jobStatus = async (id: bigint) =>
    (
      await database().query<{ status: string; attempts: number; last_error: string | null }>('SELECT status, attempts, last_error FROM jobs WHERE id = $1', [
        id,
      ])
    )[0];

  it('runs a due job once with its payload and marks it done', async () => {
    const runner = new JobRunner(database(), silent);
    const seen: unknown[] = [];
    runner.register('greet', async (payload) => {
      seen.push(payload);
    });
    const id = await runner.enqueue({ kind: 'greet', payload: { name: 'Ada' } });
    await runner.runOnce();
    await runner.runOnce();
    expect(seen).toEqual([{ name: 'Ada' }]);
    expect(await jobStatus(id)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('does not run a job before its time, and runs it once its time has come', async () => {
    const clock = new TestClock();
    const runner = new JobRunner(database(), silent, { clock });
    let runs = 0;
    runner.register('later', async () => void runs++);
    await runner.enqueue({ kind: 'later', runAt: new Date(clock.now().getTime() + 60_000) });
    clock.advance(59_999);
    await runner.runOnce();
    expect(runs).toBe(0);
    clock.advance(1);
    await runner.runOnce();
    expect(runs).toBe(1);
  });

  it('retries a failing job with a delay and gives up after its attempts, keeping the error', async () => {
    const clock = new TestClock();
    const runner = new JobRunner(database(), silent, { retryBaseDelayMs: 1_000, clock });
    let runs = 0;
    runner.register('flaky', async () => {
      runs++;
      throw new Error(`attempt ${runs} failed`);
    });
    const id = await runner.enqueue({ kind: 'flaky', maxAttempts: 3 });
    await runner.runOnce();
    // Retry 1 waits a second, retry 2 two: not a moment before.
    await runner.runOnce();
    expect(runs).toBe(1);
    clock.advance(1_000);
    await runner.runOnce();
    expect(runs).toBe(2);
    clock.advance(1_999);
    await runner.runOnce();
    expect(runs).toBe(2);
    clock.advance(1);
    for (let pass = 0; pass < 3; pass++) await runner.runOnce();
    expect(runs).toBe(3);
    expect(await jobStatus(id)).toMatchObject({ status: 'failed', attempts: 3, last_error: 'attempt 3 failed' });
  });

  it('fails a job whose kind has no handler instead of losing it', async () => {
    const runner = new JobRunner(database(), silent, { retryBaseDelayMs: 0 });
    const id = await runner.enqueue({ kind: 'nobody-handles-this', maxAttempts: 1 });
    await runner.runOnce();
    expect(await jobStatus(id)).toMatchObject({ status: 'failed', last_error: 'No handler for job kind nobody-handles-this' });
  });

  it('gives a job back to the queue when its worker died holding it', async () => {
    const id = await insertJob(database(), { kind: 'orphan' });
    const claimed = await claimDueJobs(database(), 100);
    expect(claimed.map((job) => job.id)).toContain(id);
    await database().query("UPDATE jobs SET locked_at = now() - interval '10 minutes' WHERE id = $1", [id]);
    expect(await releaseStaleJobs(database(), 5 * 60 * 1_000)).toBeGreaterThanOrEqual(1);
    expect(await jobStatus(id)).toMatchObject({ status: 'queued' });
    expect(await countQueuedJobs(database())).toBeGreaterThanOrEqual(1);
  });

  it('runs the jobs it claims in the order they fell due', async () => {
    const clock = new TestClock();
    const runner = new JobRunner(database(), silent, { clock, batchSize: 50 });
    const seen: number[] = [];
    runner.register('ordered', async (payload) => void seen.push((payload as { n: number }).n));
    // Enqueued last-due first, so the table holds them in the opposite order of their due times.
    for (let n = 19; n >= 0; n--) await runner.enqueue({ kind: 'ordered', payload: { n }, runAt: new Date(clock.now().getTime() - 60_000 + n * 1_000) });
    await runner.runOnce();
    expect(seen).toEqual(Array.from({ length: 20 }, (_, n) => n));
  });

  it('after a restart, runs at once the recurring job a dead worker held, once its lease has run out', async () => {
    const clock = new TestClock();
    const dead = new JobRunner(database(), silent, { clock });
    dead.every('nightly', 60 * 60 * 1_000);
    dead.register('nightly', async () => undefined);
    // The dead worker claimed it and never finished: the row stays 'running' under its lease.
    await dead.enqueue({ kind: 'nightly', maxAttempts: 1 });
    const held = (await claimDueJobs(database(), 100, clock.now())).find((job) => job.kind === 'nightly');
    if (!held) throw new Error('the nightly job was not claimed');
    const restarted = new JobRunner(database(), silent, { clock: clock.later(5 * 60 * 1_000 + 1) });
    let runs = 0;
    restarted.register('nightly', async () => void runs++);
    restarted.every('nightly', 60 * 60 * 1_000);
    await restarted.runOnce();
    expect(runs).toBe(1);
    expect(await jobStatus(held.id)).toMatchObject({ status: 'failed', last_error: 'worker lease expired' });
  });

  it('enqueues a recurring job only when none is waiting', async () => {
    const runner = new JobRunner(database(), silent);
    let runs = 0;
    runner.register('sweep', async () => void runs++);
    runner.every('sweep', 60_000);
    await runner.runOnce();
    await runner.runOnce();
    expect(runs).toBe(1);
  });

  it('runs each of many jobs exactly once with two runners on one database (each its own pool on PostgreSQL)', async () => {
    const other = await openAnotherHandle(database());
    try {
      const ran: bigint[] = [];
      const runners = [new JobRunner(database(), silent, { batchSize: 3 }), new JobRunner(other.db, silent, { batchSize: 3 })];
      for (const runner of runners) runner.register('shared-work', async (_, job) => void ran.push(job.id));
      const ids: bigint[] = [];
      for (let index = 0; index < 120; index++) ids.push(await insertJob(database(), { kind: 'shared-work' }));
      const drain = async (runner: JobRunner) => {
        while ((await runner.runOnce()) > 0);
      };
      await Promise.all(runners.map(drain));
      expect([...ran].sort((a, b) => Number(a - b))).toEqual(ids);
      const [row] = await database().query<{ done: bigint }>(`SELECT count(*)::bigint AS done FROM jobs WHERE kind = 'shared-work' AND status = 'done'`);
      expect(row?.done).toBe(120n);
    } finally {
      await other.close();
    }
  });

  it('queues one run of a recurring kind when two runners enqueue it at the same moment, round after round', async () => {
    const other = await openAnotherHandle(database());
    try {
      const clock = new TestClock();
      const intervalMs = 60_000;
      const runners = [new JobRunner(database(), silent, { clock }), new JobRunner(other.db, silent, { clock })];
      // Each run waits for the round to be counted, so it stays 'running' while both runners enqueue.
      let entered = 0;
      let passesDone = 0;
      const gates: Array<() => void> = [];
      let counted = false;
      for (const runner of runners) {
        runner.register('shared-sweep', async () => {
          entered++;
          if (!counted) await new Promise<void>((resolve) => gates.push(resolve));
        });
        runner.every('shared-sweep', intervalMs);
      }
      const rounds = 25;
      for (let round = 1; round <= rounds; round++) {
        entered = 0;
        passesDone = 0;
        counted = false;
        const passes = runners.map((runner) => runner.runOnce().then(() => void passesDone++));
        // Every runner has enqueued once it either runs the sweep (and waits) or ended its pass.
        while (entered + passesDone < runners.length) await new Promise((resolve) => setTimeout(resolve, 1));
        const [row] = await database().query<{ jobs: bigint }>(`SELECT count(*)::bigint AS jobs FROM jobs WHERE kind = 'shared-sweep'`);
        counted = true;
        for (const open of gates.splice(0)) open();
        await Promise.all(passes);
        expect(row?.jobs).toBe(BigInt(round));
        expect(entered).toBe(1);
        clock.advance(intervalMs);
      }
    } finally {
      await other.close();
    }
  });

  it.runIf(kind === 'postgres')('hands each job to exactly one of several concurrent workers', async () => {
    const ids = new Set<bigint>();
    for (let index = 0; index < 40; index++) ids.add(await insertJob(database(), { kind: 'shared' }));
    const claims = await Promise.all(Array.from({ length: 8 }, () => claimDueJobs(database(), 10)));
    const claimed = claims
      .flat()
      .map((job) => job.id)
      .filter((id) => ids.has(id));
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.length).toBe(40);
  });

  it('gives a run that lost the database back to the queue at once, without counting it as an attempt', async () => {
    const runner = new JobRunner(database(), silent, { retryBaseDelayMs: 60_000 });
    let runs = 0;
    runner.register('settle', async () => {
      runs++;
      // What node-postgres raises when a failover ends the connection under a query.
      if (runs === 1) throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    });
    const id = await runner.enqueue({ kind: 'settle', maxAttempts: 1 });
    await runner.runOnce();
    // Not failed for good (its one attempt), not waiting a retry delay or the 5-minute lease.
    expect(await jobStatus(id)).toMatchObject({ status: 'running', attempts: 1 });
    await runner.runOnce();
    expect(runs).toBe(2);
    expect(await jobStatus(id)).toMatchObject({ status: 'done', attempts: 1, last_error: 'the database was unavailable during the run' });
  });

  it('starts, polls and stops cleanly', async () => {
    const runner = new JobRunner(database(), silent, { pollIntervalMs: 20 });
    let resolveRun: () => void = () => undefined;
    const ran = new Promise<void>((resolve) => {
      resolveRun = resolve;
    });
    runner.register('polled', async () => resolveRun());
    await runner.enqueue({ kind: 'polled' });
    runner.start();
    await ran;
    await runner.stop();
  });
});
