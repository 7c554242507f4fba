import { parseArgs } from 'node:util';
import { OpsUsageError, ok, type OpsCommand } from '../ops/ops-command.ts';
import { decideHeldPayment } from './settlement.ts';

const maxReasonLength = 500;

/** `npm run ops -- review <transferId> release|reject --reason "..."` (PRODUCT.md section 5). */
export const reviewCommand: OpsCommand = {
  name: 'review',
  summary: 'Release or reject a transfer held for review',
  usage: 'review <transferId> release|reject --reason "..."',
  async run({ database, config }, args) {
    const { values, positionals } = parseArgs({ args, options: { reason: { type: 'string' } }, allowPositionals: true, strict: true });
    const [paymentId, action] = positionals;
    if (!paymentId || (action !== 'release' && action !== 'reject') || positionals.length !== 2) throw new OpsUsageError('give a transfer id and release or reject');
    const reason = values.reason?.trim() ?? '';
    if (reason.length === 0 || reason.length > maxReasonLength) throw new OpsUsageError(`--reason is required (at most ${maxReasonLength} characters)`);
    const db = await database();
    const outcome = await decideHeldPayment({ db, config }, { paymentId, action, reason, decidedBy: 'ops-cli' });
    if (outcome === 'not_found') return { exitCode: 1, output: `No transfer ${paymentId}` };
    if (outcome === 'already_decided') return { exitCode: 1, output: `Transfer ${paymentId} is not in review: it was already decided` };
    return ok({ transferId: paymentId, outcome });
  },
};
