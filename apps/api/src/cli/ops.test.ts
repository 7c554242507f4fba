import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeWebDist } from '../test/app.ts';
import { createTestDatabase } from '../test/databases.ts';
import { serverLockPath } from '../platform/server-lock.ts';

const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');
const cliEntry = 'apps/api/src/cli/ops.ts';
const serverEntry = 'apps/api/src/main.ts';
/**
 * How long one CLI or server process may take. The first `status` on a new data directory creates
 * the embedded database (about 8 s of CPU on a 2-core machine); beside the other suites it passed
 * 60 s there (decision 083).
 */
const processTimeoutMs = 180_000;

function runCli(args: string[], environment: Record<string, string>) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', cliEntry, ...args], {
    cwd: repositoryRoot,
    env: { ...process.env, DATABASE_URL: '', ...environment },
    encoding: 'utf8',
    timeout: processTimeoutMs,
  });
  return { exitCode: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Resolves with what the process printed once it has printed `expected`; fails as soon as it exits first. */
function printed(child: ChildProcess, expected: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(expected)) resolve(output);
    });
    child.once('exit', (code) => reject(new Error(`the process exited (${code}) before printing "${expected}": ${output}`)));
  });
}

describe('the ops CLI on the embedded database', () => {
  const servers: ChildProcess[] = [];
  afterAll(() => servers.forEach((server) => server.kill('SIGKILL')));

  it('prints help listing its commands', async () => {
    const result = runCli(['help'], { DATA_DIR: await mkdtemp(path.join(tmpdir(), 'strongroom-cli-')) });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Usage: npm run ops -- <command>');
    expect(result.stdout).toContain('status');
  });

  it('answers an unknown command with exit code 2', async () => {
    const result = runCli(['no-such-command'], { DATA_DIR: await mkdtemp(path.join(tmpdir(), 'strongroom-cli-')) });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('Unknown command: no-such-command');
  });

  it('works without a server, then through the running server, which shuts down cleanly on SIGTERM', async () => {
    const dataDirectory = await mkdtemp(path.join(tmpdir(), 'strongroom-cli-'));
    const environment = { DATA_DIR: dataDirectory, WEB_DIST_DIR: await fakeWebDist(), LOG_LEVEL: 'warn' };

    const offline = runCli(['status'], environment);
    expect(offline.exitCode).toBe(0);
    expect(JSON.parse(offline.stdout)).toMatchObject({ database: 'pglite' });
    expect(JSON.parse(offline.stdout).migrations).toContain('0001_platform.sql');

    const server = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
      cwd: repositoryRoot,
      env: { ...process.env, ...environment, DATABASE_URL: '', PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    servers.push(server);
    const output = await printed(server, 'is open at');
    expect(output).toContain('is open at http://localhost:');
    expect(existsSync(serverLockPath(dataDirectory))).toBe(true);

    const online = runCli(['status'], environment);
    expect(online.exitCode, online.stderr).toBe(0);
    expect(JSON.parse(online.stdout)).toMatchObject({ database: 'pglite', mode: 'sandbox' });

    const second = spawnSync(process.execPath, ['--import', 'tsx', serverEntry], {
      cwd: repositoryRoot,
      env: { ...process.env, ...environment, DATABASE_URL: '', PORT: '0' },
      encoding: 'utf8',
      timeout: processTimeoutMs,
    });
    expect(second.status).toBe(1);
    expect(second.stderr).toContain('already uses');

    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(serverLockPath(dataDirectory))).toBe(false);

    const afterwards = runCli(['status'], environment);
    expect(afterwards.exitCode).toBe(0);
    // Three CLI processes and a whole server start and stop here, each loading TypeScript through tsx:
    // about 20 s on a quiet machine, and more than 60 s for the first alone on a loaded 2-core one.
    // Four processes, one after another: four times `processTimeoutMs`.
  }, 720_000);
});

describe.runIf(process.env.DATABASE_URL)('the ops CLI on PostgreSQL', () => {
  it('connects to DATABASE_URL directly', async () => {
    const testDatabase = await createTestDatabase('postgres');
    try {
      const result = runCli(['status'], { DATA_DIR: await mkdtemp(path.join(tmpdir(), 'strongroom-cli-')), DATABASE_URL: testDatabase.url ?? '' });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ database: 'postgres' });
    } finally {
      await testDatabase.dispose();
    }
  });
});
