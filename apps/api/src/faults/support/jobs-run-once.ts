import { createInterface } from 'node:readline';
import { build } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { TestClock } from '../../db/clock.ts';
import { openPostgres } from '../../db/postgres.ts';

/**
 * A worker process for faults/jobs-under-crashes.test.ts: the whole app built on the test's
 * PostgreSQL database (the same wiring as the server, app.ts), then one pass of its job runner,
 * which enqueues every recurring job (settlement, expiry, loan repayments, ...) and runs what is
 * due. The test kills this process with SIGKILL while it is blocked on a row the test holds; it
 * prints nothing the product does not, and has no hook into the jobs it runs.
 *
 * It loads and connects at once, says `worker: ready`, then waits for one line on stdin before it
 * builds the app and runs the jobs, so that its start-up overlaps the test's seeding. The line is
 * JSON: `{ "at": ISO instant }` gives the runner and the ledger a clock standing at that time, as
 * the in-process tests do (db/clock.ts), so a hold that expires in 7 days can expire now; `{}`
 * leaves them on the database's now(). Stdin closed without a line: it exits without running.
 */
const config = await loadConfig(process.env);
if (!config.databaseUrl) throw new Error('jobs-run-once needs DATABASE_URL');
const db = await openPostgres(config.databaseUrl, 4);
process.stdout.write('worker: ready\n');
const lines = createInterface({ input: process.stdin });
const line = await new Promise<string | undefined>((resolve) => {
  lines.once('line', resolve);
  lines.once('close', () => resolve(undefined));
});
lines.close();
if (line === undefined) {
  await db.close();
  process.exit(0);
}
const { at } = JSON.parse(line) as { at?: string };
const app = await build(config, { db, clock: at ? new TestClock(new Date(at)) : undefined });
process.stdout.write('worker: running the due jobs\n');
const ran = await app.services.jobs.runOnce();
process.stdout.write(`worker: ran ${ran} jobs\n`);
await app.close();
await db.close();
