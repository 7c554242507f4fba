import { addBusinessDays, addDays, isBusinessDay, previousBusinessDay } from '../../platform/business-calendar.ts';

export { addBusinessDays } from '../../platform/business-calendar.ts';

/**
 * Regulation E's clocks (12 CFR 1005.11; issue 34, docs/disputes.md), as pure functions on the bank's
 * dates (YYYY-MM-DD, the bank's time zone). A business day is a day of the bank's business calendar
 * (platform/business-calendar.ts: Monday to Friday except the Federal Reserve's holidays as it
 * observes them). The day a notice is received is day 0: business days are counted from the first
 * one after it, calendar days from the day after it.
 */

export interface DeadlineFacts {
  /** The bank's date the notice was received (the bank date when POST /disputes is made). */
  receivedOn: string;
  /** The bank date the disputed account was opened. */
  accountOpenedOn: string;
  /** A debit-card purchase at a merchant (card authorisation), not a card push. */
  pointOfSale: boolean;
  /** Initiated outside the US (false when the bank does not know). */
  foreign: boolean;
}

export interface Deadlines {
  /** Opened fewer than 30 calendar days before receivedOn. */
  newAccount: boolean;
  /** The 10th business day after receivedOn (20th for a new account). */
  provisionalCreditBy: string;
  /** receivedOn + 45 calendar days (90 for a new account, point of sale or foreign), moved to the business day before when it is not a business day. */
  resolveBy: string;
}

/** An account is new for 30 calendar days: opened on day D, it is new for notices received on D to D + 29. */
const newAccountDays = 30;
const provisionalCreditBusinessDays = 10;
const newAccountProvisionalCreditBusinessDays = 20;
const resolveDays = 45;
const extendedResolveDays = 90;
const reportWindowDays = 60;
const reversalBusinessDays = 5;

/** The latest business day on or before `day`. */
function onOrBeforeBusinessDay(day: string): string {
  return isBusinessDay(day) ? day : previousBusinessDay(day);
}

export function disputeDeadlines(facts: DeadlineFacts): Deadlines {
  // addDays validates both dates (a RangeError for anything that is not a real YYYY-MM-DD day).
  const newAccount = addDays(facts.accountOpenedOn, newAccountDays) > addDays(facts.receivedOn, 0);
  const provisionalCreditBy = addBusinessDays(facts.receivedOn, newAccount ? newAccountProvisionalCreditBusinessDays : provisionalCreditBusinessDays);
  const extended = newAccount || facts.pointOfSale || facts.foreign;
  const resolveBy = onOrBeforeBusinessDay(addDays(facts.receivedOn, extended ? extendedResolveDays : resolveDays));
  return { newAccount, provisionalCreditBy, resolveBy };
}

/**
 * Regulation E's window: 60 days after the statement that first showed the transaction. Monthly
 * statements close on the month's last day, so: the last day of the transaction's month (bank time)
 * + 60 calendar days. A report on or before it is in time.
 */
export function reportWindowEnd(transactionDate: string): string {
  const [year, month] = addDays(transactionDate, 0).split('-').map(Number) as [number, number];
  const lastOfMonth = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
  return addDays(lastOfMonth, reportWindowDays);
}

/** A denial's reversal: the 5th business day after the decision date (the customer is notified, and overdrafts are honoured until then). */
export function reversalDate(decidedOn: string): string {
  return addBusinessDays(decidedOn, reversalBusinessDays);
}
