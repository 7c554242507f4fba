import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Queryable } from '../../db/database.ts';
import { lookupTransfers } from '../../ledger/history.ts';
import { maxLookupSize } from '../../ledger/limits.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import {
  dueInstalments,
  findLoan,
  insertRepayment,
  leaseLoan,
  ledgerAccountOf,
  listInstalments,
  markInstalmentLate,
  markInstalmentPaid,
  markPaidOff,
  releaseLoan,
  type InstalmentRow,
  type LoanRow,
} from './repository.ts';
import { owingAmong } from '../accounts/service.ts';
import { moveMoney } from '../payments/service.ts';
import { lapseExpiredOffers } from './offers.ts';
import { loanCounterpartyName, loanNotificationLink, type LoanDependencies } from './service.ts';

/** Loans the daily job reads at a time. */
const dueBatchSize = 100;
/** Instalments one loan may pay in one run: a run catching up years at most pays a whole term. */
const maxInstalmentsPerLoanPerRun = 84;

export interface RepaymentRunSummary {
  asOf: string;
  paid: number;
  late: number;
  paidOff: number;
  /** Loan offers past their window that lapsed (`expired`) in this run. */
  offersLapsed: number;
}

function instalmentWords(number: number, lastNumber: number): string {
  return `Loan repayment - instalment ${number} of ${lastNumber}`;
}

/**
 * The daily job (docs/product.md section 6), as of a day: every active loan pays each instalment due on
 * or before that day, oldest first, from its checking account. The interest part is booked to the
 * bank's interest income by a transfer linked to the payment (both or neither): loans receivable ->
 * interest income for the interest, then checking -> loans receivable for the whole instalment, so
 * loans receivable falls by the principal. Ids are derived from the loan, the instalment and the
 * day, so a run repeated the same day moves nothing twice; without enough available money the
 * instalment is `late`, the customer is told (at most once a day per instalment), and the next
 * day's run tries again under new ids.
 */
export async function runLoanRepayments(dependencies: LoanDependencies, asOf: string): Promise<RepaymentRunSummary> {
  const summary: RepaymentRunSummary = {
    asOf,
    paid: 0,
    late: 0,
    paidOff: 0,
    offersLapsed: await lapseExpiredOffers(dependencies),
  };
  const done = new Set<string>();
  for (;;) {
    const due = (await dueInstalments(dependencies.db, asOf, dueBatchSize + done.size)).filter((line) => !done.has(line.loan_id));
    if (due.length === 0) break;
    for (const first of due.slice(0, dueBatchSize)) {
      done.add(first.loan_id);
      await collectLoan(dependencies, first.loan_id, asOf, summary);
    }
  }
  return summary;
}

async function collectLoan(dependencies: LoanDependencies, loanId: string, asOf: string, summary: RepaymentRunSummary): Promise<void> {
  const { db } = dependencies;
  for (let attempt = 0; attempt < maxInstalmentsPerLoanPerRun; attempt += 1) {
    // An early repayment of this loan holds the lease: this run leaves the loan to the next one.
    if (!(await leaseLoan(db, loanId))) return;
    let result: 'paid' | 'paid_off' | 'late' | 'nothing_due';
    try {
      result = await collectNextInstalment(dependencies, loanId, asOf);
    } finally {
      await releaseLoan(db, loanId);
    }
    if (result === 'nothing_due') return;
    if (result === 'late') summary.late += 1;
    if (result === 'late') return;
    summary.paid += 1;
    if (result === 'paid_off') summary.paidOff += 1;
  }
}

async function collectNextInstalment(dependencies: LoanDependencies, loanId: string, asOf: string): Promise<'paid' | 'paid_off' | 'late' | 'nothing_due'> {
  const loan = await findLoan(dependencies.db, loanId);
  if (!loan || loan.status !== 'active') return 'nothing_due';
  const instalments = await listInstalments(dependencies.db, loanId);
  const next = instalments.find((line) => line.status !== 'paid');
  if (!next || next.due_date > asOf) return 'nothing_due';
  return collectInstalment(dependencies, loan, next, instalments.at(-1)?.number ?? next.number, asOf);
}

async function collectInstalment(
  dependencies: LoanDependencies,
  loan: LoanRow,
  line: InstalmentRow,
  lastNumber: number,
  asOf: string,
): Promise<'paid' | 'paid_off' | 'late'> {
  const { db } = dependencies;
  // A run before decision 065 whose process died after the ledger took the instalment but before it
  // was booked (that day or an earlier one) left its transfers: they are booked now, never taken
  // again under new ids. Since 065 the transfers commit with the booking, so none is left so.
  const movedOn = line.payment_cents > 0n ? await dayAlreadyTaken(db, loan.id, line, asOf) : undefined;
  const day = movedOn ?? asOf;
  const repaymentId = derivedUuid('loan-instalment', loan.id, String(line.number), day);
  const interestTransferId = line.interest_cents > 0n ? derivedUuid('loan-interest', loan.id, String(line.number), day) : null;
  const checkingLedgerAccountId = await ledgerAccountOf(db, loan.checking_account_id);
  // The ledger's transfers (the repayment and its linked interest leg: both or neither), the history
  // line, the repayment and the instalment paid, or the instalment late and its notice, commit
  // together (payments' moveMoney, decision 065).
  const result = await retryOnWriteConflict(() =>
    db.transaction(async (tx): Promise<'paid' | 'paid_off' | 'late' | 'told_late'> => {
      // While checking owes the bank after a returned deposit, what comes in pays that first
      // (accounts/owed.ts): the instalment waits, late, like one without the money. Read in the
      // transaction that would take the instalment, not before it.
      const owing = movedOn === undefined && (await owingAmong(tx, [checkingLedgerAccountId])).length > 0;
      if (owing) return (await markLate(tx, loan, line, lastNumber, asOf)) ? 'told_late' : 'late';
      const current = await findLoan(tx, loan.id, { lock: true });
      if (!current || current.status !== 'active') return 'paid';
      if (line.payment_cents > 0n) {
        const moved = await moveMoney(
          tx,
          {
            id: repaymentId,
            kind: 'loan_repayment',
            customerId: loan.customer_id,
            fromAccountId: loan.checking_account_id,
            toAccountId: null,
            amountCents: line.payment_cents,
            counterpartyName: loanCounterpartyName,
            message: instalmentWords(line.number, lastNumber),
            legs: interestTransferId ? [{ id: interestTransferId, kind: 'loan_interest', amountCents: line.interest_cents }] : [],
          },
          dependencies.clock,
        );
        // Without the money the instalment is late; the ledger's refusal commits with it, so the same
        // ids answer the same refusal again today (result-codes.ts: id_already_failed).
        if (moved.outcome === 'refused') return (await markLate(tx, loan, line, lastNumber, asOf)) ? 'told_late' : 'late';
        await insertRepayment(tx, {
          id: repaymentId,
          loanId: loan.id,
          kind: 'instalment',
          instalmentNumber: line.number,
          principalCents: line.principal_cents,
          interestCents: line.interest_cents,
          interestTransferId,
        });
      }
      await markInstalmentPaid(tx, loan.id, line.number, repaymentId);
      return (await closeWhenNothingOwed(tx, loan)) ? 'paid_off' : 'paid';
    }),
  );
  if (result === 'told_late') dependencies.liveEvents.publish(loan.customer_id, 'notifications');
  if (result === 'late' || result === 'told_late') return 'late';
  dependencies.liveEvents.publish(loan.customer_id, 'accounts');
  if (result === 'paid_off') dependencies.liveEvents.publish(loan.customer_id, 'notifications');
  return result;
}

/** The instalment is late as of this day; the customer is told once a day per instalment. Answers whether they were told. */
async function markLate(tx: Queryable, loan: LoanRow, line: InstalmentRow, lastNumber: number, asOf: string): Promise<boolean> {
  if (!(await markInstalmentLate(tx, loan.id, line.number, asOf))) return false;
  await notifyCustomer(tx, {
    customerId: loan.customer_id,
    kind: 'loan',
    name: 'Loan instalment late',
    text: `We could not take instalment ${line.number} of ${lastNumber} (${formatMoney(line.payment_cents)}, due ${line.due_date}) from your checking account: not enough money was available. We will try again each day. Please add money to your checking account.`,
    link: `${loanNotificationLink}/${loan.id}`,
  });
  return true;
}

/** Each day from `first` to `last` (YYYY-MM-DD, inclusive). */
function daysBetween(first: string, last: string): string[] {
  const days: string[] = [];
  for (let day = Date.parse(`${first}T00:00:00Z`), end = Date.parse(`${last}T00:00:00Z`); day <= end; day += 86_400_000) {
    days.push(new Date(day).toISOString().slice(0, 10));
  }
  return days;
}

/**
 * The day (since the instalment fell due) under whose derived id the ledger already took this
 * instalment, if any: the ids are derived from the day, so without this a run the next day
 * would take the money a second time.
 */
async function dayAlreadyTaken(db: Queryable, loanId: string, line: InstalmentRow, asOf: string): Promise<string | undefined> {
  const days = daysBetween(line.due_date, asOf);
  for (let start = 0; start < days.length; start += maxLookupSize) {
    const batch = days.slice(start, start + maxLookupSize);
    const ids = batch.map((day) => derivedUuid('loan-instalment', loanId, String(line.number), day));
    const [found] = await lookupTransfers(db, ids);
    if (found) return batch[ids.indexOf(found.id)];
  }
  return undefined;
}

/** Inside the transaction that paid something: the loan closes when no instalment is left unpaid. */
export async function closeWhenNothingOwed(tx: Queryable, loan: LoanRow): Promise<boolean> {
  const remaining = (await listInstalments(tx, loan.id)).filter((line) => line.status !== 'paid');
  if (remaining.length > 0) return false;
  await markPaidOff(tx, loan.id);
  await notifyCustomer(tx, {
    customerId: loan.customer_id,
    kind: 'loan',
    name: 'Loan paid off',
    text: `Your loan of ${formatMoney(loan.amount_cents ?? 0n)} is paid off. Thank you.`,
    link: `${loanNotificationLink}/${loan.id}`,
  });
  return true;
}
