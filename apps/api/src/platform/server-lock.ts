import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

/**
 * PGlite lets one process own a data directory. The server that owns it writes `server.json`
 * there (mode 0600): its pid, its port and a random token for the loopback ops endpoint. The ops
 * CLI reads it to decide whether to go through the server or open the database itself.
 */
const serverLockSchema = z.object({ pid: z.number().int(), port: z.number().int(), token: z.string().min(32) });
export type ServerLock = z.infer<typeof serverLockSchema>;

export function serverLockPath(dataDirectory: string): string {
  return path.join(dataDirectory, 'server.json');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM means the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock of a live server on this data directory, or undefined (none, or a stale one). */
export async function readLiveServerLock(dataDirectory: string): Promise<ServerLock | undefined> {
  const text = await readFile(serverLockPath(dataDirectory), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const parsed = serverLockSchema.safeParse(JSON.parse(text));
  if (!parsed.success || !isAlive(parsed.data.pid) || parsed.data.pid === process.pid) return undefined;
  return parsed.data;
}

export function newOpsToken(): string {
  return randomBytes(32).toString('base64url');
}

export async function writeServerLock(dataDirectory: string, lock: ServerLock): Promise<void> {
  await writeFile(serverLockPath(dataDirectory), JSON.stringify(lock), { mode: 0o600 });
}

export async function removeServerLock(dataDirectory: string): Promise<void> {
  await rm(serverLockPath(dataDirectory), { force: true });
}
