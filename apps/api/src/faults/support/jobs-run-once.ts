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
 * JOBS_CLOCK_AT (an ISO instant) gives the runner and the ledger a clock standing at that time,
 * as the in-process tests do (db/clock.ts), so a hold that expires in 7 days can expire now.
 */
const config = await loadConfig(process.env);
if (!config.databaseUrl) throw new Error('jobs-run-once needs DATABASE_URL');
const at = process.env.JOBS_CLOCK_AT;
const db = await openPostgres(config.databaseUrl, 4);
const app = await build(config, { db, clock: at ? new TestClock(new Date(at)) : undefined });
process.stdout.write('worker: running the due jobs\n');
const ran = await app.services.jobs.runOnce();
process.stdout.write(`worker: ran ${ran} jobs\n`);
await app.close();
await db.close();
