import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

/**
 * The real server as its own process, for the suites that must kill it, restart it or attack it
 * over a socket (faults/): `node --import tsx apps/api/src/main.ts` with the environment given.
 */
export const repositoryRoot = path.resolve(import.meta.dirname, '../../../../..');

/** A loopback port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly origin: string;
  readonly port: number;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  readonly exited: Promise<number | string>;
  /** SIGTERM (a clean stop) or SIGKILL (a crash), then waits for the process to end. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<number | string>;
}

/** A browser's session on a server of the bank, over HTTP: its cookies and CSRF token. */
export interface HttpSession {
  cookie: string;
  csrf: string;
  /** The sign-in's answer body ({ user, ... }). */
  body: unknown;
}

/**
 * Signs in over HTTP as a browser would (the sandbox's demo customer by default) and keeps the
 * session's cookies; throws with the server's answer when it is not 200.
 */
export async function signInOverHttp(origin: string, credentials: { email: string; password: string }): Promise<HttpSession> {
  const response = await fetch(`${origin}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`sign-in answered ${response.status}: ${text}`);
  const cookies = response.headers.getSetCookie().map((line) => line.split(';')[0] ?? '');
  return {
    cookie: cookies.join('; '),
    csrf: cookies.find((pair) => pair.startsWith('csrf='))?.slice('csrf='.length) ?? '',
    body: JSON.parse(text) as unknown,
  };
}

export interface StartOptions {
  /** Added to the test environment; DATABASE_URL '' means the embedded database in DATA_DIR. */
  env: Record<string, string>;
  /** A port to reuse (a restart keeps the address clients know); a free one otherwise. */
  port?: number;
  /** How long to wait for `/api/v1/ready` to answer 200. */
  readyTimeoutMs?: number;
}

const baseEnvironment = {
  LOG_LEVEL: 'warn',
  RAIL_SPEED: 'instant',
  BANK_MODE: 'sandbox',
  KYC_AUTO_APPROVE_SECONDS: 'off',
  CARD_AUTO_APPROVE_SECONDS: 'off',
  // No web build is needed to attack the API; a path with no index.html serves none.
  WEB_DIST_DIR: path.join(repositoryRoot, 'apps/api/src/faults/no-web-app'),
};

/** Starts the server and waits until it is ready (database reachable, migrated, listening). */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: repositoryRoot,
    env: { ...process.env, ...baseEnvironment, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: origin, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const server: ServerProcess = {
    child,
    origin,
    port,
    output: () => printed,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 90_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`The server exited before it was ready:\n${printed}`);
    if (Date.now() > deadline) {
      await server.stop('SIGKILL');
      throw new Error(`The server was not ready in time:\n${printed}`);
    }
    const ready = await fetch(`${origin}/api/v1/ready`).then(
      (response) => response.status === 200,
      () => false,
    );
    // Ready answers once the database is; the sandbox seed and staff admin come right after listening.
    if (ready && printed.includes('is open at')) return server;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
