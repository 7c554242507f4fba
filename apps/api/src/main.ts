import cluster from 'node:cluster';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import { build } from './app.ts';
import { addressForBrowser, ConfigError, loadConfig, sandboxNetworkWarning, type Config } from './config.ts';
import type { Database } from './db/database.ts';
import { superviseWorkers } from './platform/cluster.ts';
import { loggerOptions } from './platform/logging.ts';
import { storageFor } from './platform/storage.ts';
import { ownerOnlyUmask, secureDataDirectory } from './db/data-directory.ts';
import { migrate } from './db/migrate.ts';
import QRCode from 'qrcode';
import type { StaffEnrolment } from '@strongroom/contracts/staff.ts';
import { demoSignIn, seedSandbox } from './modules/onboarding/sandbox-seed.ts';
import { seedSandboxBillers } from './modules/billers/sandbox-seed.ts';
import { seedSandboxBudgetApp } from './modules/sandbox-budget-app/seed.ts';
import { ensureSandboxAdmin, sandboxAdmin } from './modules/staff/sandbox-admin.ts';
import { DatabaseUnreachableError, openDatabase } from './db/open-database.ts';
import { newOpsToken, readLiveServerLock, removeServerLock, writeServerLock } from './platform/server-lock.ts';

/**
 * Reads config, opens the database, builds the app, listens. Nothing else. With WEB_CONCURRENCY
 * above 1 (PostgreSQL only) this process becomes the primary: it migrates and seeds once and keeps
 * that many workers serving the port, each of which runs this file again as a worker.
 */
async function main(): Promise<void> {
  process.umask(ownerOnlyUmask);
  const config = await loadConfig(process.env);
  if (cluster.isWorker) return runWorker(config);
  // Before the database opens, so the operator sees it even if the start fails later.
  const networkWarning = sandboxNetworkWarning(config);
  if (networkWarning) process.stderr.write(`${networkWarning}\n`);
  if (config.webConcurrency > 1) return runPrimary(config);
  return runSingleProcess(config);
}

/** Stops once on SIGTERM or SIGINT (or `also`), whatever arrives first, then exits 0. */
function onShutdown(stop: (signal: string) => Promise<void>, also: string[] = []): void {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    await stop(signal);
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT', ...also]) process.on(signal, () => void shutdown(signal));
}

/** Builds the app on an open, migrated database, listens and starts the jobs. */
async function serve(config: Config, db: Database, opsToken?: string) {
  const app = await build(config, { db, opsToken });
  // Fastify's own line names the bound IP address; it also names the address to open, since
  // passkeys work at `localhost` and not at 127.0.0.1 (decision 006).
  await app.listen({ port: config.port, host: config.host, listenTextResolver: (bound) => `Server listening at ${bound}; open ${openAt(config, bound)}` });
  const port = app.server.address();
  const listeningPort = typeof port === 'object' && port ? port.port : config.port;
  const address = listeningPort === config.port ? config.publicUrl : addressForBrowser(config.host, listeningPort);
  if (opsToken) await writeServerLock(config.dataDirectory, { pid: process.pid, port: listeningPort, token: opsToken });
  app.services.jobs.start();
  return { app, address, listeningPort };
}

/** Stop taking requests and let those in flight finish, then the jobs, then the database. */
async function closeServer(app: FastifyInstance, db: Database): Promise<void> {
  await app.close();
  await app.services.jobs.stop();
  await db.close();
}

/** The sandbox's demo customer and staff admin, made once per database (by one process). */
async function seedOnce(config: Config, db: Database): Promise<StaffEnrolment | undefined> {
  if (config.mode !== 'sandbox') return undefined;
  await seedSandbox({ db, storage: storageFor(config), secrets: config.secrets });
  await seedSandboxBillers(db, config);
  // Issue 38: the fictional budgeting app, registered as a data recipient with its own key.
  await seedSandboxBudgetApp(db, config);
  return ensureSandboxAdmin({ db, config });
}

async function runSingleProcess(config: Config): Promise<void> {
  const embedded = !config.databaseUrl;
  if (embedded) {
    const other = await readLiveServerLock(config.dataDirectory);
    if (other)
      throw new ConfigError([
        `Another server (pid ${other.pid}, port ${other.port}) already uses ${config.dataDirectory}; the embedded database allows one process.`,
      ]);
  }
  const exposedEntries = await secureDataDirectory(config.dataDirectory);

  const db = await openDatabase(config);
  await migrate(db);
  const opsToken = embedded ? newOpsToken() : undefined;
  const starting = (async () => {
    const served = await serve(config, db, opsToken);
    if (exposedEntries > 0) warnExposed(served.app.log, config, exposedEntries);
    return { ...served, newAdmin: await seedOnce(config, db) };
  })();
  onShutdown(async (signal) => {
    // A signal during start-up (the sandbox's first seed takes a few seconds) waits for it to finish,
    // so the embedded database is closed cleanly rather than killed mid-write.
    const started = await starting.catch(() => undefined);
    started?.app.log.info({ signal }, 'shutting down');
    if (started) await closeServer(started.app, db);
    else await db.close();
    if (opsToken) await removeServerLock(config.dataDirectory);
  });

  const { address, newAdmin } = await starting;
  await printOpening(config, address, newAdmin);
}

/**
 * The primary of WEB_CONCURRENCY workers: migrates and seeds once (the workers only open the
 * database), forks, restarts a worker that dies, and on SIGTERM or SIGINT stops them all. It
 * serves no requests itself.
 */
async function runPrimary(config: Config): Promise<void> {
  const log = pino(loggerOptions(config));
  const exposedEntries = await secureDataDirectory(config.dataDirectory);
  if (exposedEntries > 0) warnExposed(log, config, exposedEntries);
  const db = await openDatabase(config);
  await migrate(db);
  const workers = superviseWorkers(config.webConcurrency, log);
  const seeding = seedOnce(config, db);
  onShutdown(async (signal) => {
    log.info({ signal }, 'shutting down the workers');
    // Restarts end at once (a worker hit by the same Ctrl-C must not be replaced); a seed under way finishes.
    await Promise.all([workers.stop(), seeding.catch(() => undefined)]);
    await db.close();
  });
  const [port, newAdmin] = await Promise.all([workers.listening, seeding]);
  log.info({ workers: config.webConcurrency, port }, 'all workers listening');
  await printOpening(config, port === config.port ? config.publicUrl : addressForBrowser(config.host, port), newAdmin, config.webConcurrency);
}

/** One of the primary's workers: the database is migrated and seeded already. */
async function runWorker(config: Config): Promise<void> {
  const db = await openDatabase(config);
  const { app } = await serve(config, db);
  // 'disconnect': the primary is gone (killed), and with it whoever would restart or stop this one.
  onShutdown(
    async (signal) => {
      app.log.info({ signal }, 'worker shutting down');
      await closeServer(app, db);
    },
    ['disconnect'],
  );
}

function warnExposed(log: Pick<FastifyBaseLogger, 'warn'>, config: Config, entries: number): void {
  log.warn(
    { dataDirectory: config.dataDirectory, entries },
    'DATA_DIR had entries that other users could reach; they are owner-only now (folders 0700, files 0600)',
  );
}

/** The address to open for a server bound at `bound` (Fastify's `http://ip:port`). */
function openAt(config: Config, bound: string): string {
  const port = Number(new URL(bound).port);
  return port === config.port ? config.publicUrl : addressForBrowser(config.host, port);
}

/**
 * The printed address is the one the emails link to (config.publicUrl), unless the port was
 * chosen by the system (PORT=0) and only the listening socket knows it.
 */
async function printOpening(config: Config, url: string, newAdmin: StaffEnrolment | undefined, workers = 1): Promise<void> {
  const embedded = !config.databaseUrl;
  const networkWarning = sandboxNetworkWarning(config);
  const lines = [
    '',
    `  ${config.bankName} is open at ${url}`,
    `  Mode: ${config.mode}${config.mode === 'sandbox' ? ' (Sandbox: no real money)' : ''}`,
    `  Database: ${embedded ? `PGlite in ${config.dataDirectory} (for trying and developing; use PostgreSQL for real money)` : 'PostgreSQL'}`,
    ...(workers > 1 ? [`  Workers: ${workers} processes (WEB_CONCURRENCY)`] : []),
    ...(config.mode === 'sandbox'
      ? [
          `  Sandbox inbox (mail and SMS): ${url}/dev/mail`,
          `  Demo customer: ${demoSignIn.email} / ${demoSignIn.password}`,
          `  Sandbox connected app (Pennywise): ${url}/sandbox/budget-app`,
          `  Staff console: ${url}/ops/login as ${sandboxAdmin.email} / ${sandboxAdmin.password} (the page offers the current code)`,
        ]
      : []),
    ...(newAdmin ? await newAdminLines(newAdmin) : []),
    // Again last, where the eye lands: the /dev routes above are open to a network.
    ...(networkWarning ? ['', networkWarning] : []),
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Printed once, when the sandbox admin is created: its authenticator secret is not shown again. */
async function newAdminLines(enrolment: StaffEnrolment): Promise<string[]> {
  const qr = await QRCode.toString(enrolment.otpauthUri, { type: 'terminal', small: true });
  return [
    `  Sandbox admin's authenticator secret (shown once): ${enrolment.totpSecret}`,
    `  ${enrolment.otpauthUri}`,
    ...qr.split('\n').map((line) => `  ${line}`),
  ];
}

/** A setup problem is told in its own words; anything else is a defect and keeps its stack. */
function startFailure(error: unknown): string {
  if (error instanceof ConfigError || error instanceof DatabaseUnreachableError) return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

main().catch((error: unknown) => {
  process.stderr.write(`${startFailure(error)}\n`);
  process.exit(1);
});
