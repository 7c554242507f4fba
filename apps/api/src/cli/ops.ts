import { loadConfig, ConfigError } from '../config.ts';
import { ownerOnlyUmask, secureDataDirectory } from '../db/data-directory.ts';
import { runOpsCommandHere } from '../modules/ops/registry.ts';
import type { OpsResult } from '../platform/ops-command.ts';
import { readLiveServerLock, type ServerLock } from '../platform/server-lock.ts';

const serverRequestTimeoutMs = 120_000;

/** While a server owns the embedded database, the command runs inside it (decision 004). */
async function runThroughServer(lock: ServerLock, name: string, args: string[]): Promise<OpsResult> {
  const response = await fetch(`http://127.0.0.1:${lock.port}/internal/ops/${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${lock.token}` },
    body: JSON.stringify({ args, workingDirectory: process.cwd() }),
    signal: AbortSignal.timeout(serverRequestTimeoutMs),
  });
  const body: unknown = await response.json();
  if (!response.ok) throw new Error(`The running server refused the command (${response.status}): ${JSON.stringify(body)}`);
  return body as OpsResult;
}

async function main(argv: string[]): Promise<number> {
  const [name = 'help', ...args] = argv;
  process.umask(ownerOnlyUmask);
  const config = await loadConfig(process.env);
  const exposedEntries = await secureDataDirectory(config.dataDirectory);
  if (exposedEntries > 0)
    process.stderr.write(`${config.dataDirectory} had ${exposedEntries} entries that other users could reach; they are owner-only now.\n`);
  const lock = config.databaseUrl ? undefined : await readLiveServerLock(config.dataDirectory);
  const result = lock ? await runThroughServer(lock, name, args) : await runOpsCommandHere(config, name, args);
  (result.exitCode === 0 ? process.stdout : process.stderr).write(`${result.output}\n`);
  // For the person at the terminal (a QR code): standard output stays the command's result alone.
  if (result.notice) process.stderr.write(`${result.notice}\n`);
  return result.exitCode;
}

main(process.argv.slice(2)).then(
  (exitCode) => process.exit(exitCode),
  (error: unknown) => {
    process.stderr.write(`${error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
