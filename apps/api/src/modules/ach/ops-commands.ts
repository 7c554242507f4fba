import { formatMoney } from '@strongroom/contracts/money.ts';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { OpsUsageError, ok, type OpsCommand, type OpsContext } from '../../platform/ops-command.ts';
import { NachaFormatError } from './nacha.ts';
import { pendingAchPayments } from './repository.ts';
import { applyAchReturns, buildAchFile } from './service.ts';

const listLimit = 500;
const maxReasonLength = 500;
/** A returns file is a day's returns at most: far below this. */
const maxReturnsFileBytes = 10 * 1024 * 1024;

function requiredReason(reason: string | undefined): string {
  const trimmed = reason?.trim() ?? '';
  if (trimmed.length < 3 || trimmed.length > maxReasonLength) throw new OpsUsageError(`--reason is required (3 to ${maxReasonLength} characters)`);
  return trimmed;
}

function resolvePath(context: OpsContext, file: string): string {
  return path.resolve(context.workingDirectory ?? process.cwd(), file);
}

/** `npm run ops -- ach-pending`: what waits at the ACH rail, oldest first, and whether it went out in a file. */
export const achPendingCommand: OpsCommand = {
  name: 'ach-pending',
  summary: 'List pending ACH payments (deposits are debits), with their trace numbers once sent',
  usage: 'ach-pending',
  async run({ database }, args) {
    if (args.length > 0) throw new OpsUsageError('ach-pending takes no arguments');
    const rows = await pendingAchPayments(await database(), listLimit);
    return ok(
      rows.map((row) => ({
        paymentId: row.id,
        entry: row.kind === 'deposit' ? 'debit' : 'credit',
        kind: row.kind,
        amount: formatMoney(row.amount_cents),
        name: row.name,
        customer: row.customer,
        createdAt: row.created_at.toISOString(),
        expectedAt: row.settle_at?.toISOString() ?? null,
        traceNumber: row.trace_number,
      })),
    );
  },
};

/** `npm run ops -- ach-file --out FILE --reason "..."`: the NACHA file of everything not yet sent. */
export const achFileCommand: OpsCommand = {
  name: 'ach-file',
  summary: 'Write the NACHA file of pending ACH entries not yet sent, and record their trace numbers',
  usage: 'ach-file --out FILE --reason "..."',
  async run(context, args) {
    const { values, positionals } = parseArgs({ args, options: { out: { type: 'string' }, reason: { type: 'string' } }, allowPositionals: true, strict: true });
    if (positionals.length > 0 || !values.out) throw new OpsUsageError('give --out FILE');
    requiredReason(values.reason);
    const target = resolvePath(context, values.out);
    const db = await context.database();
    const file = await buildAchFile({ db, config: context.config, liveEvents: context.liveEvents }, 'ops-cli');
    if (!file) return ok('Nothing waits at the ACH rail: no file written.');
    // Account numbers are in the file: readable by the operator only.
    await writeFile(target, file.text, { mode: 0o600, flag: 'wx' });
    return ok({
      fileId: file.fileId,
      path: target,
      entries: file.entryCount,
      debits: formatMoney(file.debitTotalCents),
      credits: formatMoney(file.creditTotalCents),
    });
  },
};

/** `npm run ops -- ach-import-returns FILE --reason "..."`: applies the rail's returns, each once. */
export const achImportReturnsCommand: OpsCommand = {
  name: 'ach-import-returns',
  summary: 'Apply a NACHA returns file: each returned entry once, whatever how often it is imported',
  usage: 'ach-import-returns FILE --reason "..."',
  async run(context, args) {
    const { values, positionals } = parseArgs({ args, options: { reason: { type: 'string' } }, allowPositionals: true, strict: true });
    const [file] = positionals;
    if (!file || positionals.length !== 1) throw new OpsUsageError('give one returns file');
    const reason = requiredReason(values.reason);
    const source = resolvePath(context, file);
    const text = await readFile(source, 'latin1');
    if (text.length > maxReturnsFileBytes) return { exitCode: 1, output: `${source} is larger than a returns file can be` };
    const db = await context.database();
    try {
      const results = await applyAchReturns({ db, config: context.config, liveEvents: context.liveEvents }, text, {
        actorType: 'staff',
        actorId: 'ops-cli',
        reason,
      });
      const failed = results.filter((item) => item.result === 'unknown_trace' || item.result === 'not_returnable');
      return { exitCode: failed.length > 0 ? 1 : 0, output: JSON.stringify({ returns: results }, null, 2) };
    } catch (error) {
      if (error instanceof NachaFormatError)
        return { exitCode: 1, output: `${source} is not a valid NACHA returns file, nothing was applied: ${error.message}` };
      throw error;
    }
  },
};
