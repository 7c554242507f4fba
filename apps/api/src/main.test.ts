import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repositoryRoot = path.resolve(import.meta.dirname, '../../..');

/** A port that nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

describe('starting the server', () => {
  it('says in one line, without a stack or the password, that a production database cannot be reached, and exits 1', async () => {
    const port = await closedPort();
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
      cwd: repositoryRoot,
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        ...process.env,
        BANK_MODE: 'production',
        DATABASE_URL: `postgres://bank:${password}@127.0.0.1:${port}/bank`,
        SESSION_SECRET: randomBytes(32).toString('base64'),
        ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        SMTP_URL: 'smtp://127.0.0.1:2525',
        SMS_URL: 'http://127.0.0.1:9/sms',
        DATA_DIR: await mkdtemp(path.join(tmpdir(), 'strongroom-main-')),
        PORT: '0',
        LOG_LEVEL: 'warn',
      },
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`PostgreSQL at 127\\.0\\.0\\.1:${port}/bank cannot be reached \\(.*ECONNREFUSED.*\\)`));
    expect(result.stderr).not.toContain(password);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe('');
  });
});
