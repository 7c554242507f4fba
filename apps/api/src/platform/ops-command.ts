import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { LiveEvents } from './live-events.ts';

/**
 * One command of `npm run ops -- <command>`. Commands run wherever the database is: in the CLI
 * process (PostgreSQL, or PGlite when no server holds it) or inside the running server, reached
 * through its loopback-only ops endpoint (docs/decisions/004-ops-cli-and-embedded-database.md).
 */
export interface OpsContext {
  /** Opened on first use, so a command that needs no database (help) starts at once. */
  database(): Promise<Database>;
  config: Config;
  /** Present when the command runs inside the server: its changes then reach open pages at once. */
  liveEvents?: LiveEvents;
  /** Where the operator ran the CLI (default: this process's): relative file names are taken from there, even inside the server. */
  workingDirectory?: string;
}

export interface OpsResult {
  exitCode: number;
  output: string;
  /** Printed to standard error, for the person at the terminal: standard output stays parseable. */
  notice?: string;
}

export interface OpsCommand {
  name: string;
  summary: string;
  usage: string;
  run(context: OpsContext, args: string[]): Promise<OpsResult>;
}

export class OpsUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OpsUsageError';
  }
}

export function ok(value: unknown): OpsResult {
  return { exitCode: 0, output: typeof value === 'string' ? value : JSON.stringify(value, jsonBigint, 2) };
}

/** JSON cannot hold bigint; cents print as integer strings. */
export function jsonBigint(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
