import { verifyAuditChain } from '../../platform/audit-chain.ts';
import type { OpsCommand } from '../../platform/ops-command.ts';

/** `npm run ops -- check-audit`: verifies the audit log's hash chain; exit 1 on a break (docs/product.md section 6). */
export const checkAuditCommand: OpsCommand = {
  name: 'check-audit',
  summary: "Verify the audit log's hash chain: every row unchanged and none missing",
  usage: 'check-audit',
  async run({ database }) {
    const result = await verifyAuditChain(await database());
    const lines = [
      `Audit chain: ${result.ok ? 'OK' : `${result.breaks.length} break(s)`}`,
      `  rows checked: ${result.rows}`,
      ...result.breaks.map((item) => `  - row ${item.chainSeq} (audit id ${item.auditId}): ${item.problem}`),
    ];
    return { exitCode: result.ok ? 0 : 1, output: lines.join('\n') };
  },
};
