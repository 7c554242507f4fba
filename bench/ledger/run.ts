/**
 * Ledger throughput against PostgreSQL's own yardstick, on one server in one run:
 *   (a) pgbench's built-in TPC-B-like script, 32 clients;
 *   (b) single-transfer requests from 32 concurrent callers, each its own transaction, and the
 *       same through the coalescing batcher;
 *   (c) batches of 100 and of 1,000 transfers.
 * Prints transfers/s with p50/p99 latency and the ratio to (a), and appends the figures to
 * bench/RESULTS.md. Usage: DATABASE_URL=postgres://... node --import tsx bench/ledger/run.ts
 * Optional: BENCH_SECONDS (default 30) for the length of each timed phase.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '../../apps/api/src/db/database.ts';
import { migrate } from '../../apps/api/src/db/migrate.ts';
import { openPostgres } from '../../apps/api/src/db/postgres.ts';
import { createAccounts } from '../../apps/api/src/ledger/accounts.ts';
import { createTransferBatcher } from '../../apps/api/src/ledger/batcher.ts';
import { checkLedger } from '../../apps/api/src/ledger/check-ledger.ts';
import { accountCodes, ledgers, operatorAccounts, transferCodes } from '../../apps/api/src/ledger/codes.ts';
import { createTransfers } from '../../apps/api/src/ledger/create-transfers.ts';
import { accountFlags, type TransferInput } from '../../apps/api/src/ledger/types.ts';

const pgbenchPath = '/usr/lib/postgresql/15/bin/pgbench';
const clientCount = 32;
const phaseSeconds = Number(process.env.BENCH_SECONDS ?? 30);
const customerAccountCount = 10_000;
const startingBalanceCents = 1_000_000_000n;
/**
 * Large batches over random accounts overlap, and overlapping batches serialize on the row locks:
 * a second caller overlaps one batch's reads and computation with the other's writes; more callers
 * only queue (measured: 2 and 4 callers give the same throughput at 1,000 per batch).
 */
const batchCallerCount = 2;
const batchPhaseSeconds = Math.max(5, Math.round(phaseSeconds / 2));
const resultsPath = fileURLToPath(new URL('../RESULTS.md', import.meta.url));

const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  console.error('bench:ledger needs PostgreSQL: set DATABASE_URL, e.g. DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres');
  process.exit(1);
}
if (!existsSync(pgbenchPath)) {
  console.error(`bench:ledger needs pgbench at ${pgbenchPath} (Debian package postgresql-client-15 or postgresql-15)`);
  process.exit(1);
}

interface Figures {
  name: string;
  /** The ratio to (a) this row must reach; absent for rows shown for comparison. */
  target?: number;
  transfersPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** What one latency sample is: a transaction, a request, a batch. */
  latencyOf: string;
}

function percentile(sortedMs: readonly number[], fraction: number): number {
  if (sortedMs.length === 0) return Number.NaN;
  return sortedMs[Math.min(sortedMs.length - 1, Math.floor(fraction * sortedMs.length))] ?? Number.NaN;
}

function summarize(name: string, count: number, seconds: number, latenciesMs: number[], latencyOf: string, target?: number): Figures {
  latenciesMs.sort((a, b) => a - b);
  return { name, target, transfersPerSecond: count / seconds, p50Ms: percentile(latenciesMs, 0.5), p99Ms: percentile(latenciesMs, 0.99), latencyOf };
}

function databaseUrl(name: string): string {
  const url = new URL(serverUrl ?? '');
  url.pathname = `/${name}`;
  return url.toString();
}

async function withScratchDatabase<T>(prefix: string, work: (url: string) => Promise<T>): Promise<T> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = await openPostgres(serverUrl ?? '', 1);
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    return await work(databaseUrl(name));
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.close();
  }
}

/** (a) pgbench TPC-B-like, with per-transaction logs for the percentiles. */
async function runPgbench(): Promise<Figures> {
  return withScratchDatabase('strongroom_bench_pgbench', async (url) => {
    execFileSync(pgbenchPath, ['-i', '-s', '10', '-q', url], { stdio: 'ignore' });
    const logDirectory = mkdtempSync(path.join(os.tmpdir(), 'pgbench-'));
    try {
      const output = execFileSync(
        pgbenchPath,
        ['-M', 'prepared', '-c', String(clientCount), '-j', '2', '-T', String(phaseSeconds), '-l', '--log-prefix', path.join(logDirectory, 'log'), url],
        { cwd: logDirectory, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(output);
      if (!tps?.[1]) throw new Error(`could not find the tps line in pgbench's output:\n${output}`);
      const latenciesMs: number[] = [];
      for (const file of readdirSync(logDirectory)) {
        for (const line of readFileSync(path.join(logDirectory, file), 'utf8').split('\n')) {
          const latencyMicroseconds = Number(line.split(' ')[2]);
          if (Number.isFinite(latencyMicroseconds) && line.length > 0) latenciesMs.push(latencyMicroseconds / 1000);
        }
      }
      latenciesMs.sort((a, b) => a - b);
      return {
        name: '(a) pgbench TPC-B-like, -M prepared -c 32 -j 2',
        transfersPerSecond: Number(tps[1]),
        p50Ms: percentile(latenciesMs, 0.5),
        p99Ms: percentile(latenciesMs, 0.99),
        latencyOf: 'transaction',
      };
    } finally {
      rmSync(logDirectory, { recursive: true, force: true });
    }
  });
}

/** Customer accounts, each funded from bank capital, so that benchmark transfers never fail. */
async function openFundedAccounts(db: Database): Promise<string[]> {
  const ids = Array.from({ length: customerAccountCount }, () => randomUUID());
  for (let start = 0; start < ids.length; start += 1_000) {
    const slice = ids.slice(start, start + 1_000);
    await createAccounts(
      db,
      slice.map((id) => ({ id, ledger: ledgers.usd, code: accountCodes.customerChecking, flags: accountFlags.debitsMustNotExceedCredits })),
    );
    const outcomes = await createTransfers(
      db,
      slice.map((id) => ({
        id: randomUUID(),
        debitAccountId: operatorAccounts.bankCapital,
        creditAccountId: id,
        amountCents: startingBalanceCents,
        ledger: ledgers.usd,
        code: transferCodes.accountFunding,
      })),
    );
    if (outcomes.some((outcome) => outcome.result !== 'ok')) throw new Error('funding failed');
  }
  return ids;
}

function randomPayment(accountIds: readonly string[]): TransferInput {
  const from = randomInt(accountIds.length);
  const to = (from + 1 + randomInt(accountIds.length - 1)) % accountIds.length;
  return {
    id: randomUUID(),
    debitAccountId: accountIds[from],
    creditAccountId: accountIds[to],
    amountCents: BigInt(1 + randomInt(10_000)),
    ledger: ledgers.usd,
    code: transferCodes.internalTransfer,
  };
}

/** Runs `callers` loops of `call` for `seconds`; each call returns how many transfers it created. */
async function timedCallers(
  callers: number,
  seconds: number,
  call: () => Promise<number>,
): Promise<{ count: number; elapsedSeconds: number; latenciesMs: number[] }> {
  const latenciesMs: number[] = [];
  let count = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < deadline) {
        const callStarted = performance.now();
        // Awaited first: `count += await call()` would read count before the await and lose updates.
        const created = await call();
        count += created;
        latenciesMs.push(performance.now() - callStarted);
      }
    }),
  );
  return { count, elapsedSeconds: (performance.now() - started) / 1000, latenciesMs };
}

function okCount(outcomes: ReadonlyArray<{ result: string }>): number {
  const created = outcomes.filter((outcome) => outcome.result === 'ok').length;
  if (created !== outcomes.length) throw new Error(`a benchmark transfer failed: ${outcomes.find((o) => o.result !== 'ok')?.result}`);
  return created;
}

async function runLedgerPhases(): Promise<Figures[]> {
  return withScratchDatabase('strongroom_bench_ledger', async (url) => {
    const db = await openPostgres(url, clientCount);
    try {
      await migrate(db);
      const accountIds = await openFundedAccounts(db);
      const figures: Figures[] = [];

      const direct = await timedCallers(clientCount, phaseSeconds, async () => okCount(await createTransfers(db, [randomPayment(accountIds)])));
      figures.push(
        summarize(
          '(b) 1 transfer per request, 32 callers, one transaction each (for comparison)',
          direct.count,
          direct.elapsedSeconds,
          direct.latenciesMs,
          'request',
        ),
      );

      const batcher = createTransferBatcher(db, { concurrency: 4 });
      const coalesced = await timedCallers(clientCount, phaseSeconds, async () => okCount([await batcher.createTransfer(randomPayment(accountIds))]));
      await batcher.drain();
      figures.push(
        summarize(
          '(b) 1 transfer per request, 32 callers, coalesced by createTransferBatcher',
          coalesced.count,
          coalesced.elapsedSeconds,
          coalesced.latenciesMs,
          'request',
          1,
        ),
      );

      for (const batchSize of [100, 1_000]) {
        const batches = await timedCallers(batchCallerCount, batchPhaseSeconds, async () =>
          okCount(
            await createTransfers(
              db,
              Array.from({ length: batchSize }, () => randomPayment(accountIds)),
            ),
          ),
        );
        figures.push(
          summarize(
            `(c) batches of ${batchSize.toLocaleString('en-US')}, ${batchCallerCount} callers`,
            batches.count,
            batches.elapsedSeconds,
            batches.latenciesMs,
            'batch',
            15,
          ),
        );
      }

      const check = await checkLedger(db);
      if (!check.ok) throw new Error(`the ledger is inconsistent after the benchmark: ${JSON.stringify(check.violations)}`);
      return figures;
    } finally {
      await db.close();
    }
  });
}

function serverSettings(): Promise<string> {
  return (async () => {
    const admin = await openPostgres(serverUrl ?? '', 1);
    try {
      const rows = await admin.query<{ name: string; setting: string }>(
        `SELECT name, setting FROM pg_settings WHERE name IN ('server_version', 'synchronous_commit', 'fsync', 'shared_buffers', 'max_connections') ORDER BY name`,
      );
      return rows.map((row) => `${row.name}=${row.setting}`).join(', ');
    } finally {
      await admin.close();
    }
  })();
}

const machine = `${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, Node ${process.version}`;
const loadAtStart = os.loadavg()[0]?.toFixed(1) ?? '?';
console.log(`machine: ${machine}`);
const settings = await serverSettings();
console.log(`server:  ${settings}`);
console.log(`running (a) pgbench for ${phaseSeconds}s ...`);
const pgbench = await runPgbench();
console.log(`running (b) and (c) through the ledger ...`);
const ledgerFigures = await runLedgerPhases();

const rows = [pgbench, ...ledgerFigures].map((figures) => {
  const ratio = figures.transfersPerSecond / pgbench.transfersPerSecond;
  const target = figures.target;
  const verdict = target === undefined ? '' : ratio >= target ? `met (>= ${target}x)` : `MISSED (< ${target}x)`;
  return `| ${figures.name} | ${Math.round(figures.transfersPerSecond).toLocaleString('en-US')} | ${figures.p50Ms.toFixed(2)} | ${figures.p99Ms.toFixed(2)} | ${figures.latencyOf} | ${ratio.toFixed(2)}x | ${verdict} |`;
});
const table = [
  '| workload | transfers/s (pgbench: tps) | p50 ms | p99 ms | latency of one | vs (a) | target |',
  '|---|---:|---:|---:|---|---:|---|',
  ...rows,
].join('\n');
console.log(`\n${table}\n`);

const section = `
## ${new Date().toISOString()} ledger

- machine: ${machine}; 1-minute load average ${loadAtStart} at the start, ${os.loadavg()[0]?.toFixed(1) ?? '?'} at the end (the machine is shared)
- server: ${settings} (same server for every row)
- phases: ${phaseSeconds} s each for (a) and (b), ${batchPhaseSeconds} s for each (c); ${customerAccountCount.toLocaleString('en-US')} funded customer accounts, random pairs

${table}
`;
if (!existsSync(resultsPath)) writeFileSync(resultsPath, '# Benchmark results\n\nAppended by the benchmark scripts; newest last.\n');
appendFileSync(resultsPath, section);
console.log(`appended to ${resultsPath}`);
