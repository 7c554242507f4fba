/**
 * The books' commands of the ops CLI (the registry lists each module's ops-commands.ts): the reports
 * and check-books. close-day runs end of day, so it lives with end of day (end-of-day/ops-commands.ts).
 */
export { bookReportCommands } from './report-commands.ts';
