import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const wrkPath = '/usr/bin/wrk';
const scriptPath = path.join(import.meta.dirname, 'load.lua');
/** Two threads: the machine has two cores, and wrk's threads cost the server little each. */
export const wrkThreads = 2;

/** One request template of load.lua: a method, a path, a session's cookie and CSRF token, a body. */
export interface RequestTemplate {
  method: 'GET' | 'POST';
  path: string;
  cookie: string;
  csrf: string;
  body: string;
}

export interface WrkResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  /** By HTTP status, as load.lua's response() counted them. */
  statuses: Record<string, number>;
  non2xx: number;
  socketErrors: { connect: number; read: number; write: number; timeout: number };
  latencyMs: { p50: number; p90: number; p99: number; p999: number; max: number; mean: number };
  /** The payment ids of the 201 answers (money workloads). */
  acknowledgedIds: string[];
}

interface LuaSummary {
  requests: number;
  durationUs: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  latencyUs: { p50: number; p90: number; p99: number; p999: number; max: number; mean: number };
  statuses: Record<string, number>;
}

export interface WrkOptions {
  origin: string;
  templates: readonly RequestTemplate[];
  connections: number;
  seconds: number;
  /** Starts every Idempotency-Key of the run (unique per cell). */
  keyPrefix: string;
  /** Where the templates and the summary go. */
  workDirectory: string;
  name: string;
  /** Requests per second for the whole run (the soak's pacing); absent: as fast as answers come. */
  rate?: number;
}

/** Runs wrk once with load.lua and reads what its done() wrote. */
export async function runWrk(options: WrkOptions): Promise<WrkResult> {
  for (const template of options.templates) {
    for (const field of [template.path, template.cookie, template.csrf, template.body]) {
      if (/[\t\n]/.test(field)) throw new Error(`a request template field holds a tab or a newline: ${field}`);
    }
  }
  const requestsFile = path.join(options.workDirectory, `${options.name}.requests.tsv`);
  const outFile = path.join(options.workDirectory, `${options.name}.json`);
  await writeFile(requestsFile, options.templates.map((t) => [t.method, t.path, t.cookie, t.csrf, t.body].join('\t')).join('\n') + '\n');
  const threads = Math.min(wrkThreads, options.connections);
  await run(
    wrkPath,
    ['-t', String(threads), '-c', String(options.connections), '-d', `${options.seconds}s`, '--timeout', '10s', '-s', scriptPath, options.origin],
    {
      env: {
        ...process.env,
        BENCH_REQUESTS: requestsFile,
        BENCH_OUT: outFile,
        BENCH_KEY_PREFIX: options.keyPrefix,
        BENCH_THREADS: String(threads),
        BENCH_RATE: options.rate === undefined ? '' : String(options.rate),
      },
      timeout: (options.seconds + 60) * 1000,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const summary = JSON.parse(await readFile(outFile, 'utf8')) as LuaSummary;
  const idsText = await readFile(`${outFile}.ids`, 'utf8');
  const seconds = summary.durationUs / 1e6;
  const non2xx = Object.entries(summary.statuses)
    .filter(([status]) => !status.startsWith('2'))
    .reduce((sum, [, count]) => sum + count, 0);
  const ms = (us: number) => us / 1000;
  return {
    requests: summary.requests,
    seconds,
    requestsPerSecond: summary.requests / seconds,
    statuses: summary.statuses,
    non2xx,
    socketErrors: { connect: summary.errors.connect, read: summary.errors.read, write: summary.errors.write, timeout: summary.errors.timeout },
    latencyMs: {
      p50: ms(summary.latencyUs.p50),
      p90: ms(summary.latencyUs.p90),
      p99: ms(summary.latencyUs.p99),
      p999: ms(summary.latencyUs.p999),
      max: ms(summary.latencyUs.max),
      mean: ms(summary.latencyUs.mean),
    },
    acknowledgedIds: idsText.split('\n').filter((line) => line.length > 0),
  };
}

export function socketErrorCount(result: WrkResult): number {
  const { connect, read, write, timeout } = result.socketErrors;
  return connect + read + write + timeout;
}
