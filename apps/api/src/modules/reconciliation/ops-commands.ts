import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { maxStatementChars } from '@strongroom/contracts/books.ts';
import { OpsUsageError, ok, type OpsCommand, type OpsContext } from '../../platform/ops-command.ts';
import { importStatement } from './service.ts';

/** What end of day runs after each business day, from the ops CLI as from the server: the sandbox's statement of the day, imported. */
export { sandboxStatementAfterDay } from './simulator.ts';

/** A statement of at most the contract's characters, in bytes of UTF-8 at most four each. */
const maxStatementBytes = maxStatementChars * 4;

/** What the audit log says of an import from the command line given no --reason. */
const defaultReason = "the settlement bank's statement, imported with the ops command line";

function resolvePath(context: OpsContext, file: string): string {
  return path.resolve(context.workingDirectory ?? process.cwd(), file);
}

/** `npm run ops -- reconcile FILE`: imports the settlement bank's BAI2 statement and prints it with its exceptions (docs/books.md, "Reconciliation"). */
export const reconcileCommand: OpsCommand = {
  name: 'reconcile',
  summary: "Import the settlement bank's BAI2 statement and match it to the ledger; prints the statement and its exceptions",
  usage: 'reconcile FILE [--reason "..."]',
  async run(context, args) {
    const { values, positionals } = parseArgs({ args, options: { reason: { type: 'string' } }, allowPositionals: true, strict: true });
    const [file] = positionals;
    if (!file || positionals.length !== 1) throw new OpsUsageError('give one BAI2 file: reconcile FILE');
    // The contract's command takes no reason: the audit log then says where the import came from.
    const reason = values.reason?.trim() || defaultReason;
    if (reason.length < 3 || reason.length > 500) throw new OpsUsageError('--reason takes 3 to 500 characters');
    const source = resolvePath(context, file);
    if ((await stat(source)).size > maxStatementBytes) return { exitCode: 1, output: `${source} is larger than a statement can be` };
    const content = await readFile(source, 'utf8');
    if (content.length > maxStatementChars) return { exitCode: 1, output: `${source} is larger than a statement can be (2,000,000 characters)` };
    const outcome = await importStatement(
      { db: await context.database(), config: context.config, ...(context.liveEvents ? { liveEvents: context.liveEvents } : {}) },
      { fileName: path.basename(source), content },
      { actorType: 'staff', actorId: 'ops-cli', reason },
    );
    switch (outcome.kind) {
      case 'imported':
        return ok({ statement: outcome.statement, exceptions: outcome.exceptions });
      case 'already_imported':
        return { exitCode: 1, output: `${source} was imported before (statement ${outcome.statementId}): nothing was imported` };
      case 'invalid':
        return { exitCode: 1, output: `${source} was not imported: ${outcome.line === null ? '' : `line ${outcome.line}: `}${outcome.message}` };
    }
  },
};

export const reconciliationCommands: readonly OpsCommand[] = [reconcileCommand];
