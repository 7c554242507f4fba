import { describe, expect, it } from 'vitest';
import { findPostgresBinaries } from './support/postgres-cluster.ts';
import { runBankChaos } from './support/bank-workload.ts';

/**
 * Issue 17, item 1 (decision 036): the bank workload through HTTP for about 30 s, 16 clients, while
 * a nemesis SIGKILLs the API twice and crashes PostgreSQL (fsync on) twice. The long run for
 * humans is `npm run chaos -- --minutes 10`.
 */
const binaries = findPostgresBinaries();
if (!binaries) {
  if (process.env.CI === 'true') throw new Error('The bank fault test needs initdb and pg_ctl (PostgreSQL) under CI');
  process.stdout.write('bank-chaos: skipped, no initdb/pg_ctl on PATH or in /usr/lib/postgresql/*/bin\n');
}

describe.skipIf(!binaries)('the bank under faults', () => {
  it('loses nothing and moves nothing twice while the API is killed and PostgreSQL crashes', async () => {
    if (!binaries) return;
    const lines: string[] = [];
    const started = Date.now();
    const log = (line: string) => lines.push(`[${((Date.now() - started) / 1_000).toFixed(1)} s] ${line}`);
    const report = await runBankChaos({ binaries, durationMs: 24_000, faultsEach: 2, log });
    process.stdout.write(`${lines.join('\n')}\n${report.summary}\n`);
    const context = `${report.summary}\n${lines.join('\n')}`;
    expect(report.check.violations, context).toEqual([]);
    expect(report.counters.unexpectedExits, context).toEqual([]);
    expect(report.counters.status5xxOther, context).toBe(0);
    expect(report.counters.hangs, context).toBe(0);
    expect(report.counters.unexpected, context).toEqual({});
    expect(report.counters.status503WhileDatabaseDown, context).toBeGreaterThan(0);
    expect(report.counters.apiKills, context).toBe(2);
    expect(report.counters.databaseCrashes, context).toBe(2);
    expect(report.counters.acknowledged, context).toBeGreaterThan(50);
    expect(report.check.balanceTotalAfter).toBe(report.check.balanceTotalBefore);
    // The API served again after each fault, with no restart after a database crash.
    expect(report.windows.map((window) => window.after)).toHaveLength(4);
    for (const window of report.windows) expect(window.acknowledged, `${window.after}\n${context}`).toBeGreaterThan(0);
    // 97 to 153 s in full runs on a loaded 2-core machine, against the fault suites' 300 s (decision 084).
  }, 480_000);
});
