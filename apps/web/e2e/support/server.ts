import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The real server the journeys drive: started once for all of them by global-setup.ts, or by a journey that needs a bank of its own. */
const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');
const serverStartTimeoutMs = 180_000;

/** A loopback port nobody listens on now, so the server can be told its address (and put it in its emails) before it starts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startServer(dataDirectory: string, webDistDirectory: string): Promise<{ server: ChildProcess; baseUrl: string }> {
  const port = await freePort();
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: repositoryRoot,
    // The browser journeys run on the embedded database; the API suites cover PostgreSQL.
    env: {
      ...process.env,
      DATABASE_URL: '',
      PORT: String(port),
      // Links in emails point where the browser goes, so a journey can follow one from the sandbox inbox.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDirectory,
      WEB_DIST_DIR: webDistDirectory,
      LOG_LEVEL: 'warn',
      RAIL_SPEED: 'instant',
      BANK_MODE: 'sandbox',
      // Staff decide identity reviews in the journeys, as in production: no automatic approval.
      KYC_AUTO_APPROVE_SECONDS: 'off',
      CARD_AUTO_APPROVE_SECONDS: 'off',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`The server did not start in time:\n${output}`)), serverStartTimeoutMs);
    server.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /is open at (http:\/\/[^\s]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ server, baseUrl: match[1] });
      }
    });
    server.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The server exited with code ${code} before it started:\n${output}`));
    });
  });
}

/** A sandbox server of a journey's own, on a data directory of its own, serving the shared build; `stop` ends it. */
export async function startServerForJourney(webDistDirectory: string): Promise<{ baseUrl: string; dataDirectory: string; stop: () => Promise<void> }> {
  const dataDirectory = await mkdtemp(path.join(tmpdir(), 'strongroom-e2e-own-'));
  const { server, baseUrl } = await startServer(dataDirectory, webDistDirectory);
  return {
    baseUrl,
    dataDirectory,
    stop: async () => {
      const exited = new Promise((resolve) => server.on('exit', resolve));
      server.kill('SIGTERM');
      await exited;
      await rm(dataDirectory, { recursive: true, force: true });
    },
  };
}
