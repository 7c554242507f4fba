import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import { openDatabase } from '../../db/open-database.ts';
import { OpsUsageError, type OpsCommand, type OpsContext, type OpsResult } from '../../platform/ops-command.ts';
import { contactMessagesCommand } from '../contact/ops-commands.ts';
import { createCustomerCommand } from '../onboarding/ops-commands.ts';
import { checkLedgerCommand } from './ledger-commands.ts';
import { checkAuditCommand } from './audit-commands.ts';
import { backupCommand, restoreCommand } from './backup-commands.ts';
import { createStaffCommand } from '../staff/ops-commands.ts';
import { helpCommand, statusCommand } from './platform-commands.ts';
import { loanRepaymentsCommand } from '../loans/ops-commands.ts';
import { closeDayCommandWith, endOfDayCommandWith, type EndOfDayHooksOf } from '../end-of-day/ops-commands.ts';
import { scheduledPaymentsBeforeDay } from '../scheduled-payments/ops-commands.ts';
import { disputesBeforeDayOf } from '../disputes/ops-commands.ts';
import { achFileCommand, achImportReturnsCommand, achPendingCommand } from '../ach/ops-commands.ts';
import { negativeBalancesCommand } from '../accounts/ops-commands.ts';
import { bookReportCommands } from '../books/ops-commands.ts';
import { syncBooksTimeZone } from '../books/service.ts';
import { reconciliationCommands, sandboxStatementAfterDay } from '../reconciliation/ops-commands.ts';
import { connectedAppsCommands } from '../connected-apps/ops-commands.ts';
import { achReturnCommand, achSettleCommand, heldTransfersCommand, reviewCommand } from '../payments/ops-commands.ts';

/**
 * What each business day of end of day runs, from whichever command runs it (end-of-day, close-day):
 * first the scheduled payments due up to that day (issue 33), then the disputes' dates (issue 34);
 * after it, in a sandbox, the settlement bank's statement of the day, imported (issue 35), as app.ts does.
 */
const endOfDayHooks: EndOfDayHooksOf = {
  beforeDayOf: (context, db) => disputesBeforeDayOf(context, db, scheduledPaymentsBeforeDay(context, db)),
  afterDayOf: (context, db) => sandboxStatementAfterDay({ db, config: context.config, ...(context.liveEvents ? { liveEvents: context.liveEvents } : {}) }),
};

/** Every command of the ops CLI. Features add theirs here. */
export const opsCommands: readonly OpsCommand[] = [
  helpCommand(() => opsCommands),
  statusCommand,
  checkLedgerCommand,
  checkAuditCommand,
  backupCommand,
  restoreCommand,
  createCustomerCommand,
  createStaffCommand,
  contactMessagesCommand,
  heldTransfersCommand,
  reviewCommand,
  achPendingCommand,
  achFileCommand,
  achSettleCommand,
  achReturnCommand,
  achImportReturnsCommand,
  negativeBalancesCommand,
  loanRepaymentsCommand,
  endOfDayCommandWith(endOfDayHooks.beforeDayOf, endOfDayHooks.afterDayOf),
  // Issue 35: the bank's books and the reconciliation with its settlement bank.
  ...bookReportCommands,
  closeDayCommandWith(endOfDayHooks),
  ...reconciliationCommands,
  // Issue 38: the authorization server's signing keys.
  ...connectedAppsCommands,
];

export function findOpsCommand(name: string): OpsCommand | undefined {
  return opsCommands.find((command) => command.name === name);
}

/** Runs one command; usage mistakes become exit code 2 with a message, like any CLI. */
export async function runOpsCommand(context: OpsContext, name: string, args: string[]): Promise<OpsResult> {
  const command = findOpsCommand(name);
  if (!command) return { exitCode: 2, output: `Unknown command: ${name}. Run 'npm run ops -- help'.` };
  try {
    return await command.run(context, args);
  } catch (error) {
    if (error instanceof OpsUsageError) return { exitCode: 2, output: `${error.message}\nUsage: npm run ops -- ${command.usage}` };
    throw error;
  }
}

/**
 * Runs one command in this process, as the CLI does when no server owns the embedded database: the
 * database is opened (and migrated) only if the command asks for it, and closed after.
 */
export async function runOpsCommandHere(config: Config, name: string, args: string[]): Promise<OpsResult> {
  let opened: Promise<Database> | undefined;
  const database = () => {
    opened ??= openDatabase(config).then(async (db) => {
      await migrate(db);
      await syncBooksTimeZone(db, config.bankTimeZone);
      return db;
    });
    return opened;
  };
  try {
    return await runOpsCommand({ database, config, workingDirectory: process.cwd() }, name, args);
  } finally {
    if (opened) await (await opened).close();
  }
}
