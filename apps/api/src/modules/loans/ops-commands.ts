import { createLiveEvents } from '../../platform/live-events.ts';
import { OpsUsageError, ok, type OpsCommand } from '../../platform/ops-command.ts';
import { runLoanRepayments } from './repayments.ts';
import { bankToday } from './service.ts';

/** `npm run ops -- loan-repayments [--as-of YYYY-MM-DD]`: the daily job, as if it were that day (default: the bank's today). */
export const loanRepaymentsCommand: OpsCommand = {
  name: 'loan-repayments',
  summary: 'Take every loan instalment due on or before a day from checking (late without the money); lapse loan offers past their window',
  usage: 'loan-repayments [--as-of YYYY-MM-DD]',
  async run({ database, config, liveEvents }, args) {
    let asOf = bankToday(config.bankTimeZone);
    if (args.length > 0) {
      if (args.length !== 2 || args[0] !== '--as-of') throw new OpsUsageError('loan-repayments takes only --as-of YYYY-MM-DD');
      const text = args[1] ?? '';
      const [year = 0, month = 0, day = 0] = text.split('-').map(Number);
      const date = new Date(Date.UTC(year, month - 1, day));
      if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
        throw new OpsUsageError(`not a date: ${text}`);
      }
      asOf = text;
    }
    const db = await database();
    return ok(await runLoanRepayments({ db, liveEvents: liveEvents ?? createLiveEvents(db), config }, asOf));
  },
};
