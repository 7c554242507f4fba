import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer } from './support/server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the started server answers, such as http://127.0.0.1:41234. */
    baseUrl: string;
    /** The Chromium to drive, or '' when none was found (the browser suites are then skipped). */
    chromiumPath: string;
    /** The build the server serves, for journeys that measure its files. */
    webDistDirectory: string;
    /** The server's DATA_DIR, for journeys that check what it stored with the ops CLI. */
    dataDirectory: string;
  }
}

const repositoryRoot = path.resolve(import.meta.dirname, '../../..');

function findChromium(): string {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
  return candidates.find((candidate) => existsSync(candidate)) ?? '';
}

/** Builds into a directory of its own, so a developer's rebuild of apps/web/dist cannot pull assets from under the journeys. */
function buildWebApp(outDirectory: string): void {
  // Vitest exports NODE_ENV=test; a build under it would bundle React's development code, which is
  // not what visitors get nor what the size budget measures.
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDirectory, '--emptyOutDir'], {
    cwd: path.join(repositoryRoot, 'apps/web'),
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error('The web app did not build; the browser tests cannot run');
}

/**
 * Builds the web app and starts the real server for the browser journeys. Without Chromium the
 * journeys are skipped with a notice, except in CI, where a missing browser is a failure.
 */
export default async function setup(project: TestProject) {
  const chromiumPath = findChromium();
  if (!chromiumPath) {
    if (process.env.CI === 'true') throw new Error('CI=true but no Chromium was found (set CHROME_PATH or apt-get install chromium)');
    process.stdout.write('Browser tests skipped: no Chromium found. Install it with `apt-get install chromium` or set CHROME_PATH.\n');
    project.provide('chromiumPath', '');
    project.provide('baseUrl', '');
    project.provide('webDistDirectory', '');
    project.provide('dataDirectory', '');
    return;
  }
  const webDistDirectory = await mkdtemp(path.join(tmpdir(), 'strongroom-e2e-web-'));
  buildWebApp(webDistDirectory);
  const dataDirectory = await mkdtemp(path.join(tmpdir(), 'strongroom-e2e-'));
  const { server, baseUrl } = await startServer(dataDirectory, webDistDirectory);
  project.provide('dataDirectory', dataDirectory);
  project.provide('webDistDirectory', webDistDirectory);
  project.provide('chromiumPath', chromiumPath);
  project.provide('baseUrl', baseUrl);
  return async () => {
    // After every journey has moved its money, the ledger's invariants must still hold
    // (`npm run ops -- check-ledger`, through the running server's loopback door).
    const ledgerCheck = await checkLedgerThroughServer(baseUrl, dataDirectory);
    const exited = new Promise((resolve) => server.on('exit', resolve));
    server.kill('SIGTERM');
    await exited;
    if (ledgerCheck.exitCode !== 0) throw new Error(`check-ledger failed after the browser journeys:\n${ledgerCheck.output}`);
  };
}

async function checkLedgerThroughServer(baseUrl: string, dataDirectory: string): Promise<{ exitCode: number; output: string }> {
  const lock = JSON.parse(await readFile(path.join(dataDirectory, 'server.json'), 'utf8')) as { token: string };
  const response = await fetch(`${baseUrl}/internal/ops/check-ledger`, {
    method: 'POST',
    headers: { authorization: `Bearer ${lock.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ args: [] }),
  });
  return (await response.json()) as { exitCode: number; output: string };
}
