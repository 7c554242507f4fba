/**
 * The data export (GET /me/export) of a customer with a long history: the time it takes and the
 * memory it needs while it streams, for 2,000 and for 20,000 ledger lines on the checking account.
 * With the zip written as a stream, the peak does not grow with the number of lines.
 * The lines are written by one INSERT ... SELECT generate_series, as the ledger would have written
 * them (a posted transfer and its payment each, counters to match); checkLedger must pass on them.
 * Runs on the embedded database (PGlite, in memory), or on PostgreSQL when DATABASE_URL is set
 * (it then adds two customers to that database). Appends the figures to bench/RESULTS.md.
 * Usage: npm run bench:export        Optional: BENCH_EXPORT_LINES (default "2000,20000").
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '../../apps/api/src/db/database.ts';
import { migrate } from '../../apps/api/src/db/migrate.ts';
import { openPglite } from '../../apps/api/src/db/pglite.ts';
import { openPostgres } from '../../apps/api/src/db/postgres.ts';
import { checkLedger } from '../../apps/api/src/ledger/check-ledger.ts';
import { ledgers, operatorAccounts, transferCodes } from '../../apps/api/src/ledger/codes.ts';
import { buildTestApp } from '../../apps/api/src/test/app.ts';
import { TestBrowser } from '../../apps/api/src/test/client.ts';
import { onboardedCustomer } from '../../apps/api/src/test/customers.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('bench:export measures memory and needs node --expose-gc (npm run bench:export passes it)');
  process.exit(1);
}
const lineCounts = (process.env.BENCH_EXPORT_LINES ?? '2000,20000').split(',').map(Number);
const resultsPath = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
const mib = (bytes: number) => (bytes / 1_048_576).toFixed(1);

async function writeHistory(db: Database, customerId: string, accountId: string, count: number): Promise<void> {
  const [account] = await db.query<{ ledger_account_id: string }>('SELECT ledger_account_id FROM customer_accounts WHERE id = $1', [accountId]);
  const [source] = await db.query<{ id: string }>(
    `INSERT INTO funding_sources (id, customer_id, account_name, account_number_encrypted, account_key, last4, route_number, account_type, status, verified_at)
     VALUES (gen_random_uuid(), $1, 'Employer', '\\x00', sha256(gen_random_uuid()::text::bytea), '0055', '011000015', 'checking', 'verified', now()) RETURNING id`,
    [customerId],
  );
  // Three lines in four are money in (100.00), one in four money out (50.00), an hour apart from 2024 on.
  await db.query(
    `WITH generated AS MATERIALIZED (
       SELECT i, gen_random_uuid() AS id, i % 4 <> 0 AS incoming, (CASE WHEN i % 4 <> 0 THEN 10000 ELSE 5000 END)::bigint AS amount,
              '2024-01-01T00:00:00Z'::timestamptz + i * interval '1 hour' AS at
         FROM generate_series(1, $1::integer) AS i
     ), inserted_payments AS (
       INSERT INTO payments (id, customer_id, kind, status, from_account_id, to_account_id, amount_cents, counterparty_name, message, rail, created_at, updated_at, funding_source_id)
       SELECT id, $2::uuid, CASE WHEN incoming THEN 'deposit' ELSE 'external' END, 'completed',
              CASE WHEN incoming THEN NULL ELSE $3::uuid END, CASE WHEN incoming THEN $3::uuid END, amount,
              CASE WHEN incoming THEN 'Employer' ELSE 'Corner Shop' END, CASE WHEN incoming THEN 'Pay ' ELSE 'Groceries ' END || i, 'ach', at, at,
              CASE WHEN incoming THEN $8::uuid END
         FROM generated
     )
     INSERT INTO ledger_transfers (id, debit_account_id, credit_account_id, amount, ledger, code, flags, created_at)
     SELECT id, CASE WHEN incoming THEN $4::uuid ELSE $5::uuid END, CASE WHEN incoming THEN $5::uuid ELSE $4::uuid END,
            amount, $6::integer, CASE WHEN incoming THEN $7::integer ELSE $9::integer END, 0, at
       FROM generated ORDER BY i`,
    [
      count,
      customerId,
      accountId,
      operatorAccounts.settlementAch,
      account?.ledger_account_id,
      ledgers.usd,
      transferCodes.deposit,
      source?.id,
      transferCodes.externalTransfer,
    ],
  );
  const inCents = BigInt(count - Math.floor(count / 4)) * 10_000n;
  const outCents = BigInt(Math.floor(count / 4)) * 5_000n;
  await db.query('UPDATE ledger_accounts SET credits_posted = credits_posted + $2, debits_posted = debits_posted + $3 WHERE id = $1', [
    account?.ledger_account_id,
    inCents.toString(),
    outCents.toString(),
  ]);
  await db.query('UPDATE ledger_accounts SET debits_posted = debits_posted + $2, credits_posted = credits_posted + $3 WHERE id = $1', [
    operatorAccounts.settlementAch,
    inCents.toString(),
    outCents.toString(),
  ]);
}

const kind = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const db = process.env.DATABASE_URL ? await openPostgres(process.env.DATABASE_URL) : await openPglite({});
await migrate(db);
const { app, config } = await buildTestApp(db, { environment: { RAIL_SPEED: 'instant' } });
const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.BENCH_PORT ?? 3446) });
const rows: string[] = [];
for (const count of lineCounts) {
  const customer = await onboardedCustomer({ db, storage: app.services.storage, encryptionKey: config.secrets.encryptionKey });
  const checking = customer.accounts.find((account) => account.type === 'checking');
  if (!checking) throw new Error('no checking account');
  await writeHistory(db, customer.userId, checking.id, count);
  const browser = await new TestBrowser(app).signInAs(db, customer.userId);

  gc();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 10);
  const started = performance.now();
  // Over a real socket, so the reply streams with its backpressure and the sampler gets its turns.
  const response = await fetch(`${address}/api/v1/me/export`, { headers: { cookie: `session=${browser.cookies.session}` } });
  if (response.status !== 200) throw new Error(`export answered ${response.status}: ${await response.text()}`);
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body ?? []) chunks.push(chunk);
  const elapsedMs = performance.now() - started;
  clearInterval(sampler);
  const zip = Buffer.concat(chunks);
  // Debian's unzip reads the file back: the zip opens in a tool that is not the one that wrote it.
  const directory = mkdtempSync(path.join(os.tmpdir(), 'bench-export-'));
  writeFileSync(path.join(directory, 'export.zip'), zip);
  const csv = execFileSync('unzip', ['-p', path.join(directory, 'export.zip'), `accounts/${checking.number}/transactions.csv`], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  rmSync(directory, { recursive: true, force: true });
  const csvLines = csv.split('\r\n').length - 2;
  if (csvLines !== count) throw new Error(`expected ${count} lines in the CSV, found ${csvLines}`);
  rows.push(
    `| ${kind} | ${count.toLocaleString('en-US')} | ${Math.round(elapsedMs).toLocaleString('en-US')} | ${(zip.length / 1024).toFixed(0)} KiB | ${(csv.length / 1024).toFixed(0)} KiB | ${mib(peakRss - before.rss)} | ${mib(peakHeap - before.heapUsed)} |`,
  );
  console.log(rows.at(-1));
}
const ledger = await checkLedger(db);
if (!ledger.ok) throw new Error(`the ledger does not check: ${JSON.stringify(ledger.violations)}`);
await app.close();

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
appendFileSync(
  resultsPath,
  [
    '',
    `## Data export (npm run bench:export), ${new Date().toISOString().slice(0, 10)}`,
    '',
    `${os.cpus().length} x ${cpu}, ${Math.round(os.totalmem() / 1_073_741_824)} GiB, Node ${process.version}. One GET /me/export over HTTP on 127.0.0.1, the zip`,
    'read back with unzip and its CSV counted; memory sampled every 10 ms against the figure after a full GC just before the',
    'request. The client collects the zip in the same process (its size is in the table).',
    '',
    '| database | ledger lines | time (ms) | zip | transactions CSV | peak RSS delta (MiB) | peak heap delta (MiB) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n'),
);
console.log(`appended to ${resultsPath}`);
