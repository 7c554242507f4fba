import { cpus } from 'node:os';
import type { HaFaultResult, HaReport } from './ha-chaos.ts';

/** The failover test's report (issue 36, item 4): a table for people, a JSON summary for tools. */
const seconds = (ms: number | undefined) => (ms === undefined ? '-' : `${(ms / 1_000).toFixed(1)} s`);

/** What failed in a run: a fault's check, a 500, an answer no client expects, the final check. */
export function haFailures(report: HaReport): string[] {
  const { counters, check } = report.bank;
  return [
    ...report.faults.filter((fault) => !fault.skipped && !fault.passed).map((fault) => `${fault.fault}: ${describeFailure(fault)}`),
    ...check.violations.map((violation) => `final check: ${violation}`),
    ...counters.unexpectedExits,
    ...(counters.status5xxOther > 0 ? [`${counters.status5xxOther} answers 5xx other than 503`] : []),
    ...(counters.hangs > 0 ? [`${counters.hangs} requests got no answer in time`] : []),
    ...Object.entries(counters.unexpected).map(([answer, times]) => `${times} unexpected answers ${answer}`),
  ];
}

function describeFailure(fault: HaFaultResult): string {
  const reasons = [...fault.violations];
  if (fault.status5xxOther > 0) reasons.push(`${fault.status5xxOther} answers 5xx other than 503`);
  if (fault.hangs > 0) reasons.push(`${fault.hangs} requests got no answer in time`);
  if (fault.firstAcceptedWriteMs === undefined) reasons.push('no write was accepted after the fault');
  return reasons.join('; ') || 'failed';
}

export function haReportTable(title: string, report: HaReport): string {
  const header = [
    'fault',
    'healed',
    'first write accepted',
    'writes failed',
    '503s',
    '500s',
    'ready 503s',
    'acknowledged',
    'unknown',
    'resolved',
    'leader',
    'checks',
  ];
  const rows = report.faults.map((fault) =>
    fault.skipped
      ? [fault.fault, `skipped: ${fault.skipped}`]
      : [
          fault.fault,
          seconds(fault.healedMs),
          seconds(fault.firstAcceptedWriteMs),
          String(fault.writesFailed),
          String(fault.status503),
          String(fault.status5xxOther),
          String(fault.readyNotReady),
          String(fault.acknowledged),
          String(fault.unknown),
          String(fault.unknownResolved),
          `${fault.leaderBefore ?? '?'} -> ${fault.leaderAfter ?? '?'}`,
          fault.passed ? 'passed' : `FAILED: ${describeFailure(fault).slice(0, 160)}`,
        ],
  );
  const table = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...table.filter((row) => row.length > 2).map((row) => (row[column] ?? '').length)));
  const lines = table.map((row) => (row.length === 2 ? row.join('  ') : row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')));
  const checks = report.faults
    .filter((fault) => !fault.skipped)
    .map((fault) => `  ${fault.fault}: ${fault.description}; ${fault.what ?? ''}; check-ledger "${fault.checkLedger}", check-audit "${fault.checkAudit}"`);
  return [`${title} (replication ${report.synchronous ? 'synchronous, strict' : 'asynchronous'})`, ...lines, ...checks, report.bank.summary].join('\n');
}

/** The machine-readable summary: per run, per fault, the figures of the table. */
export function haJsonSummary(runs: { name: string; report: HaReport }[]): string {
  const summary = {
    date: new Date().toISOString(),
    machine: { cores: cpus().length, cpu: cpus()[0]?.model ?? 'unknown' },
    runs: runs.map(({ name, report }) => ({
      name,
      synchronous: report.synchronous,
      faults: report.faults,
      acknowledged: report.bank.counters.acknowledged,
      unknown: report.bank.counters.unknown,
      unknownResolvedAtTheEnd: report.bank.check.unknownResolved,
      status503: report.bank.counters.status503,
      status5xxOther: report.bank.counters.status5xxOther,
      finalViolations: report.bank.check.violations,
      balanceTotalBefore: report.bank.check.balanceTotalBefore,
      balanceTotalAfter: report.bank.check.balanceTotalAfter,
      serverErrors: report.serverErrors,
      failures: haFailures(report),
    })),
  };
  return JSON.stringify(summary, null, 2);
}
