import { parseArgs } from 'node:util';
import { runBankChaos } from './bank-workload.ts';
import { findPostgresBinaries } from './postgres-cluster.ts';

/**
 * `npm run chaos -- --minutes 10`: the bank workload of faults/bank-chaos.test.ts for longer, for a
 * human to watch (decision 036). Same clients, nemesis and checker; a fault every few seconds.
 * Exits 1 on any violation, 500, hang or crash.
 */
const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    clients: { type: 'string', default: '16' },
    customers: { type: 'string', default: '6' },
  },
});
const minutes = Number(values.minutes);
if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 24 * 60) {
  process.stderr.write('--minutes must be a number of minutes, more than 0\n');
  process.exit(2);
}
const binaries = findPostgresBinaries();
if (!binaries) {
  process.stderr.write('The chaos run needs PostgreSQL (initdb and pg_ctl on PATH or in /usr/lib/postgresql/*/bin).\n');
  process.exit(2);
}

const durationMs = Math.round(minutes * 60_000);
const started = Date.now();
const stamp = () => `[${((Date.now() - started) / 1_000).toFixed(1).padStart(6)} s]`;
// About one fault every 15 s: half API kills, half PostgreSQL crashes.
const faultsEach = Math.max(1, Math.floor(durationMs / 30_000));
const report = await runBankChaos({
  binaries,
  durationMs,
  faultsEach,
  clients: Number(values.clients),
  customers: Number(values.customers),
  log: (line) => process.stdout.write(`${stamp()} ${line}\n`),
});
const { counters, check, windows } = report;
const failures = [
  ...check.violations,
  ...counters.unexpectedExits,
  ...(counters.status5xxOther > 0 ? [`${counters.status5xxOther} answers 5xx other than 503`] : []),
  ...(counters.hangs > 0 ? [`${counters.hangs} requests got no answer in time`] : []),
  ...Object.entries(counters.unexpected).map(([answer, times]) => `${times} unexpected answers ${answer}`),
  ...(counters.status503WhileDatabaseDown === 0 ? ['no 503 was seen while PostgreSQL was down'] : []),
  ...windows.filter((window) => window.acknowledged === 0).map((window) => `nothing was acknowledged after ${window.after}`),
];
for (const failure of failures) process.stdout.write(`FAIL ${failure}\n`);
process.stdout.write(`${stamp()} ${report.summary}\n`);
process.exit(failures.length === 0 ? 0 : 1);
