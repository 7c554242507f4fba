import { build } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { ownerOnlyUmask, secureDataDirectory } from './db/data-directory.ts';
import { migrate } from './db/migrate.ts';
import QRCode from 'qrcode';
import type { StaffEnrolment } from '@strongroom/contracts/staff.ts';
import { demoSignIn, seedSandbox } from './modules/onboarding/sandbox-seed.ts';
import { ensureSandboxAdmin, sandboxAdmin } from './modules/staff/sandbox-admin.ts';
import { DatabaseUnreachableError, openDatabase } from './db/open-database.ts';
import { newOpsToken, readLiveServerLock, removeServerLock, writeServerLock } from './platform/server-lock.ts';

/** Reads config, opens the database, builds the app, listens. Nothing else. */
async function main(): Promise<void> {
  process.umask(ownerOnlyUmask);
  const config = await loadConfig(process.env);
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
  const app = await build(config, { db, opsToken });
  if (exposedEntries > 0) {
    app.log.warn(
      { dataDirectory: config.dataDirectory, entries: exposedEntries },
      'DATA_DIR had entries that other users could reach; they are owner-only now (folders 0700, files 0600)',
    );
  }
  const starting = (async () => {
    const address = await app.listen({ port: config.port, host: config.host });
    const port = app.server.address();
    const listeningPort = typeof port === 'object' && port ? port.port : config.port;
    if (opsToken) await writeServerLock(config.dataDirectory, { pid: process.pid, port: listeningPort, token: opsToken });
    app.services.jobs.start();
    if (config.mode === 'sandbox') await seedSandbox({ db, storage: app.services.storage, secrets: config.secrets });
    const newAdmin = config.mode === 'sandbox' ? await ensureSandboxAdmin({ db, config }) : undefined;
    return { address, listeningPort, newAdmin };
  })();
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // A signal during start-up (the sandbox's first seed takes a few seconds) waits for it to finish,
    // so the embedded database is closed cleanly rather than killed mid-write.
    await starting.catch(() => undefined);
    // Stop taking requests and let those in flight finish, then the jobs, then the database.
    await app.close();
    await app.services.jobs.stop();
    await db.close();
    if (opsToken) await removeServerLock(config.dataDirectory);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const { address, listeningPort, newAdmin } = await starting;

  // The printed address is the one the emails link to (config.publicUrl), unless the port was
  // chosen by the system (PORT=0) and only the listening socket knows it.
  const url = listeningPort === config.port ? config.publicUrl : address;
  const lines = [
    '',
    `  ${config.bankName} is open at ${url}`,
    `  Mode: ${config.mode}${config.mode === 'sandbox' ? ' (Sandbox: no real money)' : ''}`,
    `  Database: ${embedded ? `PGlite in ${config.dataDirectory} (for trying and developing; use PostgreSQL for real money)` : 'PostgreSQL'}`,
    ...(config.mode === 'sandbox'
      ? [
          `  Sandbox inbox (mail and SMS): ${url}/dev/mail`,
          `  Demo customer: ${demoSignIn.email} / ${demoSignIn.password}`,
          `  Staff console: ${url}/ops/login as ${sandboxAdmin.email} / ${sandboxAdmin.password} (the page offers the current code)`,
        ]
      : []),
    ...(newAdmin ? await newAdminLines(newAdmin) : []),
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
