/**
 * History and statements on one account with a million transfers (issue 7's targets):
 *   - GET /transactions through the history service, `listTransactions`: the first page and later
 *     pages by cursor, p50/p99 of the server-side time, target p99 <= 20 ms;
 *   - a one-year statement of 10,000 transactions: PDF <= 2 s, CSV and OFX <= 0.5 s;
 *   - the memory a statement takes while it streams, for 1,000 and for 10,000 transactions: with
 *     streaming, the peak does not grow with the number of transactions.
 * The million transfers are written by one INSERT ... SELECT generate_series, as the ledger would
 * have written them (a posted transfer and its payment each, counters to match), and checkLedger
 * must pass on them. Appends the figures to bench/RESULTS.md.
 *   - text search without a date range (issue 16, decision 046): a word on every other line, a
 *     text on a handful of old lines, and one on none, target p99 <= 50 ms each, with their plans.
 * Usage: DATABASE_URL=postgres://... npm run bench:history (PostgreSQL), or without DATABASE_URL on
 * PGlite in this process (a data directory under the system's temporary directory).
 * Optional: BENCH_TRANSFERS (default 1000000), BENCH_HISTORY_RUNS (default 300 page reads of each
 * kind), BENCH_HISTORY_STATEMENTS=0 to measure history pages and searches only.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import type { Database, Queryable } from '../../apps/api/src/db/database.ts';
import { migrate } from '../../apps/api/src/db/migrate.ts';
import { openPglite } from '../../apps/api/src/db/pglite.ts';
import { openPostgres } from '../../apps/api/src/db/postgres.ts';
import { checkLedger } from '../../apps/api/src/ledger/check-ledger.ts';
import { ledgers, operatorAccounts, transferCodes } from '../../apps/api/src/ledger/codes.ts';
import { createOnboardedCustomer } from '../../apps/api/src/modules/onboarding/create-onboarded-customer.ts';
import { listTransactions } from '../../apps/api/src/modules/history/service.ts';
import { statementCsv } from '../../apps/api/src/modules/statements/csv.ts';
import { statementOfx } from '../../apps/api/src/modules/statements/ofx.ts';
import { statementPdf } from '../../apps/api/src/modules/statements/pdf.ts';
import { openStatement, type Statement } from '../../apps/api/src/modules/statements/service.ts';
import type { FileStorage } from '../../apps/api/src/platform/storage.ts';

const serverUrl = process.env.DATABASE_URL;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('bench:history measures memory and needs node --expose-gc (npm run bench:history passes it)');
  process.exit(1);
}

const transferCount = Number(process.env.BENCH_TRANSFERS ?? 1_000_000);
const yearTransferCount = 10_000;
const pageRuns = Number(process.env.BENCH_HISTORY_RUNS ?? 300);
const pageSize = 20;
const statementRuns = 5;
const searchRuns = 100;
const withStatements = process.env.BENCH_HISTORY_STATEMENTS !== '0';
const targets = { pageP99Ms: 20, searchP99Ms: 50, pdfMs: 2_000, csvMs: 500, ofxMs: 500 } as const;
/**
 * Searches without a date range. Every even transfer says "Groceries {i}", so "groceries 12345"
 * is on five old lines (123450 to 123458, the even ones; 12345 is odd and says "Pay 12345"), and
 * the last phrase is on none.
 */
const searches = [
  { name: 'a word on every other line', q: 'groceries', lines: pageSize },
  { name: 'a text on five old lines', q: 'groceries 12345', lines: 5 },
  { name: 'a phrase on no line', q: 'no line says this', lines: 0 },
] as const;
const historyStart = '2000-01-01T00:00:00Z';
const bankConfig = { bankName: 'Strongroom Demo Bank', bankTimeZone: 'UTC' };
const resultsPath = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
const dayMs = 86_400_000;

function isoDate(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** The statement year ends yesterday (UTC) and holds the newest 10,000 transfers; the rest come before it. */
const yearTo = isoDate(Date.now() - dayMs);
const yearFrom = isoDate(Date.parse(`${yearTo}T00:00:00Z`) - 364 * dayMs);
/** About a thirty-sixth of a year: roughly 1,000 of the year's transfers. */
const monthFrom = isoDate(Date.parse(`${yearTo}T00:00:00Z`) - 35 * dayMs);

function percentile(sortedMs: readonly number[], fraction: number): number {
  return sortedMs[Math.min(sortedMs.length - 1, Math.floor(fraction * sortedMs.length))] ?? Number.NaN;
}

function summary(samplesMs: number[]): { p50: number; p99: number; max: number } {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? Number.NaN };
}

function memoryStorage(): FileStorage {
  const files = new Map<string, Buffer>();
  return {
    put: async (key, content) => void files.set(key, content),
    get: async (key) => files.get(key) ?? Buffer.alloc(0),
    remove: async (key) => void files.delete(key),
  };
}

/** Remembers the text and parameters of every query, to explain the slowest page's plan. */
function recording(db: Database): { db: Queryable; last: () => { text: string; params: readonly unknown[] }[]; reset: () => void } {
  let seen: { text: string; params: readonly unknown[] }[] = [];
  return {
    db: {
      query: (text, params = [], options) => {
        seen.push({ text, params });
        return db.query(text, params, options);
      },
    },
    last: () => seen,
    reset: () => {
      seen = [];
    },
  };
}

async function loadTransfers(db: Database, customerId: string, accountId: string, ledgerAccountId: string): Promise<void> {
  const olderCount = transferCount - yearTransferCount;
  const olderSeconds = (Date.parse(`${yearFrom}T00:00:00Z`) - Date.parse(historyStart)) / 1_000;
  // Deposits name the account at another bank they were pulled from.
  const [source] = await db.query<{ id: string }>(
    `INSERT INTO funding_sources (id, customer_id, account_name, account_number_encrypted, account_key, last4, route_number, account_type, status, verified_at)
     VALUES (gen_random_uuid(), $1, 'Employer', '\\x00', sha256(gen_random_uuid()::text::bytea), '0055', '011000015', 'checking', 'verified', now()) RETURNING id`,
    [customerId],
  );
  // Odd transfers are money in (100.00 to 109.99), even ones money out (50.00): the balance never goes below zero.
  await db.query(
    `WITH generated AS MATERIALIZED (
       SELECT i, gen_random_uuid() AS id, i % 2 = 1 AS incoming,
         (CASE WHEN i % 2 = 1 THEN 10000 + i % 1000 ELSE 5000 END)::bigint AS amount,
         CASE WHEN i <= $1 THEN $2::timestamptz + (i - 1) * make_interval(secs => $3)
              ELSE $4::timestamptz + (i - $1 - 1) * make_interval(secs => $5) END AS at
       FROM generate_series(1, $6::integer) AS i
     ), inserted_payments AS (
       INSERT INTO payments (id, customer_id, kind, status, from_account_id, to_account_id, amount_cents, counterparty_name, message, rail, created_at, updated_at, funding_source_id)
       SELECT id, $7::uuid, CASE WHEN incoming THEN 'deposit' ELSE 'external' END, 'completed',
         CASE WHEN incoming THEN NULL ELSE $8::uuid END, CASE WHEN incoming THEN $8::uuid END, amount,
         CASE WHEN incoming THEN 'Employer' ELSE 'Corner Shop' END,
         CASE WHEN incoming THEN 'Pay ' ELSE 'Groceries ' END || i, 'ach', at, at,
         CASE WHEN incoming THEN $14::uuid END
       FROM generated
     )
     INSERT INTO ledger_transfers (id, debit_account_id, credit_account_id, amount, ledger, code, flags, created_at)
     SELECT id, CASE WHEN incoming THEN $9::uuid ELSE $10::uuid END, CASE WHEN incoming THEN $10::uuid ELSE $9::uuid END,
       amount, $11::integer, CASE WHEN incoming THEN $12::integer ELSE $13::integer END, 0, at
     FROM generated ORDER BY i`,
    [
      olderCount,
      historyStart,
      olderSeconds / olderCount,
      `${yearFrom}T00:00:00Z`,
      (365 * 86_400) / yearTransferCount,
      transferCount,
      customerId,
      accountId,
      operatorAccounts.settlementAch,
      ledgerAccountId,
      ledgers.usd,
      transferCodes.deposit,
      transferCodes.externalTransfer,
      source?.id,
    ],
  );
  await db.query(
    `WITH sums AS (
       SELECT coalesce(sum(amount) FILTER (WHERE credit_account_id = $1), 0) AS money_in, coalesce(sum(amount) FILTER (WHERE debit_account_id = $1), 0) AS money_out
       FROM ledger_transfers WHERE credit_account_id = $1 OR debit_account_id = $1)
     UPDATE ledger_accounts a SET
       credits_posted = a.credits_posted + CASE WHEN a.id = $1 THEN sums.money_in ELSE sums.money_out END,
       debits_posted = a.debits_posted + CASE WHEN a.id = $1 THEN sums.money_out ELSE sums.money_in END
     FROM sums WHERE a.id IN ($1, $2)`,
    [ledgerAccountId, operatorAccounts.settlementAch],
  );
  await db.query('ANALYZE');
}

interface PageFigures {
  name: string;
  p50: number;
  p99: number;
  max: number;
  runs: number;
  /** p99 target in ms. */
  target?: number;
}

async function measurePages(
  db: Database,
  customerId: string,
): Promise<{ figures: PageFigures[]; slowest: { text: string; params: readonly unknown[]; ms: number } | null; searchPlans: string[] }> {
  const recorder = recording(db);
  let slowest: { text: string; params: readonly unknown[]; ms: number } | null = null;
  const timed = async (query: { limit: number; cursor?: string; q?: string }) => {
    recorder.reset();
    const started = performance.now();
    const page = await listTransactions(recorder.db, customerId, query);
    const ms = performance.now() - started;
    const last = recorder.last().at(-1);
    if (last && (!slowest || ms > slowest.ms)) slowest = { ...last, ms };
    return { page, ms };
  };
  // Warm the connection pool's prepared statements, as a running server's would be.
  for (let run = 0; run < 20; run += 1) await timed({ limit: pageSize });

  const first: number[] = [];
  for (let run = 0; run < pageRuns; run += 1) first.push((await timed({ limit: pageSize })).ms);

  const later: number[] = [];
  let cursor = (await timed({ limit: pageSize })).page.nextCursor;
  const seen = new Set<string>();
  while (later.length < pageRuns && cursor) {
    const { page, ms } = await timed({ limit: pageSize, cursor });
    later.push(ms);
    for (const item of page.items) {
      if (seen.has(item.id)) throw new Error(`page by cursor repeated ${item.id}`);
      seen.add(item.id);
    }
    cursor = page.nextCursor;
  }

  // Text search: SQL's pattern through the trigram index (or down the account, if PostgreSQL finds
  // that cheaper), the contracts' wording in TypeScript on what it lets through (decision 046).
  const searchFigures: PageFigures[] = [];
  const searchPlans: string[] = [];
  for (const search of searches) {
    const samples: number[] = [];
    for (let run = 0; run < searchRuns; run += 1) {
      const { page, ms } = await timed({ limit: pageSize, q: search.q });
      if (page.items.length !== search.lines) throw new Error(`a search for "${search.q}" found ${page.items.length} lines, not ${search.lines}`);
      if (page.nextCursor !== null && search.lines < pageSize) throw new Error(`a search for "${search.q}" left lines for another page`);
      samples.push(ms);
    }
    const last = recorder.last().at(-1);
    if (last) searchPlans.push(`${search.q}:\n${await explain(db, last)}`);
    searchFigures.push({
      name: `search without dates, ${search.name} ("${search.q}")`,
      ...summary(samples),
      runs: samples.length,
      target: targets.searchP99Ms,
    });
  }
  return {
    figures: [
      { name: `first page (${pageSize} lines)`, ...summary(first), runs: first.length, target: targets.pageP99Ms },
      { name: `later pages by cursor (pages 2-${later.length + 1})`, ...summary(later), runs: later.length, target: targets.pageP99Ms },
      ...searchFigures,
    ],
    slowest,
    searchPlans,
  };
}

async function explain(db: Database, query: { text: string; params: readonly unknown[] }): Promise<string> {
  const rows = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${query.text}`, query.params);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

interface StatementRun {
  lines: number;
  bytes: number;
  firstByteMs: number;
  totalMs: number;
  /** The most the heap held after a full collection at a batch boundary, above what it held before. */
  peakLiveHeapDeltaMb: number;
  peakRssDeltaMb: number;
}

const renderers = { pdf: statementPdf, csv: statementCsv, ofx: statementOfx } as const;
type Format = keyof typeof renderers;

/**
 * Opens the statement and streams it into a sink that keeps nothing, sampling RSS all along. With
 * `measureLiveHeap`, it also collects garbage at every batch boundary and reads what the heap still
 * holds: what streaming retains, without the garbage V8 lets pile up in its young generation
 * (16 MiB) before it collects. That run is for memory, not for time.
 */
async function streamStatement(
  db: Database,
  customerId: string,
  accountId: string,
  from: string,
  to: string,
  format: Format,
  measureLiveHeap = false,
): Promise<StatementRun> {
  gc?.();
  const baseline = process.memoryUsage();
  let peakLiveHeap = baseline.heapUsed;
  let peakRss = baseline.rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 5);
  const started = performance.now();
  let firstByteMs = Number.NaN;
  let bytes = 0;
  let lines = 0;
  const statement: Statement = await openStatement(db, bankConfig, customerId, accountId, { from, to });
  const counted: Statement = {
    ...statement,
    batches: (async function* countLines() {
      let next = await statement.batches.next();
      while (!next.done) {
        lines += next.value.length;
        yield next.value;
        if (measureLiveHeap) {
          gc?.();
          peakLiveHeap = Math.max(peakLiveHeap, process.memoryUsage().heapUsed);
        }
        next = await statement.batches.next();
      }
      return next.value;
    })(),
  };
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (bytes === 0) firstByteMs = performance.now() - started;
      bytes += chunk.length;
      done();
    },
  });
  await pipeline(Readable.from(renderers[format](counted), { objectMode: false }), sink);
  const totalMs = performance.now() - started;
  clearInterval(sampler);
  return {
    lines,
    bytes,
    firstByteMs,
    totalMs,
    peakLiveHeapDeltaMb: (peakLiveHeap - baseline.heapUsed) / 2 ** 20,
    peakRssDeltaMb: (peakRss - baseline.rss) / 2 ** 20,
  };
}

async function serverSettings(db: Database): Promise<string> {
  const rows = await db.query<{ name: string; setting: string }>(
    `SELECT name, setting FROM pg_settings WHERE name IN ('server_version', 'shared_buffers', 'work_mem', 'fsync', 'synchronous_commit') ORDER BY name`,
  );
  return rows.map((row) => `${row.name}=${row.setting}`).join(', ');
}

function databaseUrl(name: string): string {
  const url = new URL(serverUrl ?? '');
  url.pathname = `/${name}`;
  return url.toString();
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);
const verdict = (value: number, target: number) => (value <= target ? `met (<= ${target})` : `MISSED (> ${target})`);

const machine = `${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, Node ${process.version}`;
const loadAtStart = os.loadavg()[0]?.toFixed(1) ?? '?';
const name = `strongroom_bench_history_${randomBytes(4).toString('hex')}`;
/** A database of its own on the PostgreSQL server, or a PGlite in this process; `dispose` removes it. */
async function openBenchDatabase(): Promise<{ db: Database; dispose: () => Promise<void> }> {
  if (!serverUrl) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'strongroom-bench-history-'));
    const db = await openPglite({ dataDir });
    return { db, dispose: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const admin = await openPostgres(serverUrl, 1);
  await admin.query(`CREATE DATABASE ${name}`);
  const db = await openPostgres(databaseUrl(name), 4);
  return {
    db,
    dispose: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}
const { db, dispose } = await openBenchDatabase();
try {
  console.log(`machine: ${machine}`);
  const settings = `${db.kind === 'pglite' ? 'PGlite (in this process, data directory on disk): ' : ''}${await serverSettings(db)}`;
  console.log(`server:  ${settings}`);
  await migrate(db);
  const customer = await createOnboardedCustomer(
    { db, storage: memoryStorage(), encryptionKey: randomBytes(32) },
    { email: 'history-bench@example.com', password: 'a long bench password', firstName: 'Bench', lastName: 'Customer' },
  );
  const checking = customer.accounts.find((account) => account.type === 'checking');
  if (!checking) throw new Error('the bench customer has no checking account');

  console.log(
    `loading ${transferCount.toLocaleString('en-US')} transfers (the last ${yearTransferCount.toLocaleString('en-US')} from ${yearFrom} to ${yearTo}) ...`,
  );
  const loadStarted = performance.now();
  await loadTransfers(db, customer.userId, checking.id, checking.ledgerAccountId);
  const loadSeconds = (performance.now() - loadStarted) / 1_000;
  console.log(`loaded in ${fixed(loadSeconds)} s; checking the ledger ...`);
  const check = await checkLedger(db);
  if (!check.ok) throw new Error(`check-ledger failed after the load: ${JSON.stringify(check.violations.slice(0, 5))}`);
  console.log(`check-ledger: ok (${check.transfers.toLocaleString('en-US')} transfers)`);

  console.log(`history pages: ${pageRuns} runs of each ...`);
  const pages = await measurePages(db, customer.userId);
  const pageMissed = pages.figures.some((figures) => figures.target !== undefined && figures.p99 > figures.target);
  const plan = pageMissed && pages.slowest ? await explain(db, pages.slowest) : null;

  console.log(withStatements ? 'statements ...' : 'statements: skipped (BENCH_HISTORY_STATEMENTS=0)');
  const statementRows: string[] = [];
  const formatTargets: Record<Format, number> = { pdf: targets.pdfMs, csv: targets.csvMs, ofx: targets.ofxMs };
  for (const format of withStatements ? (['pdf', 'csv', 'ofx'] as const) : []) {
    const runs: StatementRun[] = [];
    for (let run = 0; run < statementRuns; run += 1) runs.push(await streamStatement(db, customer.userId, checking.id, yearFrom, yearTo, format));
    const times = summary(runs.map((run) => run.totalMs));
    const last = runs.at(-1);
    if (!last) throw new Error('no statement run');
    statementRows.push(
      `| ${format.toUpperCase()}, ${yearFrom} to ${yearTo} | ${last.lines.toLocaleString('en-US')} | ${(last.bytes / 2 ** 10).toFixed(0)} KiB | ${fixed(summary(runs.map((run) => run.firstByteMs)).p50)} | ${fixed(times.p50)} | ${fixed(times.max)} | ${verdict(times.max, formatTargets[format])} |`,
    );
  }

  const memoryRows: string[] = [];
  for (const format of withStatements ? (['pdf', 'csv', 'ofx'] as const) : []) {
    for (const from of [monthFrom, yearFrom]) {
      const runs: StatementRun[] = [];
      for (let run = 0; run < 3; run += 1) runs.push(await streamStatement(db, customer.userId, checking.id, from, yearTo, format, true));
      const peakHeap = Math.max(...runs.map((run) => run.peakLiveHeapDeltaMb));
      const peakRss = Math.max(...runs.map((run) => run.peakRssDeltaMb));
      memoryRows.push(`| ${format.toUpperCase()} | ${runs[0]?.lines.toLocaleString('en-US')} | ${fixed(peakHeap)} | ${fixed(peakRss)} |`);
    }
  }

  // For comparison, no target: the opening balance walks back over everything since the period
  // began, so a year long ago costs what the account did since (docs/decisions/018-statements.md).
  const oldYear = '2012';
  const old = withStatements ? await streamStatement(db, customer.userId, checking.id, `${oldYear}-01-01`, `${oldYear}-12-31`, 'csv') : undefined;
  const oldRow =
    old &&
    `| CSV, ${oldYear}-01-01 to ${oldYear}-12-31 (for comparison: ${Math.round(((Date.now() - Date.parse(`${oldYear}-01-01`)) / (Date.now() - Date.parse(historyStart))) * 100)}% of the history lies after its start) | ${old.lines.toLocaleString('en-US')} | ${(old.bytes / 2 ** 10).toFixed(0)} KiB | ${fixed(old.firstByteMs)} | ${fixed(old.totalMs)} | ${fixed(old.totalMs)} | |`;

  const pageTable = [
    '| history (`listTransactions`, server-side) | runs | p50 ms | p99 ms | max ms | target p99 |',
    '|---|---:|---:|---:|---:|---|',
    ...pages.figures.map(
      (figures) =>
        `| ${figures.name} | ${figures.runs} | ${fixed(figures.p50, 2)} | ${fixed(figures.p99, 2)} | ${fixed(figures.max, 2)} | ${figures.target === undefined ? '' : verdict(figures.p99, figures.target)} |`,
    ),
  ].join('\n');
  const statementTable = withStatements
    ? [
        '| statement (streamed to a sink) | lines | size | first byte ms (p50) | total ms (p50) | total ms (max) | target (every run) |',
        '|---|---:|---:|---:|---:|---:|---|',
        ...statementRows,
        oldRow,
      ].join('\n')
    : 'Statements not measured in this run (BENCH_HISTORY_STATEMENTS=0).';
  const memoryTable = withStatements
    ? [
        '| memory while streaming (3 runs each, the worst) | lines | live heap at batch boundaries, peak above baseline, MiB | RSS, peak above baseline, MiB |',
        '|---|---:|---:|---:|',
        ...memoryRows,
      ].join('\n')
    : '';
  console.log(`\n${pageTable}\n\n${statementTable}\n\n${memoryTable}\n`);
  if (plan) console.log(`plan of the slowest history page (${fixed(pages.slowest?.ms ?? 0)} ms):\n${plan}\n`);
  const searchPlans = pages.searchPlans.join('\n\n');
  console.log(`plans of the searches (EXPLAIN ANALYZE of each one's last query):\n${searchPlans}\n`);

  const section = `
## ${new Date().toISOString()} history and statements (${db.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'})

- machine: ${machine}; 1-minute load average ${loadAtStart} at the start, ${os.loadavg()[0]?.toFixed(1) ?? '?'} at the end (the machine is shared)
- server: ${settings}
- data: one checking account with ${transferCount.toLocaleString('en-US')} posted transfers and their payments (half in, half out), ${historyStart.slice(0, 10)} to ${yearTo}, the newest ${yearTransferCount.toLocaleString('en-US')} in the statement year; loaded in ${fixed(loadSeconds)} s by one INSERT ... SELECT generate_series; check-ledger ok afterwards
- pages: ${pageSize} lines, all accounts of the customer, no filter but the searches' text; statements: ${statementRuns} runs per format, in-process, from openStatement to the last byte in a sink that keeps nothing

${pageTable}

${statementTable}

${memoryTable}

<details><summary>plans of the searches</summary>

\`\`\`
${searchPlans}
\`\`\`
</details>
${plan ? `\nThe history page missed its target; plan of the slowest page (${fixed(pages.slowest?.ms ?? 0)} ms):\n\n\`\`\`\n${plan}\n\`\`\`\n` : ''}`;
  if (transferCount >= 1_000_000) {
    appendFileSync(resultsPath, section);
    console.log(`appended to ${resultsPath}`);
  } else {
    console.log('not recorded in bench/RESULTS.md: BENCH_TRANSFERS is below the million of the target');
  }
} finally {
  await db.close();
  await dispose();
}
