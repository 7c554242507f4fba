import { checkLedger } from '../../ledger/check-ledger.ts';
import type { OpsCommand } from '../../platform/ops-command.ts';

export const checkLedgerCommand: OpsCommand = {
  name: 'check-ledger',
  summary: "Verify the ledger's four invariants over the whole database",
  usage: 'check-ledger',
  async run({ database }) {
    const db = await database();
    const result = await checkLedger(db);
    const lines = [
      `Ledger check: ${result.ok ? 'OK' : `${result.violations.length} violation(s)`}`,
      `  accounts:  ${result.accounts}`,
      `  transfers: ${result.transfers}`,
      ...result.violations.map((violation) => `  - ${violation.invariant}${violation.subjectId ? ` (${violation.subjectId})` : ''}: ${violation.detail}`),
    ];
    return { exitCode: result.ok ? 0 : 1, output: lines.join('\n') };
  },
};
