import type { BankCheck } from './bank-checker.ts';
import type { BankCounters } from './bank-workload.ts';

/** One line of the workload's progress, printed while it runs. */
export function progressLine(counters: BankCounters): string {
  return `acknowledged ${counters.acknowledged}, refused ${counters.refused}, unknown ${counters.unknown}, reads ${counters.reads}, 503s ${counters.status503}, API kills ${counters.apiKills}, PostgreSQL crashes ${counters.databaseCrashes}`;
}

/** The workload's closing line: what was acknowledged, refused and unknown, the faults, and the violations found. */
export function summaryLine(counters: BankCounters, check: BankCheck): string {
  return (
    `bank chaos: ${counters.acknowledged} transfers acknowledged, ${counters.refused} refused, ${counters.unknown} unknown (${check.unknownResolved} resolved later), ${counters.notSent} not sent (API down), ` +
    `${counters.retries} retries, ${counters.reads} reads, ${counters.status503} answers 503 (${counters.status503WhileDatabaseDown} while PostgreSQL was down), ` +
    `${counters.status5xxOther} other 5xx, ${counters.hangs} hangs, ${counters.apiKills} API kills, ${counters.databaseCrashes} PostgreSQL crashes, ` +
    `${check.violations.length} violations`
  );
}
