/**
 * `npm run bench:http`: money through the whole stack (issue 16, decision 045). On a throwaway
 * PostgreSQL of its own, durable as a bank runs it (fsync and synchronous_commit on):
 *   1. pgbench's TPC-B-like script (-M prepared -c 32 -j 2), the yardstick, in the same run;
 *   2. the real API (the esbuild bundle `npm start` runs), 64 funded customers made by the ops CLI's
 *      create-customer, each signed in over HTTP (its session cookie and CSRF token), each with a
 *      known payee (the next customer, paid once with the step-up a first payment asks for);
 *   3. wrk with bench/http/load.lua, rotating over the sessions with a fresh Idempotency-Key per
 *      payment: own transfers, internal transfers to the known payees, and reads (GET /accounts,
 *      GET /transactions), each at 8, 32 and 128 connections, with 1 and 2 processes
 *      (WEB_CONCURRENCY); on request (--workloads, issue 37 item 2) a hot account, `hot`: every
 *      customer pays one biller's checking at this bank (a customer made by create-customer, known
 *      to each as a payee), and `zipf`: payments to 1,000 accounts at this bank (the checking and
 *      savings of 500 customers made by create-customer) with a Zipf skew of s = 1 (bench/http/zipf.ts),
 *      each payee known to as many customers as the step-ups a customer may answer allow (30 in
 *      10 minutes: about 24 each); both compared with internal's rate in the same run (>= 0.5x);
 *   4. every payment answered 201 must be in the database (its payment completed and its ledger
 *      transfer there, looked up by the ids wrk collected), the customers' total unchanged (with
 *      hot or zipf: theirs and their payees' together, and the biller's growth what it was paid) and
 *      `ops check-ledger` green. Each cell samples pg_stat_activity's wait events (a hot row's lock
 *      shows as Lock:transactionid).
 * Prints a table and the targets (PASS/FAIL; the exit code is 0 unless the bench itself broke) and
 * appends them to bench/RESULTS.md.
 *
 * `--cluster`: the HA cluster as a target (issue 36 item 5, bench/http/ha-target.ts): the cluster of
 * deploy/ha (scripts/ha-cluster.mjs, in HA_DIR; one running there is used, else one is started and
 * stopped at the end) gets its own migrated `bank` database and customers, and two more API servers
 * run beside the usual one: one whose DATABASE_URL is HAProxy's write port, one straight to the
 * current primary's PostgreSQL port (from Patroni's REST /cluster). Own transfers and reads, at each
 * connection count, run against the three in turn (the plain throwaway PostgreSQL, through HAProxy,
 * direct to the primary), the order reversed from one cell to the next so that neither cluster
 * target always runs first; the cluster's two both pay for synchronous replication (strict mode),
 * the plain one does not. Then pgbench (select-only: one statement's cost of the hop; TPC-B-like:
 * against the plain node's, a commit's cost of the standby) through HAProxy and direct. Every
 * transfer acknowledged by the cluster must be on its primary. Appended under "Through HAProxy
 * (issue 36)"; see docs/deploy.md.
 *
 * `--soak`: the soak (issue 16 item 4): the peak own-transfer rate at 32 connections, then
 * `--soak-minutes` (10) at half that rate, paced by load.lua's delay(), one minute per wrk run;
 * memory from /metrics every 5 s. See docs/decisions/045-http-benchmark.md.
 *
 * Needs wrk (Debian package wrk), pgbench, initdb and pg_ctl (postgresql-15).
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, openSync, closeSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { appendFile, copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs, promisify } from 'node:util';
import { loadConfig } from '../../apps/api/src/config.ts';
import type { Database } from '../../apps/api/src/db/database.ts';
import { migrate } from '../../apps/api/src/db/migrate.ts';
import { openPostgres } from '../../apps/api/src/db/postgres.ts';
import { createPostgresCluster, findPostgresBinaries, type PostgresCluster } from '../../apps/api/src/faults/support/postgres-cluster.ts';
import { freePort } from '../../apps/api/src/faults/support/server-process.ts';
import { runOpsCommand } from '../../apps/api/src/modules/ops/registry.ts';
import { topSelfTime } from './cpu-profile.ts';
import { haVersions, openHaTarget, startTreeCpu, type HaTarget } from './ha-target.ts';
import { zipfPlan } from './zipf.ts';
import { canMeasureCpu, postmasterPid, startCpuSplit, type CpuSplit } from './process-cpu.ts';
import { runWrk, socketErrorCount, wrkPath, type RequestTemplate, type WrkResult } from './wrk.ts';

const execFileAsync = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const resultsPath = path.join(root, 'bench/RESULTS.md');

const { values: options } = parseArgs({
  options: {
    seconds: { type: 'string' },
    quick: { type: 'boolean', default: false },
    connections: { type: 'string' },
    processes: { type: 'string' },
    workloads: { type: 'string' },
    customers: { type: 'string' },
    soak: { type: 'boolean', default: false },
    cluster: { type: 'boolean', default: false },
    'soak-minutes': { type: 'string' },
    'soak-rate': { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
    socket: { type: 'boolean', default: false },
    statements: { type: 'boolean', default: false },
    'pg-setting': { type: 'string', multiple: true },
    'log-level': { type: 'string' },
    'no-record': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});

/**
 * The zipf workload's payees: the checking and savings accounts of half as many customers made by
 * create-customer (each account its own payee, as a payee key names an account), paid with a
 * Zipf skew of exponent s: the payee of rank r takes a share 1/r^s / H of the payments (s = 1: of
 * 1,000, the first takes 13%, the first ten 39%, the last 0.013%).
 */
const zipfPayeeAccounts = 1_000;
const zipfExponent = 1;
/** Templates per signed-in customer in the zipf rotation: 64 x 128 lines give every payee one at least. */
const zipfTemplatesPerPayer = 128;
/**
 * Known payees per customer for zipf: each is a first payment with an SMS step-up, and a customer
 * may answer 30 step-ups in 10 minutes (step-up/routes.ts); internal and hot take one each.
 */
const zipfPayeesPerPayer = 26;

const usage = `npm run bench:http -- [options]
  --seconds N         length of each cell (default 12; --quick 4)
  --connections L     comma-separated connection counts (default 8,32,128; --quick 32)
  --processes L       comma-separated process counts, WEB_CONCURRENCY (default 1,2; --quick 1)
  --workloads L       own,internal,reads,hot,zipf,accounts,history,me,floor (default own,internal,reads;
                      --cluster: own,reads)
                      hot: the customers all pay one biller's account at this bank; zipf: they pay
                      ${zipfPayeeAccounts} accounts at this bank with a Zipf skew (s = ${zipfExponent});
                      the CPU budget of a read (issue 37): accounts and history, the two halves of
                      reads; me, GET /me (a signed-in request's fixed cost: session, customer,
                      answer); floor, GET /api/v1/health (the HTTP stack and its log line alone)
  --customers N       signed-in customers (default 64)
  --quick             a short run for development; records nothing
  --cluster           the HA cluster too (HA_DIR; started if none runs there): the workloads through
                      HAProxy's write port and straight to the primary, beside the plain PostgreSQL
  --soak              the soak instead: peak own-transfer rate, then half of it for --soak-minutes
  --soak-minutes N    (default 10)    --soak-rate R  skip the peak probe, pace at R requests/s
  --cpu-prof          run the server under node --cpu-prof (artifacts/cpu-prof-*/), print the top 15 self times
  --socket            pgbench and the API reach PostgreSQL by its Unix socket instead of TCP on 127.0.0.1
  --pg-setting S      a PostgreSQL setting for an experiment, name=value (repeatable); printed with the others
  --statements        load pg_stat_statements; print each cell's statements per request (calls, mean execution and planning ms)
  --log-level L       the server's LOG_LEVEL (default info, written to a file, as a deployment logs)
  --no-record         do not append to bench/RESULTS.md`;
if (options.help) {
  console.log(usage);
  process.exit(0);
}

const list = (text: string | undefined, fallback: readonly number[]) =>
  text ? text.split(',').map((item) => Number.parseInt(item.trim(), 10)) : [...fallback];
const quick = options.quick;
const cellSeconds = Number(options.seconds ?? (quick ? 4 : 12));
const connectionCounts = list(options.connections, quick ? [32] : [8, 32, 128]);
const processCounts = list(options.processes, quick || options.cluster ? [1] : [1, 2]);
const workloadNames = (options.workloads ?? (options.cluster ? 'own,reads' : 'own,internal,reads')).split(',').map((name) => name.trim());
const customerCount = Number(options.customers ?? 64);
const soakMinutes = Number(options['soak-minutes'] ?? 10);
const record = !quick && !options['no-record'];
const logLevel = options['log-level'] ?? 'info';
const pgbenchClients = 32;
const pgbenchScale = 10;
const fundCents = 1_000_000_000n;
const password = 'bench-http correct horse battery staple';
/**
 * Issue 37's yardstick is CPU per operation (API + PostgreSQL + load generator), which holds on any
 * machine: an own transfer at most 1.5x a TPC-B transaction's, a read at most 0.35x an own
 * transfer's, reads at 3x the transfers' rate at least, p99 within 50 ms. skewedVsUniform: item 2,
 * the hot account (and, by the same measure, the Zipf payees) at half the uniform rate at least.
 */
const targets = { transferCpuVsPgbench: 1.5, readCpuVsTransfer: 0.35, p99Ms: 50, readsVsTransfers: 3, skewedVsUniform: 0.5 };
const cpuTotal = (cpu: CpuSplit) => cpu.serverMs + cpu.postgresMs + cpu.loadMs;

type WorkloadName = 'own' | 'internal' | 'reads' | 'hot' | 'zipf' | 'accounts' | 'history' | 'me' | 'floor';
const allWorkloads: readonly WorkloadName[] = ['own', 'internal', 'reads', 'hot', 'zipf', 'accounts', 'history', 'me', 'floor'];
for (const name of workloadNames) if (!(allWorkloads as readonly string[]).includes(name)) throw new Error(`unknown workload ${name}\n${usage}`);
if (options.cluster && (options.soak || processCounts.length !== 1)) throw new Error(`--cluster runs one process count, and no soak\n${usage}`);
for (const n of [...connectionCounts, ...processCounts, cellSeconds, customerCount, soakMinutes]) {
  if (!Number.isFinite(n) || n <= 0) throw new Error(`a number option is not a positive number\n${usage}`);
}

// ---------------------------------------------------------------------------------------------
// Prerequisites

const binaries = findPostgresBinaries();
/** pgbench and pg_waldump beside the initdb found (through a link on PATH to Debian's directory, say). */
const postgresBin = binaries ? path.dirname(realpathSync(binaries.initdb)) : undefined;
const pgbenchPath = postgresBin ? path.join(postgresBin, 'pgbench') : undefined;
const waldumpPath = postgresBin ? path.join(postgresBin, 'pg_waldump') : undefined;
const missing = [
  existsSync(wrkPath) ? undefined : `wrk at ${wrkPath} (apt-get install wrk)`,
  binaries ? undefined : 'initdb and pg_ctl (apt-get install postgresql-15)',
  pgbenchPath && existsSync(pgbenchPath) ? undefined : 'pgbench (postgresql-15 or postgresql-client-15)',
].filter(Boolean);
if (missing.length > 0) {
  console.error(`bench:http needs ${missing.join(', ')}`);
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// Small helpers

function machineLine(): string {
  const cpus = os.cpus();
  return `${cpus.length} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, Node ${process.version}`;
}

function loadLine(): string {
  return os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');
}

async function commitLine(): Promise<string> {
  const { stdout: commit } = await execFileAsync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root });
  const { stdout: status } = await execFileAsync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root });
  return `${commit.trim()}${status.trim() ? ' (with uncommitted changes)' : ''}`;
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

const fmt = (n: number, digits = 1) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a';
const whole = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const cpuText = (cpu: CpuSplit) =>
  `${cpu.serverMs > 0 ? `API ${fmt(cpu.serverMs, 2)} ms, ` : ''}PostgreSQL ${fmt(cpu.postgresMs, 2)} ms (${fmt(cpu.postgresBackgroundMs, 2)} of it in the background), load generator ${fmt(cpu.loadMs, 2)} ms; ` +
  `machine ${whole(cpu.machineBusy * 100)}% busy of ${cpu.cores} cores`;
const cpuCells = (cpu: CpuSplit) =>
  canMeasureCpu
    ? `${fmt(cpu.serverMs, 2)} | ${fmt(cpu.postgresMs, 2)} (${fmt(cpu.postgresBackgroundMs, 2)}) | ${fmt(cpu.loadMs, 2)} | ${whole(cpu.machineBusy * 100)}%`
    : 'n/a | n/a | n/a | n/a';

// ---------------------------------------------------------------------------------------------
// PostgreSQL: pgbench, statistics, the WAL between two points

/** The URL of a database of the cluster: over TCP on 127.0.0.1, or (--socket) its Unix socket. */
function connectionUrl(cluster: PostgresCluster, database: string): URL {
  const url = new URL(cluster.url);
  url.pathname = `/${database}`;
  if (options.socket) url.searchParams.set('host', path.dirname(cluster.dataDirectory));
  return url;
}

async function runPgbench(cluster: PostgresCluster, admin: Database, seconds: number, workDirectory: string) {
  await admin.query('CREATE DATABASE bench_pgbench');
  const url = connectionUrl(cluster, 'bench_pgbench');
  await execFileAsync(pgbenchPath ?? 'pgbench', ['-i', '-s', String(pgbenchScale), '-q', url.toString()], { timeout: 300_000 });
  const logDirectory = path.join(workDirectory, 'pgbench-log');
  await mkdir(logDirectory, { recursive: true, mode: 0o777 });
  const endCpu = startCpuSplit(postmasterPid(cluster.dataDirectory), undefined);
  const { stdout } = await execFileAsync(
    pgbenchPath ?? 'pgbench',
    ['-M', 'prepared', '-c', String(pgbenchClients), '-j', '2', '-T', String(seconds), '-l', '--log-prefix', path.join(logDirectory, 'log'), url.toString()],
    { cwd: logDirectory, timeout: (seconds + 120) * 1000, maxBuffer: 16 * 1024 * 1024 },
  );
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1];
  if (!tps) throw new Error(`no tps line in pgbench's output:\n${stdout}`);
  const latencies: number[] = [];
  for (const file of readdirSync(logDirectory)) {
    for (const line of readFileSync(path.join(logDirectory, file), 'utf8').split('\n')) {
      const us = Number(line.split(' ')[2]);
      if (line.length > 0 && Number.isFinite(us)) latencies.push(us / 1000);
    }
  }
  const cpu = endCpu(latencies.length);
  latencies.sort((a, b) => a - b);
  await admin.query('DROP DATABASE bench_pgbench WITH (FORCE)');
  return { tps: Number(tps), p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99), cpu };
}

/**
 * --cluster: pgbench against the HA cluster's database bench_pgbench at `port` (HAProxy's write
 * port or the primary's own), as its superuser. The password goes in PGPASSWORD: a failed
 * command's error names its arguments, so no argument holds it.
 */
async function pgbenchOnCluster(port: number, password: string, args: readonly string[], logDirectory?: string) {
  const connection = ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres'];
  if (logDirectory) await mkdir(logDirectory, { recursive: true, mode: 0o777 });
  const { stdout } = await execFileAsync(
    pgbenchPath ?? 'pgbench',
    [...args, ...(logDirectory ? ['-l', '--log-prefix', path.join(logDirectory, 'log')] : []), ...connection, 'bench_pgbench'],
    { cwd: logDirectory ?? root, env: { ...process.env, PGPASSWORD: password }, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
  );
  if (!logDirectory) return undefined;
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1];
  if (!tps) throw new Error(`no tps line in pgbench's output:\n${stdout}`);
  const latencies: number[] = [];
  for (const file of readdirSync(logDirectory)) {
    for (const line of readFileSync(path.join(logDirectory, file), 'utf8').split('\n')) {
      const us = Number(line.split(' ')[2]);
      if (line.length > 0 && Number.isFinite(us)) latencies.push(us / 1000);
    }
  }
  latencies.sort((a, b) => a - b);
  return { tps: Number(tps), p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99) };
}

async function serverSettings(admin: Database): Promise<string> {
  const rows = await admin.query<{ name: string; setting: string }>(
    `SELECT name, setting FROM pg_settings WHERE name IN ('server_version', 'fsync', 'synchronous_commit', 'full_page_writes', 'shared_buffers', 'max_connections')
        OR name = ANY($1::text[]) ORDER BY name`,
    [(options['pg-setting'] ?? []).map((setting) => setting.split('=')[0]?.trim() ?? '')],
  );
  return rows.map((row) => `${row.name}=${row.setting}`).join(', ');
}

async function walPosition(db: Database): Promise<string> {
  const [row] = await db.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
  return row?.lsn ?? '0/0';
}

interface WalFigures {
  commits: number;
  /** Heap inserts, updates and deletes: rows written. */
  rowWrites: number;
  bytes: number;
}

/** pg_waldump --stats=record between two positions: commits and rows written, whatever the statements. */
async function walBetween(cluster: PostgresCluster, start: string, end: string): Promise<WalFigures | undefined> {
  if (!waldumpPath || !existsSync(waldumpPath)) return undefined;
  try {
    const { stdout } = await execFileAsync(waldumpPath, ['--stats=record', '-p', path.join(cluster.dataDirectory, 'pg_wal'), '-s', start, '-e', end], {
      maxBuffer: 16 * 1024 * 1024,
      timeout: 120_000,
    });
    let commits = 0;
    let rowWrites = 0;
    let bytes = 0;
    for (const line of stdout.split('\n')) {
      // Type, then N, record size, full-page images and combined size, each with its percentage.
      const match = /^(\S+)\s+(\d+)\s+\(\s*[\d.]+\)\s+\d+\s+\(\s*[\d.]+\)\s+\d+\s+\(\s*[\d.]+\)\s+(\d+)/.exec(line.trim());
      const name = match?.[1];
      if (!name || name === 'Total') continue;
      const count = Number(match[2]);
      const combined = Number(match[3]);
      bytes += combined;
      if (name === 'Transaction/COMMIT') commits += count;
      if (/^Heap2?\/(INSERT|UPDATE|HOT_UPDATE|DELETE|MULTI_INSERT)/.test(name)) rowWrites += count;
    }
    return { commits, rowWrites, bytes };
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// The API server as its own process

interface Server {
  child: ChildProcess;
  origin: string;
  /** Processes answering requests: the workers under node:cluster, else the one. */
  serving: number;
  exited: Promise<void>;
  stop(): Promise<void>;
}

function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === pid) children.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return children;
}

async function startApi(environment: Record<string, string>, processes: number, logFile: string, cpuProfileDirectory?: string): Promise<Server> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const logFd = openSync(logFile, 'a');
  const child = spawn(
    process.execPath,
    [...(cpuProfileDirectory ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDirectory}`] : []), '--enable-source-maps', 'apps/api/dist/main.js'],
    {
      cwd: root,
      env: { ...process.env, ...environment, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: origin, WEB_CONCURRENCY: String(processes) },
      stdio: ['ignore', logFd, logFd],
    },
  );
  closeSync(logFd);
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const server: Server = {
    child,
    origin,
    serving: 1,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), sleep(60_000).then(() => false)]);
      if (!stopped) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
  const deadline = Date.now() + 120_000;
  let readySince: number | undefined;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited before it was ready:\n${(await readFile(logFile, 'utf8')).slice(-4_000)}`);
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`the API was not ready in time:\n${(await readFile(logFile, 'utf8')).slice(-4_000)}`);
    }
    const ready = await fetch(`${origin}/api/v1/ready`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) readySince ??= Date.now();
    // The sandbox's seed runs right after listening; "is open at" says it is done.
    if (ready && ((await readFile(logFile, 'utf8')).includes('is open at') || Date.now() - (readySince ?? 0) > 15_000)) break;
    await sleep(200);
  }
  // Workers of node:cluster are the server's children; give them a moment to all be forked.
  await sleep(1_000);
  const workers = child.pid === undefined ? [] : childrenOf(child.pid);
  server.serving = Math.max(1, workers.length);
  return server;
}

// ---------------------------------------------------------------------------------------------
// /metrics: the server's own figures

interface Scrape {
  /** By route: seconds summed and requests counted by http_request_duration_seconds. */
  routes: Map<string, { sum: number; count: number }>;
  /** By stage of a money request (payment_stage_seconds): seconds summed and payments counted. */
  stages: Map<string, { sum: number; count: number }>;
  heapUsedBytes: number;
  residentBytes: number;
  eventLoopLagP99Seconds: number;
}

async function scrape(origin: string): Promise<Scrape> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  const routes = new Map<string, { sum: number; count: number }>();
  const single = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([\\d.e+-]+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  for (const match of text.matchAll(/^http_request_duration_seconds_(sum|count)\{([^}]*)\} ([\d.e+-]+)$/gm)) {
    const [, kind, labels, value] = match;
    const method = /method="([^"]*)"/.exec(labels ?? '')?.[1];
    const route = /route="([^"]*)"/.exec(labels ?? '')?.[1];
    const key = `${method} ${route}`;
    const entry = routes.get(key) ?? { sum: 0, count: 0 };
    if (kind === 'sum') entry.sum += Number(value);
    else entry.count += Number(value);
    routes.set(key, entry);
  }
  const stages = new Map<string, { sum: number; count: number }>();
  for (const [, kind, stage, value] of text.matchAll(/^payment_stage_seconds_(sum|count)\{stage="(\w+)"\} ([\d.e+-]+)$/gm)) {
    const entry = stages.get(stage ?? '') ?? { sum: 0, count: 0 };
    if (kind === 'sum') entry.sum += Number(value);
    else entry.count += Number(value);
    stages.set(stage ?? '', entry);
  }
  return {
    routes,
    stages,
    heapUsedBytes: single('nodejs_heap_size_used_bytes'),
    residentBytes: single('process_resident_memory_bytes'),
    eventLoopLagP99Seconds: single('nodejs_eventloop_lag_p99_seconds'),
  };
}

const stageNames = ['before_handler', 'reads', 'queued', 'group'] as const;

/** Mean milliseconds a money request spent in each stage over one cell, in stageNames' order ('' for reads). */
function stageMeansMs(before: Scrape, after: Scrape): string {
  const means = stageNames.map((stage) => {
    const a = after.stages.get(stage);
    const b = before.stages.get(stage) ?? { sum: 0, count: 0 };
    return a && a.count > b.count ? ((a.sum - b.sum) / (a.count - b.count)) * 1000 : Number.NaN;
  });
  return means.some(Number.isFinite) ? means.map((mean) => fmt(mean)).join(' / ') : '';
}

/** Mean time inside the server (Fastify's elapsed time) of the routes a workload sends, over one cell. */
function serverMeanMs(before: Scrape, after: Scrape, routeKeys: readonly string[]): number {
  let sum = 0;
  let count = 0;
  for (const key of routeKeys) {
    const a = after.routes.get(key);
    const b = before.routes.get(key) ?? { sum: 0, count: 0 };
    if (!a) continue;
    sum += a.sum - b.sum;
    count += a.count - b.count;
  }
  return count > 0 ? (sum / count) * 1000 : Number.NaN;
}

// ---------------------------------------------------------------------------------------------
// The bank's side: customers, sessions, payees

interface Customer {
  index: number;
  email: string;
  phone: string;
  name: string;
  checking: { id: string; number: string };
  savings: { id: string; number: string };
  cookie: string;
  csrf: string;
}

function letters(index: number): string {
  let text = '';
  let n = index;
  do {
    text = String.fromCharCode(65 + (n % 26)) + text;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return text;
}

type BankCustomer = Omit<Customer, 'cookie' | 'csrf'>;

/** One customer through the ops CLI's own command (`npm run ops -- create-customer`), run in this process. */
async function createCustomer(db: Database, environment: Record<string, string>, runId: string, index: number, fund: bigint): Promise<BankCustomer> {
  const config = await loadConfig({ ...process.env, ...environment });
  const context = { database: async () => db, config };
  const email = `bench-${runId}-${index}@example.com`;
  const phone = `+1202555${String(index).padStart(4, '0')}`;
  const lastName = `Bench${letters(index)}`;
  const result = await runOpsCommand(context, 'create-customer', [
    '--email',
    email,
    '--password',
    password,
    '--phone',
    phone,
    '--first-name',
    'Http',
    '--last-name',
    lastName,
    '--fund-cents',
    String(fund),
  ]);
  if (result.exitCode !== 0) throw new Error(`create-customer failed: ${result.output}`);
  const created = JSON.parse(result.output) as { accounts: { id: string; type: string; number: string }[] };
  const checking = created.accounts.find((account) => account.type === 'checking');
  const savings = created.accounts.find((account) => account.type === 'savings');
  if (!checking || !savings) throw new Error(`create-customer made no checking and savings: ${result.output}`);
  return { index, email, phone, name: `Http ${lastName}`, checking, savings };
}

async function createCustomers(db: Database, environment: Record<string, string>, runId: string): Promise<BankCustomer[]> {
  const customers: BankCustomer[] = [];
  for (let index = 0; index < customerCount; index += 1) customers.push(await createCustomer(db, environment, runId, index, fundCents));
  return customers;
}

/** Runs `work` over `items`, `concurrency` at a time, answering in the order given. */
async function inParallel<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) results[index] = await work(items[index] as T);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

async function signIn(origin: string, customer: BankCustomer): Promise<Customer> {
  const response = await fetch(`${origin}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': setupAddress(customer) },
    body: JSON.stringify({ email: customer.email, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
  const cookies = new Map(
    response.headers.getSetCookie().map((line) => {
      const pair = line.split(';')[0] ?? '';
      const equals = pair.indexOf('=');
      return [pair.slice(0, equals), pair.slice(equals + 1)] as const;
    }),
  );
  const session = cookies.get('session');
  const csrf = cookies.get('csrf');
  if (!session || !csrf) throw new Error(`sign-in set no session and csrf cookies: ${[...cookies.keys()].join(', ')}`);
  return { ...customer, cookie: `session=${session}; csrf=${csrf}`, csrf };
}

/**
 * Each customer's setup comes from an address of its own (a documentation range, in a header
 * only), as from its own browser: the per-address limits on step-up answers (30 in 10 minutes)
 * would otherwise stop the setup of 64 customers. The load itself sends no such header.
 */
function setupAddress(customer: { index: number }): string {
  // IPv4 documentation ranges (198.51.100.0/24, 203.0.113.0/24): 508 customers at most.
  const host = customer.index + 1;
  if (host > 508) throw new Error('at most 508 customers');
  return host <= 254 ? `198.51.100.${host}` : `203.0.113.${host - 254}`;
}

async function call(origin: string, customer: Customer, method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${origin}${url}`, {
    method,
    headers: {
      cookie: customer.cookie,
      'x-forwarded-for': setupAddress(customer),
      ...(method === 'POST' ? { 'x-csrf-token': customer.csrf, 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : undefined) as unknown };
}

/** An account of this bank paid by its number, with its holder's name. */
interface PayeeAccount {
  id: string;
  number: string;
  name: string;
}

const checkingOf = (customer: BankCustomer): PayeeAccount => ({ id: customer.checking.id, number: customer.checking.number, name: customer.name });

/** The first payment to a payee (the next customer's checking, say), with the SMS step-up it asks for; saved as a payee. */
async function setUpPayee(origin: string, db: Database, payer: Customer, payee: PayeeAccount): Promise<void> {
  const body = {
    kind: 'internal',
    fromAccountId: payer.checking.id,
    toAccountNumber: payee.number,
    accountName: payee.name,
    amountCents: 100,
    message: 'Bench first payment',
    addToFavorites: true,
  };
  const key = randomUUID();
  const first = await call(origin, payer, 'POST', '/api/v1/transfers', body, { 'idempotency-key': key });
  if (first.status !== 403) throw new Error(`the first payment to a payee should ask for a step-up: ${JSON.stringify(first)}`);
  const challengeId = (first.json as { error: { challengeId: string } }).error.challengeId;
  const [message] = await db.query<{ text_body: string }>(
    `SELECT text_body FROM outbox_messages WHERE channel = 'sms' AND to_address = $1 ORDER BY created_at DESC LIMIT 1`,
    [payer.phone],
  );
  const code = /\b(\d{6})\b/.exec(message?.text_body ?? '')?.[1];
  if (!code) throw new Error('no step-up code was sent');
  const verified = await call(origin, payer, 'POST', `/api/v1/step-up/${challengeId}`, { code });
  if (verified.status !== 200) throw new Error(`the step-up code of customer ${payer.index} was refused: ${JSON.stringify(verified)}`);
  const paid = await call(origin, payer, 'POST', '/api/v1/transfers', body, { 'idempotency-key': key, 'x-step-up': challengeId });
  if (paid.status !== 201) throw new Error(`the first payment to a payee failed: ${JSON.stringify(paid)}`);
}

async function totalBalance(origin: string, customers: readonly Customer[]): Promise<bigint> {
  let total = 0n;
  for (const customer of customers) {
    const answer = await call(origin, customer, 'GET', '/api/v1/accounts');
    if (answer.status !== 200) throw new Error(`GET /accounts answered ${answer.status}`);
    for (const account of answer.json as { balanceCents: number }[]) total += BigInt(account.balanceCents);
  }
  return total;
}

/** The summed balance of accounts of this bank, from their ledger accounts' counters (payees that never sign in). */
async function accountsBalance(db: Database, accountIds: readonly string[]): Promise<bigint> {
  if (accountIds.length === 0) return 0n;
  const [row] = await db.query<{ total: string | null }>(
    `SELECT sum(l.credits_posted - l.debits_posted)::text AS total FROM customer_accounts a JOIN ledger_accounts l ON l.id = a.ledger_account_id WHERE a.id = ANY($1::uuid[])`,
    [accountIds],
  );
  return BigInt(row?.total ?? '0');
}

/**
 * What the bench database's client backends were doing during a cell: pg_stat_activity sampled
 * every 100 ms (a lock wait on a row shows as Lock:transactionid or Lock:tuple; CPU is an active
 * backend waiting on nothing; "in transaction" is a transaction open while the API works).
 */
function sampleWaitEvents(db: Database): () => Promise<string> {
  const counts = new Map<string, number>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const rows = await db
        .query<{ event: string }>(
          `SELECT CASE WHEN state = 'active' THEN coalesce(wait_event_type || ':' || wait_event, 'CPU') ELSE state END AS event
             FROM pg_stat_activity WHERE datname = 'strongroom_bench' AND backend_type = 'client backend' AND pid <> pg_backend_pid() AND state <> 'idle'`,
        )
        .catch(() => []);
      samples += 1;
      for (const row of rows) counts.set(row.event, (counts.get(row.event) ?? 0) + 1);
      await sleep(100);
    }
  })();
  return async () => {
    running = false;
    await loop;
    const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6);
    return top.map(([event, count]) => `${event} ${fmt(count / Math.max(1, samples))}`).join(', ');
  };
}

/** `--statements`: what the cell asked of PostgreSQL per request, from pg_stat_statements. */
async function statementsPerRequest(db: Database, requests: number): Promise<string> {
  const rows = await db.query<{ calls: string; mean: number; plan: number; query: string }>(
    `SELECT calls::text AS calls, mean_exec_time AS mean, total_plan_time / greatest(calls, 1) AS plan, regexp_replace(query, '\\s+', ' ', 'g') AS query
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      ORDER BY calls DESC, total_exec_time DESC LIMIT 40`,
  );
  const total = rows.reduce((sum, row) => sum + Number(row.calls), 0);
  const lines = rows.map(
    (row) =>
      `  ${fmt(Number(row.calls) / Math.max(1, requests), 2).padStart(6)}  ${fmt(row.mean, 3).padStart(7)} ms  plan ${fmt(row.plan, 3).padStart(6)} ms  ${row.query.slice(0, 130)}`,
  );
  // Statistics reach the view within a second of each transaction.
  await sleep(1_500);
  const scans = await db.query<{ relname: string; seq_scan: string; seq_tup_read: string; idx_scan: string }>(
    `SELECT relname, seq_scan::text, seq_tup_read::text, coalesce(idx_scan, 0)::text AS idx_scan FROM pg_stat_user_tables
      WHERE seq_scan > 0 ORDER BY seq_tup_read DESC LIMIT 8`,
  );
  const scanLines = scans.map(
    (row) =>
      `  ${row.relname}: ${fmt(Number(row.seq_scan) / Math.max(1, requests), 2)} sequential scans per request reading ${fmt(Number(row.seq_tup_read) / Math.max(1, requests), 1)} rows; ${fmt(Number(row.idx_scan) / Math.max(1, requests), 2)} index scans`,
  );
  return [
    `statements per request (${requests} requests, ${fmt(total / Math.max(1, requests), 1)} statements each in the top 40):`,
    ...lines,
    'tables read sequentially:',
    ...scanLines,
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Workloads

interface Workload {
  name: WorkloadName;
  title: string;
  money: boolean;
  routes: string[];
  templates(tag: string): RequestTemplate[];
}

/** The payees of hot and zipf, when the run has those workloads. */
interface HotPayees {
  hot?: PayeeAccount;
  zipf?: { accounts: PayeeAccount[]; rotation: { payer: number; payee: number }[] };
}

function workloads(customers: readonly Customer[], payees: HotPayees): Record<WorkloadName, Workload> {
  const payeeOf = (customer: Customer) => customers[(customer.index + 1) % customers.length] ?? customer;
  const post = (customer: Customer, body: object): RequestTemplate => ({
    method: 'POST',
    path: '/api/v1/transfers',
    cookie: customer.cookie,
    csrf: customer.csrf,
    body: JSON.stringify(body),
  });
  const pay = (customer: Customer, payee: PayeeAccount, tag: string) =>
    post(customer, {
      kind: 'internal',
      fromAccountId: customer.checking.id,
      toAccountNumber: payee.number,
      accountName: payee.name,
      amountCents: 1,
      message: tag,
    });
  const get = (customer: Customer, url: string): RequestTemplate => ({ method: 'GET', path: url, cookie: customer.cookie, csrf: '', body: '' });
  return {
    own: {
      name: 'own',
      title: 'own transfers (checking to savings)',
      money: true,
      routes: ['POST /api/v1/transfers'],
      templates: (tag) =>
        customers.map((customer) =>
          post(customer, { kind: 'own', fromAccountId: customer.checking.id, toAccountId: customer.savings.id, amountCents: 1, message: tag }),
        ),
    },
    internal: {
      name: 'internal',
      title: 'internal transfers to a known payee',
      money: true,
      routes: ['POST /api/v1/transfers'],
      templates: (tag) =>
        customers.map((customer) =>
          post(customer, {
            kind: 'internal',
            fromAccountId: customer.checking.id,
            toAccountNumber: payeeOf(customer).checking.number,
            accountName: payeeOf(customer).name,
            amountCents: 1,
            message: tag,
          }),
        ),
    },
    hot: {
      name: 'hot',
      title: 'internal transfers, every customer to one biller (a hot account)',
      money: true,
      routes: ['POST /api/v1/transfers'],
      templates: (tag) => {
        const biller = payees.hot;
        if (!biller) throw new Error('no hot payee was set up');
        return customers.map((customer) => pay(customer, biller, tag));
      },
    },
    zipf: {
      name: 'zipf',
      title: `internal transfers to ${zipfPayeeAccounts} payees with a Zipf skew (s = ${zipfExponent})`,
      money: true,
      routes: ['POST /api/v1/transfers'],
      templates: (tag) => {
        const zipf = payees.zipf;
        if (!zipf) throw new Error('no Zipf payees were set up');
        return zipf.rotation.map(({ payer, payee }) => {
          const customer = customers[payer];
          const account = zipf.accounts[payee];
          if (!customer || !account) throw new Error('the Zipf rotation names a payer or payee that is not there');
          return pay(customer, account, tag);
        });
      },
    },
    reads: {
      name: 'reads',
      title: 'reads (GET /accounts, GET /transactions)',
      money: false,
      routes: ['GET /api/v1/accounts', 'GET /api/v1/transactions'],
      templates: () =>
        customers.flatMap((customer) => [get(customer, '/api/v1/accounts'), get(customer, `/api/v1/transactions?accountId=${customer.checking.id}&limit=20`)]),
    },
    accounts: {
      name: 'accounts',
      title: 'reads, GET /accounts alone',
      money: false,
      routes: ['GET /api/v1/accounts'],
      templates: () => customers.map((customer) => get(customer, '/api/v1/accounts')),
    },
    history: {
      name: 'history',
      title: 'reads, GET /transactions alone',
      money: false,
      routes: ['GET /api/v1/transactions'],
      templates: () => customers.map((customer) => get(customer, `/api/v1/transactions?accountId=${customer.checking.id}&limit=20`)),
    },
    me: {
      name: 'me',
      title: "GET /me: a signed-in request's fixed cost",
      money: false,
      routes: ['GET /api/v1/me'],
      templates: () => customers.map((customer) => get(customer, '/api/v1/me')),
    },
    floor: {
      name: 'floor',
      title: 'GET /api/v1/health: the HTTP stack alone',
      money: false,
      routes: ['GET /api/v1/health'],
      templates: () => customers.map((customer) => ({ ...get(customer, '/api/v1/health'), cookie: '' })),
    },
  };
}

interface Cell {
  processes: number;
  serving: number;
  workload: WorkloadName;
  connections: number;
  result: WrkResult;
  serverMeanMs: number;
  eventLoopLagP99Ms: number;
  /** Money workloads: mean ms before the handler / in its reads / queued / in its group (payment_stage_seconds). */
  stagesMs: string;
  /** Where the machine's CPU went, per request (Linux only). */
  cpu: CpuSplit;
  /** Client backends of the bench database by what they waited on, mean over the cell's samples (sampleWaitEvents). */
  waitEvents: string;
  wal?: WalFigures;
  /** Money workloads: acknowledged (201) payments found completed with their ledger transfer. */
  acknowledgedInDatabase?: number;
  /** Payments of the cell in the database beyond those acknowledged (in flight when wrk stopped). */
  unacknowledgedCommitted?: number;
}

/** --cluster: where a cell's API server reaches PostgreSQL. */
type TargetName = 'plain' | 'haproxy' | 'direct';
const targetTitles: Record<TargetName, string> = {
  plain: 'plain PostgreSQL (one node)',
  haproxy: 'cluster through HAProxy',
  direct: "cluster, the primary's port",
};

/** --cluster: one cell of the comparison, whichever target it ran against. */
interface TargetCell {
  target: TargetName;
  workload: WorkloadName;
  connections: number;
  /** Its place in the run (1 first): the order alternates from one connection count to the next. */
  order: number;
  result: WrkResult;
  cpu: CpuSplit;
  /** CPU ms per request of HAProxy and of the two standbys' PostgreSQL (NaN for the plain target). */
  haproxyMs: number;
  standbysMs: number;
  /** The machine's 1-minute load average at the cell's end: the machine is shared, this says how busy. */
  load: number;
  acknowledgedInDatabase?: number;
  unacknowledgedCommitted?: number;
}

/**
 * Every payment answered 201 looked up completed with its ledger transfer, once the requests still
 * in flight when wrk stopped have finished; `extra`: those committed that wrk never saw answered.
 */
async function verifyAcknowledged(
  db: Database,
  cell: { result: WrkResult; acknowledgedInDatabase?: number; unacknowledgedCommitted?: number },
  tag: string,
): Promise<void> {
  await sleep(1_000);
  const ids = cell.result.acknowledgedIds;
  const [found] = await db.query<{ count: string }>(
    `SELECT count(*)::text AS count FROM payments p JOIN ledger_transfers t ON t.id = p.id
      WHERE p.id = ANY($1::uuid[]) AND p.status = 'completed' AND t.amount = p.amount_cents`,
    [ids],
  );
  const [tagged] = await db.query<{ count: string }>(`SELECT count(*)::text AS count FROM payments WHERE message = $1`, [tag]);
  cell.acknowledgedInDatabase = Number(found?.count ?? 0);
  cell.unacknowledgedCommitted = Number(tagged?.count ?? 0) - ids.length;
}

/**
 * --cluster: the comparison's table (one row per cell, in the order they ran) and, per workload and
 * connection count, HAProxy against the direct connection and the cluster against the plain node.
 */
function targetReport(targetCells: readonly TargetCell[]): string[] {
  const find = (target: TargetName, workload: WorkloadName, connections: number) =>
    targetCells.find((cell) => cell.target === target && cell.workload === workload && cell.connections === connections);
  const rows = targetCells.map((cell) => {
    const r = cell.result;
    const direct = find('direct', cell.workload, cell.connections);
    const vsDirect = direct ? fmt(r.requestsPerSecond / direct.result.requestsPerSecond, 2) + 'x' : 'n/a';
    const cpu = canMeasureCpu
      ? `${fmt(cell.cpu.serverMs, 2)} | ${fmt(cell.cpu.postgresMs, 2)} | ${fmt(cell.standbysMs, 2)} | ${fmt(cell.haproxyMs, 2)} | ${whole(cell.cpu.machineBusy * 100)}%`
      : 'n/a | n/a | n/a | n/a | n/a';
    return (
      `| ${cell.workload} | ${cell.connections} | ${targetTitles[cell.target]} | ${cell.order} | ${whole(r.requestsPerSecond)} | ${fmt(r.latencyMs.p50)} | ${fmt(r.latencyMs.p99)} | ` +
      `${r.non2xx} | ${socketErrorCount(r)} | ${vsDirect} | ${cpu} | ${fmt(cell.load, 2)} | ` +
      `${cell.acknowledgedInDatabase === undefined ? '' : `${cell.acknowledgedInDatabase}/${r.acknowledgedIds.length}`} |`
    );
  });
  const comparisons: string[] = [];
  for (const cell of targetCells.filter((c) => c.target === 'haproxy')) {
    const direct = find('direct', cell.workload, cell.connections);
    const plain = find('plain', cell.workload, cell.connections);
    if (!direct) continue;
    const rate = (a: TargetCell, b: TargetCell) => fmt(a.result.requestsPerSecond / b.result.requestsPerSecond, 2);
    comparisons.push(
      `${cell.workload} c${cell.connections}: HAProxy/direct ${rate(cell, direct)}x the rate (${whole(cell.result.requestsPerSecond)}/s against ${whole(direct.result.requestsPerSecond)}/s), ` +
        `p50 ${fmt(cell.result.latencyMs.p50)} against ${fmt(direct.result.latencyMs.p50)} ms, p99 ${fmt(cell.result.latencyMs.p99)} against ${fmt(direct.result.latencyMs.p99)} ms` +
        (plain
          ? `; the cluster (direct) against the plain node: ${rate(direct, plain)}x the rate (${whole(plain.result.requestsPerSecond)}/s), ` +
            `p99 ${fmt(direct.result.latencyMs.p99)} against ${fmt(plain.result.latencyMs.p99)} ms`
          : ''),
    );
  }
  return [
    '| workload | connections | target | ran | requests/s | p50 ms | p99 ms | non-2xx | socket errors | vs direct | API CPU ms/req | primary PostgreSQL CPU ms/req | standbys CPU ms/req | HAProxy CPU ms/req | machine busy | load (1 min) | 201s in DB |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
    '',
    ...comparisons,
  ];
}

// ---------------------------------------------------------------------------------------------
// Main

const runId = randomBytes(3).toString('hex');
const machine = machineLine();
const loadBefore = loadLine();
const commit = await commitLine();
const startedAt = new Date();
console.log(`bench:http ${runId}: ${machine}; load ${loadBefore}; commit ${commit}`);
const workDirectory = await mkdtemp(path.join(os.tmpdir(), 'strongroom-bench-http-'));
await execFileAsync('chmod', ['755', workDirectory]);
const serverLog = path.join(workDirectory, 'server.log');
let cluster: PostgresCluster | undefined;
let admin: Database | undefined;
let db: Database | undefined;
let server: Server | undefined;
/** --cluster: the HA cluster, its bank database, and the two API servers on it. */
let ha: HaTarget | undefined;
let clusterDb: Database | undefined;
const clusterServers: Server[] = [];

try {
  console.log('building the server bundle (npm run build --workspace apps/api) ...');
  await execFileAsync('npm', ['run', 'build', '--workspace', 'apps/api'], { cwd: root, timeout: 300_000 });

  // WAL is kept long enough for pg_waldump to read each cell's records.
  cluster = await createPostgresCluster(binaries ?? { initdb: '', pgCtl: '' }, {
    settings: [
      'wal_keep_size=4096',
      'max_wal_size=4096',
      ...(options.statements ? ['shared_preload_libraries=pg_stat_statements', 'pg_stat_statements.track_planning=on'] : []),
      ...(options['pg-setting'] ?? []),
    ],
  });
  admin = await openPostgres(cluster.url, 2);
  const adminDb = admin;
  const benchCluster = cluster;
  const settings = await serverSettings(admin);
  console.log(`PostgreSQL at 127.0.0.1:${cluster.port}: ${settings}`);

  const pgbenchSeconds = Math.max(cellSeconds, quick ? 5 : 10);
  console.log(`pgbench TPC-B-like, -M prepared -c ${pgbenchClients} -j 2, scale ${pgbenchScale}, ${pgbenchSeconds} s ...`);
  const pgbench = await runPgbench(cluster, admin, pgbenchSeconds, workDirectory);
  console.log(`pgbench: ${whole(pgbench.tps)} tps, p50 ${fmt(pgbench.p50Ms, 2)} ms, p99 ${fmt(pgbench.p99Ms, 2)} ms`);

  await admin.query('CREATE DATABASE strongroom_bench');
  const benchUrl = connectionUrl(cluster, 'strongroom_bench');
  db = await openPostgres(benchUrl.toString(), 4);
  const benchDb = db;
  await migrate(db);
  if (options.statements) await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const environment: Record<string, string> = {
    DATABASE_URL: benchUrl.toString(),
    BANK_MODE: 'sandbox',
    DATA_DIR: path.join(workDirectory, 'data'),
    SESSION_SECRET: randomBytes(32).toString('base64'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: logLevel,
    // The benchmark measures capacity, not the limiter (issue 16).
    MONEY_RATE_LIMIT_PER_MINUTE: '1000000',
    // Thousands of cents a minute to payees first paid today would trip the new-payee review rule.
    REVIEW_NEW_PAYEE_DAILY_CENTS: String(Number.MAX_SAFE_INTEGER),
    KYC_AUTO_APPROVE_SECONDS: 'off',
    CARD_AUTO_APPROVE_SECONDS: 'off',
    RAIL_SPEED: 'instant',
    // Believes X-Forwarded-For from loopback only: the setup's per-customer addresses (setupAddress).
    TRUST_PROXY: 'loopback',
    WEB_DIST_DIR: path.join(root, 'apps/api/src/faults/no-web-app'),
  };
  console.log(`${customerCount} customers through the ops CLI's create-customer ...`);
  const made = await createCustomers(db, environment, runId);

  const cpuProfileRoot = options['cpu-prof'] ? path.join(root, 'artifacts', `cpu-prof-${startedAt.toISOString().replace(/[:.]/g, '-')}`) : undefined;
  const profileDirectory = (processes: number) => (cpuProfileRoot ? path.join(cpuProfileRoot, `processes-${processes}`) : undefined);
  const profiles: string[] = [];
  const printProfile = async (processes: number) => {
    const directory = profileDirectory(processes);
    if (!directory || !existsSync(directory)) return;
    const files = readdirSync(directory)
      .filter((file) => file.endsWith('.cpuprofile'))
      .map((file) => path.join(directory, file));
    const { totalMs, top } = await topSelfTime(files, 15, root);
    const lines = [
      `CPU profile, ${processes} process(es): ${files.length} file(s) in ${path.relative(root, directory)}, ${fmt(totalMs / 1000)} s sampled; top 15 by self time:`,
      ...top.map((entry) => `  ${fmt(entry.share * 100).padStart(5)}%  ${fmt(entry.ms, 0).padStart(8)} ms  ${entry.name}  ${entry.where}`),
    ];
    console.log(lines.join('\n'));
    profiles.push(lines.join('\n'));
  };

  let serverProcesses = 1;
  server = await startApi(environment, serverProcesses, serverLog, profileDirectory(serverProcesses));
  console.log(`API at ${server.origin} (${server.serving} process)`);
  const notes: string[] = [];
  const customers: Customer[] = [];
  for (const customer of made) customers.push(await signIn(server.origin, customer));
  console.log(`${customers.length} customers signed in over HTTP; setting up a known payee each (step-up by SMS) ...`);
  for (const customer of customers) await setUpPayee(server.origin, db, customer, checkingOf(customers[(customer.index + 1) % customers.length] ?? customer));
  const origin = server.origin;
  const payees: HotPayees = {};
  if (workloadNames.includes('hot')) {
    // The biller: a customer of this bank (made like the others, unfunded) whose checking every
    // signed-in customer knows as a payee.
    const biller = await createCustomer(benchDb, environment, runId, customerCount, 0n);
    const hot = checkingOf(biller);
    payees.hot = hot;
    await inParallel(customers, 4, (customer) => setUpPayee(origin, benchDb, customer, hot));
    console.log(`hot: every customer knows the biller's checking as a payee`);
  }
  if (workloadNames.includes('zipf')) {
    const setupStarted = Date.now();
    const plan = zipfPlan(customers.length, zipfPayeeAccounts, zipfTemplatesPerPayer, zipfPayeesPerPayer, zipfExponent);
    const holders = await inParallel(
      Array.from({ length: Math.ceil(zipfPayeeAccounts / 2) }, (_, i) => customerCount + 1 + i),
      4,
      (index) => createCustomer(benchDb, environment, runId, index, 0n),
    );
    // Ranks 1..500 are the holders' checking accounts, 501..1000 their savings: the most paid
    // payees belong to different customers.
    const accounts = [
      ...holders.map(checkingOf),
      ...holders.map((holder) => ({ id: holder.savings.id, number: holder.savings.number, name: holder.name })),
    ].slice(0, zipfPayeeAccounts);
    const known = plan.knownPayees.reduce((sum, ranks) => sum + ranks.length, 0);
    console.log(`zipf: ${accounts.length} payee accounts of ${holders.length} customers; ${known} known payees to set up (step-up by SMS each) ...`);
    await inParallel(customers, 4, async (customer) => {
      for (const rank of plan.knownPayees[customer.index] ?? []) {
        const account = accounts[rank];
        if (account) await setUpPayee(origin, benchDb, customer, account);
      }
    });
    payees.zipf = { accounts, rotation: plan.rotation };
    const top = (n: number) => plan.counts.slice(0, n).reduce((a, b) => a + b, 0) / plan.rotation.length;
    const note =
      `zipf: ${accounts.length} payee accounts (checking and savings of ${holders.length} customers made by create-customer), Zipf s = ${zipfExponent}: ` +
      `a rotation of ${plan.rotation.length} payments, one per signed-in customer in turn, the first payee on ${fmt(top(1) * 100)}% of them, the first 10 on ${fmt(top(10) * 100)}%, ` +
      `the first 100 on ${fmt(top(100) * 100)}%, every payee on one at least; ${known} known payees (each first paid with an SMS step-up; ` +
      `at most ${Math.max(...plan.knownPayees.map((ranks) => ranks.length))} per customer, under the 30 step-ups a customer may answer in 10 minutes), set up in ${fmt((Date.now() - setupStarted) / 1000)} s`;
    console.log(note);
    notes.push(note);
  }
  // Known payees, as a customer's regular payees are: first paid two days ago. Paid minutes ago,
  // each would stay new for D1's second rule all day, and every payment would sum what its
  // customer sent to new payees in the last 24 hours (a cost that grows with each payment of the
  // run); that is the rarer case, and not the workload the issue asks for.
  await db.query(
    `UPDATE payments SET created_at = created_at - interval '2 days' WHERE message = 'Bench first payment' AND from_account_id = ANY($1::uuid[])`,
    [customers.map((customer) => customer.checking.id)],
  );
  // Statistics, as a bank's tables have them: the database was empty minutes ago, and a prepared
  // statement planned then (a few rows: read the whole table) keeps that plan until autovacuum
  // analyzes the table, which it does late in a run or not at all (issue 37: the review rules'
  // first-payment lookup read all of payments for every group of a cell).
  await db.query('ANALYZE');
  const payeeAccountIds = [...(payees.hot ? [payees.hot.id] : []), ...(payees.zipf?.accounts.map((account) => account.id) ?? [])];
  const totalBefore = await totalBalance(server.origin, customers);
  const payeesBefore = await accountsBalance(benchDb, payeeAccountIds);
  const hotBefore = payees.hot ? await accountsBalance(benchDb, [payees.hot.id]) : 0n;
  const byName = workloads(customers, payees);

  const cells: Cell[] = [];
  /** The soak's minutes, apart from the table of cells but in the check that nothing was lost. */
  const soakCells: Cell[] = [];
  let soakReport: string[] = [];

  const runCell = async (processes: number, workload: Workload, connections: number, seconds: number, rate?: number, label?: string): Promise<Cell> => {
    if (!server) throw new Error('no server');
    const tag = `Bench ${runId} ${label ?? `${workload.name} c${connections} p${processes}`}`;
    const before = await scrape(server.origin);
    const walStart = await walPosition(adminDb);
    if (options.statements) await benchDb.query('SELECT pg_stat_statements_reset(), pg_stat_reset()');
    const endCpu = startCpuSplit(postmasterPid(benchCluster.dataDirectory), server.child.pid);
    const endWaits = sampleWaitEvents(adminDb);
    const result = await runWrk({
      origin: server.origin,
      templates: workload.templates(tag),
      connections,
      seconds,
      keyPrefix: `b${runId}${label ? label.replace(/[^A-Za-z0-9]/g, '') : `${workload.name}${connections}p${processes}`}`,
      workDirectory,
      name: (label ?? `${workload.name}-c${connections}-p${processes}`).replace(/[^A-Za-z0-9-]/g, '-'),
      rate,
    });
    const cpu = endCpu(result.requests);
    const waitEvents = await endWaits();
    const after = await scrape(server.origin);
    const walEnd = await walPosition(adminDb);
    const cell: Cell = {
      processes,
      serving: server.serving,
      workload: workload.name,
      connections,
      result,
      serverMeanMs: serverMeanMs(before, after, workload.routes),
      eventLoopLagP99Ms: after.eventLoopLagP99Seconds * 1000,
      stagesMs: stageMeansMs(before, after),
      cpu,
      waitEvents,
      wal: await walBetween(benchCluster, walStart, walEnd),
    };
    if (options.statements) console.log(await statementsPerRequest(benchDb, result.requests));
    if (workload.money) await verifyAcknowledged(benchDb, cell, tag);
    return cell;
  };

  const describeTarget = (cell: TargetCell) =>
    `${cell.workload} c${cell.connections}: ${whole(cell.result.requestsPerSecond)}/s, p50 ${fmt(cell.result.latencyMs.p50)} ms, ` +
    `p99 ${fmt(cell.result.latencyMs.p99)} ms, non-2xx ${cell.result.non2xx}, socket errors ${socketErrorCount(cell.result)}` +
    (cell.acknowledgedInDatabase === undefined ? '' : `, ${cell.acknowledgedInDatabase}/${cell.result.acknowledgedIds.length} acknowledged on the primary`) +
    (canMeasureCpu
      ? // Not cpuText: the cluster's backends carry its cluster_name in their titles, which process-cpu.ts
        // does not take for client backends, so its split into client and background work means nothing here.
        `; CPU per request: API ${fmt(cell.cpu.serverMs, 2)} ms, the primary's PostgreSQL ${fmt(cell.cpu.postgresMs, 2)} ms, the standbys' ${fmt(cell.standbysMs, 2)} ms, ` +
        `HAProxy ${fmt(cell.haproxyMs, 2)} ms, load generator ${fmt(cell.cpu.loadMs, 2)} ms; machine ${whole(cell.cpu.machineBusy * 100)}% busy of ${cell.cpu.cores} cores`
      : '');
  const describe = (cell: Cell) =>
    `${cell.workload} c${cell.connections} p${cell.processes}: ${whole(cell.result.requestsPerSecond)}/s, p50 ${fmt(cell.result.latencyMs.p50)} ms, ` +
    `p99 ${fmt(cell.result.latencyMs.p99)} ms, non-2xx ${cell.result.non2xx}, socket errors ${socketErrorCount(cell.result)}, ` +
    `${fmt(cell.result.requestsPerSecond / pgbench.tps, 2)}x pgbench` +
    (cell.acknowledgedInDatabase === undefined ? '' : `, ${cell.acknowledgedInDatabase}/${cell.result.acknowledgedIds.length} acknowledged in the database`) +
    (cell.stagesMs ? `; stages ${cell.stagesMs} ms` : '') +
    (cell.waitEvents ? `; backends busy (mean): ${cell.waitEvents}` : '') +
    (canMeasureCpu ? `; CPU per request: ${cpuText(cell.cpu)}` : '');

  /** --cluster: the comparison's cells, its lines for the record, and what it checked. */
  const targetCells: TargetCell[] = [];
  const clusterLines: string[] = [];
  const clusterVerification: string[] = [];
  const clusterPgbench: { script: string; target: 'haproxy' | 'direct'; tps: number; p50Ms: number; p99Ms: number }[] = [];

  if (options.cluster) {
    const target = (ha = await openHaTarget());
    const primaryAtStart = await target.primary();
    const syncAtStart = await target.syncStandby();
    clusterDb = await openPostgres(target.haproxyUrl, 4);
    const haDb = clusterDb;
    await migrate(haDb);
    const [standbyNames] = await haDb.query<{ names: string }>(`SELECT current_setting('synchronous_standby_names') AS names`);
    clusterLines.push(
      `cluster: deploy/ha started by scripts/ha-cluster.mjs${target.startedHere ? ' for this run' : ' (one already running)'}, all on this machine: ${await haVersions()}`,
      `cluster settings (Patroni's dynamic configuration): ${await target.settings()}; PostgreSQL: ${await serverSettings(haDb)}, synchronous_standby_names=${standbyNames?.names ?? 'n/a'}, data checksums and wal_log_hints on (the plain one: neither)`,
      `primary ${primaryAtStart.name} (timeline ${primaryAtStart.timeline ?? 'n/a'}), synchronous standby ${syncAtStart ?? 'none'} at the start`,
    );
    const clusterEnvironment = { ...environment, DATABASE_URL: target.haproxyUrl, DATA_DIR: path.join(workDirectory, 'data-cluster') };
    console.log(`${customerCount} customers in the cluster's bank database, through HAProxy ...`);
    const clusterMade = await createCustomers(haDb, clusterEnvironment, runId);
    const viaHaproxy = await startApi(clusterEnvironment, 1, path.join(workDirectory, 'server-haproxy.log'));
    clusterServers.push(viaHaproxy);
    const direct = await startApi(
      { ...clusterEnvironment, DATABASE_URL: target.directUrl(primaryAtStart.port) },
      1,
      path.join(workDirectory, 'server-direct.log'),
    );
    clusterServers.push(direct);
    console.log(`API through HAProxy at ${viaHaproxy.origin}, straight to ${primaryAtStart.name}'s PostgreSQL at ${direct.origin}`);
    // One session per customer, valid on both servers: sessions live in the database they share.
    const clusterCustomers: Customer[] = [];
    for (const customer of clusterMade) clusterCustomers.push(await signIn(viaHaproxy.origin, customer));
    const clusterWorkloads = workloads(clusterCustomers, {});
    const clusterTotalBefore = await totalBalance(viaHaproxy.origin, clusterCustomers);
    const servers: Record<TargetName, Server> = { plain: server, haproxy: viaHaproxy, direct };
    for (const name of ['plain', 'haproxy', 'direct'] as const) {
      console.log(`-- ${targetTitles[name]}: warming up 3 s ...`);
      const templates = name === 'plain' ? byName : clusterWorkloads;
      await runWrk({
        origin: servers[name].origin,
        templates: [...templates.own.templates(`Bench ${runId} warm-up ${name}`), ...templates.reads.templates('')],
        connections: 8,
        seconds: 3,
        keyPrefix: `b${runId}warm${name}`,
        workDirectory,
        name: `warm-${name}`,
      });
    }

    const runClusterCell = async (name: 'haproxy' | 'direct', workload: Workload, connections: number, order: number): Promise<TargetCell> => {
      const tag = `Bench ${runId} ${workload.name} c${connections} ${name}`;
      const primary = await target.primary();
      const standbys = await target.standbyDataDirectories();
      const clusterServer = servers[name];
      const endCpu = startCpuSplit(postmasterPid(primary.dataDirectory), clusterServer.child.pid);
      const endTrees = startTreeCpu([target.haproxyPid(), ...standbys.map((directory) => postmasterPid(directory))]);
      const result = await runWrk({
        origin: clusterServer.origin,
        templates: workload.templates(tag),
        connections,
        seconds: cellSeconds,
        keyPrefix: `b${runId}${workload.name}${connections}${name}`,
        workDirectory,
        name: `${workload.name}-c${connections}-${name}`,
      });
      const cpu = endCpu(result.requests);
      const [haproxyMs = Number.NaN, ...standbyMs] = endTrees(result.requests);
      const cell: TargetCell = {
        target: name,
        workload: workload.name,
        connections,
        order,
        result,
        cpu,
        haproxyMs,
        standbysMs: standbyMs.reduce((sum, ms) => sum + ms, 0),
        load: os.loadavg()[0] ?? Number.NaN,
      };
      if (workload.money) await verifyAcknowledged(haDb, cell, tag);
      return cell;
    };

    let pair = 0;
    for (const name of workloadNames as WorkloadName[]) {
      for (const connections of connectionCounts) {
        // Reversed from one cell to the next: HAProxy runs before the direct connection in half of them.
        const order: TargetName[] = pair % 2 === 0 ? ['plain', 'haproxy', 'direct'] : ['direct', 'haproxy', 'plain'];
        pair += 1;
        for (const [index, targetName] of order.entries()) {
          if (targetName === 'plain') {
            const cell = await runCell(1, byName[name], connections, cellSeconds);
            cells.push(cell);
            targetCells.push({
              ...cell,
              target: 'plain',
              order: index + 1,
              haproxyMs: Number.NaN,
              standbysMs: Number.NaN,
              load: os.loadavg()[0] ?? Number.NaN,
            });
            console.log(`${targetTitles.plain}: ${describe(cell)}`);
          } else {
            const cell = await runClusterCell(targetName, clusterWorkloads[name], connections, index + 1);
            targetCells.push(cell);
            console.log(`${targetTitles[targetName]}: ${describeTarget(cell)}`);
          }
        }
      }
    }

    // pgbench through both, the order reversed between its two scripts: select-only shows what the
    // extra hop costs a statement; TPC-B-like against the plain node's (above) what the
    // synchronous standby costs a commit.
    const psql = (sql: string) =>
      execFileAsync(
        path.join(postgresBin ?? '', 'psql'),
        ['-h', '127.0.0.1', '-p', String(target.writePort), '-U', 'postgres', '-d', 'postgres', '-qAt', '-c', sql],
        {
          env: { ...process.env, PGPASSWORD: target.superuserPassword },
          timeout: 120_000,
        },
      );
    await psql('DROP DATABASE IF EXISTS bench_pgbench WITH (FORCE)');
    await psql('CREATE DATABASE bench_pgbench');
    console.log(`pgbench on the cluster: initialising scale ${pgbenchScale} ...`);
    await pgbenchOnCluster(target.writePort, target.superuserPassword, ['-i', '-s', String(pgbenchScale), '-q']);
    const primaryNow = await target.primary();
    const pgbenchPorts: Record<'haproxy' | 'direct', number> = { haproxy: target.writePort, direct: primaryNow.port };
    const pgbenchOrders = [
      ['select-only', ['haproxy', 'direct']],
      ['tpcb-like', ['direct', 'haproxy']],
    ] as const;
    for (const [script, order] of pgbenchOrders) {
      for (const name of order) {
        const args = ['-b', script, '-M', 'prepared', '-c', String(pgbenchClients), '-j', '2', '-T', String(pgbenchSeconds)];
        const figures = await pgbenchOnCluster(pgbenchPorts[name], target.superuserPassword, args, path.join(workDirectory, `pgbench-${script}-${name}`));
        if (!figures) continue;
        clusterPgbench.push({ script, target: name, ...figures });
        console.log(`pgbench ${script}, ${targetTitles[name]}: ${whole(figures.tps)} tps, p50 ${fmt(figures.p50Ms, 2)} ms, p99 ${fmt(figures.p99Ms, 2)} ms`);
      }
    }
    await psql('DROP DATABASE bench_pgbench WITH (FORCE)');
    for (const [script, order] of pgbenchOrders) {
      const through = clusterPgbench.find((row) => row.script === script && row.target === 'haproxy');
      const straight = clusterPgbench.find((row) => row.script === script && row.target === 'direct');
      if (!through || !straight) continue;
      const text = (row: typeof through) => `${whole(row.tps)} tps (p50 ${fmt(row.p50Ms, 2)} ms, p99 ${fmt(row.p99Ms, 2)} ms)`;
      clusterLines.push(
        `pgbench ${script} on the cluster (-M prepared -c ${pgbenchClients} -j 2, scale ${pgbenchScale}, ${pgbenchSeconds} s each, ${order[0] === 'haproxy' ? 'through HAProxy first' : 'direct first'}): ` +
          `through HAProxy ${text(through)}, direct to the primary ${text(straight)}: HAProxy/direct ${fmt(through.tps / straight.tps, 2)}x` +
          (script === 'tpcb-like'
            ? `; direct against the plain node's TPC-B-like at this run's start (no standby, ${whole(pgbench.tps)} tps, p99 ${fmt(pgbench.p99Ms, 2)} ms): ${fmt(straight.tps / pgbench.tps, 2)}x`
            : ''),
      );
    }

    const primaryAtEnd = await target.primary();
    if (primaryAtEnd.name !== primaryAtStart.name || primaryAtEnd.timeline !== primaryAtStart.timeline) {
      notes.push(
        `the cluster's primary changed during the run (${primaryAtStart.name}, timeline ${primaryAtStart.timeline} -> ${primaryAtEnd.name}, timeline ${primaryAtEnd.timeline}): its figures are not comparable`,
      );
    }
    const syncAtEnd = await target.syncStandby();
    if (syncAtEnd !== syncAtStart) notes.push(`the synchronous standby changed during the run: ${syncAtStart ?? 'none'} -> ${syncAtEnd ?? 'none'}`);
    const clusterTotalAfter = await totalBalance(viaHaproxy.origin, clusterCustomers);
    for (const clusterServer of clusterServers.splice(0)) await clusterServer.stop();
    const clusterLedger = await runOpsCommand(
      { database: async () => haDb, config: await loadConfig({ ...process.env, ...clusterEnvironment }) },
      'check-ledger',
      [],
    );
    const clusterMoney = targetCells.filter((cell) => cell.target !== 'plain' && cell.acknowledgedInDatabase !== undefined);
    const clusterAcknowledged = clusterMoney.reduce((sum, cell) => sum + cell.result.acknowledgedIds.length, 0);
    const clusterFound = clusterMoney.reduce((sum, cell) => sum + (cell.acknowledgedInDatabase ?? 0), 0);
    clusterVerification.push(
      `${clusterFound === clusterAcknowledged ? 'PASS' : 'FAIL'} cluster: every acknowledged transfer on the primary: ${clusterFound.toLocaleString('en-US')} of ${clusterAcknowledged.toLocaleString('en-US')} 201 answers found completed with their ledger transfer`,
      `${clusterTotalAfter === clusterTotalBefore ? 'PASS' : 'FAIL'} cluster: the customers' total balance unchanged: ${clusterTotalBefore} cents before, ${clusterTotalAfter} after`,
      `${clusterLedger.exitCode === 0 ? 'PASS' : 'FAIL'} cluster: ops check-ledger: ${clusterLedger.output.split('\n')[0]}`,
    );
  } else if (!options.soak) {
    for (const processes of processCounts) {
      if (processes !== serverProcesses) {
        await server.stop();
        await printProfile(serverProcesses);
        server = await startApi(environment, processes, serverLog, profileDirectory(processes));
        serverProcesses = processes;
      }
      if (processes > 1 && server.serving < processes) {
        const note = `WEB_CONCURRENCY=${processes} was ignored: the server ran as ${server.serving} process (no node:cluster workers); the ${processes}-process rows measure one process`;
        console.log(`NOTE: ${note}`);
        notes.push(note);
      }
      console.log(`-- ${processes} process(es) asked, ${server.serving} serving; warming up 3 s ...`);
      await runWrk({
        origin: server.origin,
        templates: [...byName.own.templates(`Bench ${runId} warm-up`), ...byName.reads.templates('')],
        connections: 8,
        seconds: 3,
        keyPrefix: `b${runId}warm${processes}`,
        workDirectory,
        name: `warm-${processes}`,
      });
      for (const name of workloadNames as WorkloadName[]) {
        for (const connections of connectionCounts) {
          const cell = await runCell(processes, byName[name], connections, cellSeconds);
          cells.push(cell);
          console.log(describe(cell));
        }
      }
    }
  } else {
    const processes = 1;
    let rate = Number(options['soak-rate'] ?? Number.NaN);
    if (!Number.isFinite(rate)) {
      const probe = await runCell(processes, byName.own, 32, Math.max(cellSeconds, 10), undefined, 'peak probe');
      cells.push(probe);
      console.log(`peak probe: ${describe(probe)}`);
      rate = Math.max(1, Math.round(probe.result.requestsPerSecond / 2));
    }
    const soakConnections = 32;
    console.log(`soak: ${soakMinutes} min of own transfers at ${rate}/s (paced by wrk's delay(), ${soakConnections} connections); memory every 5 s`);
    const memory: { minute: number; heap: number; rss: number }[] = [];
    let minute = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const sample = server ? await scrape(server.origin).catch(() => undefined) : undefined;
        if (sample) memory.push({ minute, heap: sample.heapUsedBytes, rss: sample.residentBytes });
        await sleep(5_000);
      }
    })();
    const minutes: Cell[] = [];
    for (minute = 0; minute < soakMinutes; minute += 1) {
      const cell = await runCell(processes, byName.own, soakConnections, 60, rate, `soak m${minute + 1}`);
      minutes.push(cell);
      soakCells.push(cell);
      const samples = memory.filter((sample) => sample.minute === minute);
      console.log(
        `minute ${minute + 1}: ${whole(cell.result.requestsPerSecond)}/s, p50 ${fmt(cell.result.latencyMs.p50)} ms, p99 ${fmt(cell.result.latencyMs.p99)} ms, ` +
          `non-2xx ${cell.result.non2xx}, socket errors ${socketErrorCount(cell.result)}, heap floor ${fmt(Math.min(...samples.map((s) => s.heap)) / 2 ** 20)} MiB, ` +
          `RSS ${fmt(Math.max(...samples.map((s) => s.rss)) / 2 ** 20)} MiB`,
      );
    }
    sampling = false;
    await sampler;
    const perMinute = minutes.map((cell, index) => {
      const samples = memory.filter((sample) => sample.minute === index);
      return {
        cell,
        heapFloorMiB: Math.min(...samples.map((s) => s.heap)) / 2 ** 20,
        heapMeanMiB: samples.reduce((sum, s) => sum + s.heap, 0) / Math.max(1, samples.length) / 2 ** 20,
        rssMaxMiB: Math.max(...samples.map((s) => s.rss)) / 2 ** 20,
      };
    });
    const first = perMinute[0];
    const last = perMinute[perMinute.length - 1];
    const heapDrift = first && last ? (last.heapFloorMiB - first.heapFloorMiB) / first.heapFloorMiB : Number.NaN;
    const p99s = minutes.map((cell) => cell.result.latencyMs.p99);
    const p99Median = median(p99s);
    const p99Worst = Math.max(...p99s);
    const errors = minutes.reduce((sum, cell) => sum + cell.result.non2xx + socketErrorCount(cell.result), 0);
    const lost = minutes.reduce((sum, cell) => sum + cell.result.acknowledgedIds.length - (cell.acknowledgedInDatabase ?? 0), 0);
    const achieved = minutes.map((cell) => cell.result.requestsPerSecond);
    const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
    soakReport = [
      `| minute | transfers/s | p50 ms | p99 ms | non-2xx | socket errors | acknowledged in DB | heap floor MiB | heap mean MiB | RSS max MiB |`,
      `|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|`,
      ...perMinute.map(
        (m, index) =>
          `| ${index + 1} | ${whole(m.cell.result.requestsPerSecond)} | ${fmt(m.cell.result.latencyMs.p50)} | ${fmt(m.cell.result.latencyMs.p99)} | ${m.cell.result.non2xx} | ${socketErrorCount(m.cell.result)} | ${m.cell.acknowledgedInDatabase}/${m.cell.result.acknowledgedIds.length} | ${fmt(m.heapFloorMiB)} | ${fmt(m.heapMeanMiB)} | ${fmt(m.rssMaxMiB)} |`,
      ),
      '',
      `- target rate ${rate}/s (half the peak probe's), achieved median ${whole(median(achieved))}/s (min ${whole(Math.min(...achieved))})`,
      // A leak grows; a first minute that still holds start-up garbage is higher than the rest, which is no fault.
      `- ${verdict(heapDrift <= 0.1)} heap: last minute's floor ${fmt(last?.heapFloorMiB ?? Number.NaN)} MiB vs the first's ${fmt(first?.heapFloorMiB ?? Number.NaN)} MiB (${fmt(heapDrift * 100)}%, target: at most 10% above)`,
      `- ${verdict(p99Worst <= 2 * p99Median)} p99 stable: worst minute ${fmt(p99Worst)} ms, median minute ${fmt(p99Median)} ms (target: worst <= 2x median)`,
      `- ${verdict(errors === 0 && lost === 0)} errors: ${errors} non-2xx or socket errors; ${lost} acknowledged transfers missing from the database`,
    ];
    console.log(soakReport.join('\n'));
  }

  const totalAfter = await totalBalance(server.origin, customers);
  const payeesAfter = await accountsBalance(benchDb, payeeAccountIds);
  const hotAfter = payees.hot ? await accountsBalance(benchDb, [payees.hot.id]) : 0n;
  const [hotPaid] = payees.hot
    ? await benchDb.query<{ total: string }>(
        `SELECT coalesce(sum(amount_cents), 0)::text AS total FROM payments WHERE to_account_id = $1 AND status = 'completed' AND message LIKE $2`,
        [payees.hot.id, `Bench ${runId} hot %`],
      )
    : [];
  await server.stop();
  server = undefined;
  await printProfile(serverProcesses);
  const config = await loadConfig({ ...process.env, ...environment });
  const ledgerCheck = await runOpsCommand({ database: async () => benchDb, config }, 'check-ledger', []);
  console.log(ledgerCheck.output);

  // -------------------------------------------------------------------------------------------
  // Tables and targets

  const money = [...cells, ...soakCells].filter((cell) => cell.acknowledgedInDatabase !== undefined);
  const acknowledged = money.reduce((sum, cell) => sum + cell.result.acknowledgedIds.length, 0);
  const inDatabase = money.reduce((sum, cell) => sum + (cell.acknowledgedInDatabase ?? 0), 0);
  const verification = [
    `${acknowledged === inDatabase ? 'PASS' : 'FAIL'} every acknowledged transfer in the database: ${inDatabase.toLocaleString('en-US')} of ${acknowledged.toLocaleString('en-US')} 201 answers found completed with their ledger transfer (${money.reduce((sum, cell) => sum + (cell.unacknowledgedCommitted ?? 0), 0)} more committed while wrk was stopping, unanswered)`,
    payeeAccountIds.length === 0
      ? `${totalAfter === totalBefore ? 'PASS' : 'FAIL'} the customers' total balance unchanged (money only moved among them): ${totalBefore} cents before, ${totalAfter} after`
      : `${totalAfter + payeesAfter === totalBefore + payeesBefore ? 'PASS' : 'FAIL'} money conserved: the signed-in customers' total ${totalBefore} -> ${totalAfter} cents, their payees' ` +
        `(the biller and the Zipf accounts) ${payeesBefore} -> ${payeesAfter}; together ${totalBefore + payeesBefore} -> ${totalAfter + payeesAfter}`,
    ...(payees.hot
      ? [
          `${hotAfter - hotBefore === BigInt(hotPaid?.total ?? '-1') ? 'PASS' : 'FAIL'} the biller's balance grew by what the hot cells' completed payments paid it: ` +
            `+${hotAfter - hotBefore} cents, ${hotPaid?.total ?? 'n/a'} cents paid`,
        ]
      : []),
    `${ledgerCheck.exitCode === 0 ? 'PASS' : 'FAIL'} ops check-ledger: ${ledgerCheck.output.split('\n')[0]}`,
  ];

  const rows = cells.map((cell) => {
    const r = cell.result;
    const perRequest = (n: number | undefined) => (cell.wal && r.requests > 0 && n !== undefined ? fmt(n / r.requests, 1) : 'n/a');
    return (
      `| ${cell.processes}${cell.serving !== cell.processes ? ` (${cell.serving} ran)` : ''} | ${cell.workload} | ${cell.connections} | ${whole(r.requestsPerSecond)} | ` +
      `${fmt(r.latencyMs.p50)} | ${fmt(r.latencyMs.p99)} | ${r.non2xx} | ${socketErrorCount(r)} | ${fmt(r.requestsPerSecond / pgbench.tps, 2)}x | ` +
      `${fmt(cell.serverMeanMs)} | ${fmt(cell.eventLoopLagP99Ms)} | ${cell.stagesMs} | ${cpuCells(cell.cpu)} | ${perRequest(cell.wal?.commits)} | ${perRequest(cell.wal?.rowWrites)} | ` +
      `${cell.wal ? fmt(cell.wal.bytes / Math.max(1, r.requests) / 1024, 1) : 'n/a'} | ` +
      `${cell.acknowledgedInDatabase === undefined ? '' : `${cell.acknowledgedInDatabase}/${r.acknowledgedIds.length}`} |`
    );
  });
  const table = [
    '| processes | workload | connections | requests/s | p50 ms | p99 ms | non-2xx | socket errors | vs pgbench | server mean ms | event-loop lag p99 ms | stages ms: before handler / reads / queued / group | API CPU ms/req | PostgreSQL CPU ms/req (background) | wrk CPU ms/req | machine busy | commits/req | rows written/req | WAL KiB/req | 201s in DB |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
  ];

  const targetLines: string[] = [];
  if (!options.soak) {
    for (const processes of processCounts) {
      for (const name of ['own', 'internal'] as const) {
        const cell = cells.find((c) => c.processes === processes && c.workload === name && c.connections === 32);
        if (!cell) continue;
        const cpuRatio = canMeasureCpu ? cpuTotal(cell.cpu) / cpuTotal(pgbench.cpu) : Number.NaN;
        const checks = [
          ...(name === 'own' && canMeasureCpu
            ? [
                [
                  cpuRatio <= targets.transferCpuVsPgbench,
                  `CPU ${fmt(cpuTotal(cell.cpu), 2)} ms per transfer, ${fmt(cpuRatio, 2)}x a TPC-B transaction's ${fmt(cpuTotal(pgbench.cpu), 2)} ms (<= ${targets.transferCpuVsPgbench}x)`,
                ] as const,
              ]
            : []),
          [
            cell.result.latencyMs.p99 <= targets.p99Ms,
            // The database's own tail on this machine, for scale: the target does not move with it.
            `p99 ${fmt(cell.result.latencyMs.p99)} ms (<= ${targets.p99Ms}); TPC-B's own p99 in this run ${fmt(pgbench.p99Ms)} ms`,
          ],
          [
            cell.result.non2xx === 0 && socketErrorCount(cell.result) === 0,
            `${cell.result.non2xx} non-2xx, ${socketErrorCount(cell.result)} socket errors (0)`,
          ],
        ] as const;
        for (const [ok, text] of checks) targetLines.push(`${ok ? 'PASS' : 'FAIL'} ${name} transfers, 32 connections, ${processes} process(es): ${text}`);
      }
      for (const connections of connectionCounts) {
        const uniform = cells.find((c) => c.processes === processes && c.workload === 'internal' && c.connections === connections);
        for (const name of ['hot', 'zipf'] as const) {
          const skewed = cells.find((c) => c.processes === processes && c.workload === name && c.connections === connections);
          if (!uniform || !skewed) continue;
          const ratio = skewed.result.requestsPerSecond / uniform.result.requestsPerSecond;
          targetLines.push(
            `${ratio >= targets.skewedVsUniform ? 'PASS' : 'FAIL'} ${name} vs internal (uniform) transfers, ${connections} connections, ${processes} process(es): ` +
              `${fmt(ratio, 2)}x the rate (>= ${targets.skewedVsUniform}x), p99 ${fmt(skewed.result.latencyMs.p99)} ms vs ${fmt(uniform.result.latencyMs.p99)} ms, ` +
              `CPU ${fmt(skewed.cpu.serverMs + skewed.cpu.postgresMs + skewed.cpu.loadMs, 2)} ms/request vs ${fmt(uniform.cpu.serverMs + uniform.cpu.postgresMs + uniform.cpu.loadMs, 2)} ms`,
          );
        }
      }
      const reads = cells.find((c) => c.processes === processes && c.workload === 'reads' && c.connections === 32);
      const own = cells.find((c) => c.processes === processes && c.workload === 'own' && c.connections === 32);
      if (reads && own) {
        const ratio = reads.result.requestsPerSecond / own.result.requestsPerSecond;
        targetLines.push(
          `${ratio >= targets.readsVsTransfers ? 'PASS' : 'FAIL'} reads vs own transfers, 32 connections, ${processes} process(es): ${fmt(ratio, 2)}x the rate (>= ${targets.readsVsTransfers}x)`,
        );
        if (canMeasureCpu) {
          const cpuRatio = cpuTotal(reads.cpu) / cpuTotal(own.cpu);
          targetLines.push(
            `${cpuRatio <= targets.readCpuVsTransfer ? 'PASS' : 'FAIL'} a read's CPU vs an own transfer's, 32 connections, ${processes} process(es): ` +
              `${fmt(cpuTotal(reads.cpu), 2)} ms vs ${fmt(cpuTotal(own.cpu), 2)} ms, ${fmt(cpuRatio, 2)}x (<= ${targets.readCpuVsTransfer}x)`,
          );
          targetLines.push(
            `${reads.result.latencyMs.p99 <= targets.p99Ms ? 'PASS' : 'FAIL'} reads, 32 connections, ${processes} process(es): p99 ${fmt(reads.result.latencyMs.p99)} ms (<= ${targets.p99Ms})`,
          );
        }
      }
    }
  }

  const pgbenchLine =
    `pgbench TPC-B-like (-M prepared -c ${pgbenchClients} -j 2, scale ${pgbenchScale}, ${pgbenchSeconds} s): ${whole(pgbench.tps)} tps, p50 ${fmt(pgbench.p50Ms, 2)} ms, p99 ${fmt(pgbench.p99Ms, 2)} ms` +
    (canMeasureCpu ? `; CPU per transaction: ${cpuText(pgbench.cpu)}` : '');
  const output = [
    '',
    pgbenchLine,
    '',
    ...table,
    '',
    ...(targetLines.length ? [...targetLines, ''] : []),
    ...verification,
    ...(options.cluster ? ['', ...clusterLines, '', ...targetReport(targetCells), '', ...clusterVerification] : []),
    ...notes.map((note) => `NOTE: ${note}`),
    ...(soakReport.length ? ['', ...soakReport] : []),
  ];
  console.log(output.join('\n'));

  if (record) {
    const section = [
      '',
      options.cluster
        ? `## Through HAProxy (issue 36): npm run bench:http -- --cluster, ${startedAt.toISOString()}`
        : `## HTTP stack (npm run bench:http${options.soak ? ' -- --soak' : ''}), ${startedAt.toISOString()}`,
      '',
      `- machine: ${machine}; load average (1, 5, 15 min) ${loadBefore} before, ${loadLine()} after (the machine is shared)`,
      `- commit: ${commit}; PostgreSQL: ${settings}, on its own throwaway cluster`,
      `- server: the esbuild bundle (node --enable-source-maps apps/api/dist/main.js), BANK_MODE=sandbox on PostgreSQL, LOG_LEVEL=${logLevel} to a file, MONEY_RATE_LIMIT_PER_MINUTE=1000000${options['cpu-prof'] ? ', under --cpu-prof' : ''}`,
      `- load: wrk 4.1, 2 threads, bench/http/load.lua; ${customerCount} customers signed in over HTTP, requests rotating over their sessions, a fresh Idempotency-Key per payment, 1 cent each; ${options.soak ? `soak minutes of 60 s` : `${cellSeconds} s per cell after a 3 s warm-up`}`,
      `- ${pgbenchLine}`,
      `- server mean: Fastify's own time for the route (from /metrics; one worker's when several run); commits, rows written and WAL per request from pg_waldump over the cell`,
      `- stages: a money request's mean time before its handler (session, CSRF, limits, validation), in its reads (payer, plan), queued for a commit group and in its group's transaction (payment_stage_seconds in /metrics)`,
      `- CPU ms/req: CPU time (user and system, from /proc) per answered request of the API's processes, of PostgreSQL's (all its processes; in brackets the part outside the client backends: autovacuum, checkpointer, WAL and background writers), and of wrk; machine busy: the share of all ${os.availableParallelism()} cores busy during the cell (bench/http/process-cpu.ts)`,
      ...(options.cluster
        ? [
            ...clusterLines.map((line) => `- ${line}`),
            `- targets: three API servers of one process each, one per target, run side by side; each cell's wrk against one of them, the order of the three reversed from one cell to the next ("ran": 1st, 2nd, 3rd); both cluster targets wait for the synchronous standby on every commit, the plain one has no standby; CPU of the primary's PostgreSQL as above, of the standbys' and of HAProxy as whole process trees (bench/http/ha-target.ts)`,
            '',
            ...targetReport(targetCells).map((line) => (line.startsWith('|') || line === '' ? line : `- ${line}`)),
            '',
            ...clusterVerification.map((line) => `- ${line}`),
            '',
            "The plain PostgreSQL's cells in full:",
          ]
        : []),
      '',
      ...table,
      '',
      ...targetLines.map((line) => `- ${line}`),
      ...verification.map((line) => `- ${line}`),
      ...cells
        .filter((cell) => cell.waitEvents)
        .map(
          (cell) =>
            `- backends busy, ${cell.workload} c${cell.connections} p${cell.processes} (client backends by wait event, mean of 100 ms samples): ${cell.waitEvents}`,
        ),
      ...notes.map((note) => `- NOTE: ${note}`),
      ...(soakReport.length ? ['', ...soakReport] : []),
      ...(profiles.length ? ['', '```', ...profiles, '```'] : []),
      '',
    ].join('\n');
    await appendFile(resultsPath, section);
    console.log(`appended to ${path.relative(root, resultsPath)}`);
  }
} catch (error) {
  // The server's own log tells why it stopped answering; the work directory goes below.
  const kept = path.join(root, 'artifacts', `bench-http-${runId}-server.log`);
  await mkdir(path.dirname(kept), { recursive: true });
  await copyFile(serverLog, kept).catch(() => undefined);
  const exit = server
    ? `the API ${server.child.exitCode === null && server.child.signalCode === null ? 'was still running' : `had exited (${server.child.exitCode ?? server.child.signalCode})`}`
    : 'no API was running';
  console.error(
    `bench:http failed; ${exit}; its log is kept in ${path.relative(root, kept)}; its end:\n${(await readFile(serverLog, 'utf8').catch(() => '')).slice(-3_000)}`,
  );
  throw error;
} finally {
  await server?.stop().catch(() => undefined);
  for (const clusterServer of clusterServers) await clusterServer.stop().catch(() => undefined);
  await clusterDb?.close().catch(() => undefined);
  await ha?.stop().catch((error: unknown) => console.error(`the HA cluster did not stop: ${String(error)}`));
  await db?.close().catch(() => undefined);
  await admin?.close().catch(() => undefined);
  await cluster?.destroy().catch(() => undefined);
  await rm(workDirectory, { recursive: true, force: true });
}
