import { formatMoney } from '@strongroom/contracts/money.ts';
import type { LoanRepaymentRequest } from '@strongroom/contracts/loans.ts';
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/database.ts';
import { ledgers, operatorAccounts, transferCodes } from '../../ledger/codes.ts';
import { createTransfers } from '../../ledger/create-transfers.ts';
import { transferFlags, type TransferInput } from '../../ledger/types.ts';
import { recordAudit } from '../../platform/audit.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { AppError } from '../../platform/errors.ts';
import { claimIdempotencyKey, lookupIdempotencyKey, requestHash, storeIdempotentResponse } from '../../platform/idempotency.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { presentLoanDetail, principalOwedCents } from './presenter.ts';
import {
  deleteUnpaidInstalments,
  dueInstalments,
  findCustomerAccount,
  findLoan,
  insertInstalments,
  insertLoanPayment,
  insertRepayment,
  ledgerAccountOf,
  listInstalments,
  markInstalmentLate,
  markInstalmentPaid,
  markPaidOff,
  type InstalmentRow,
  type LoanRow,
} from './repository.ts';
import { addMonths, amortise, levelPaymentCents } from './schedule.ts';
import { customerLoan, finishDisbursements, loanNotificationLink, type LoanDependencies, type RequestMeta } from './service.ts';

/** Loans the daily job reads at a time. */
const dueBatchSize = 100;
/** Instalments one loan may pay in one run: a run catching up years at most pays a whole term. */
const maxInstalmentsPerLoanPerRun = 84;

export interface RepaymentRunSummary {
  asOf: string;
  paid: number;
  late: number;
  paidOff: number;
  disbursementsFinished: number;
}

function instalmentWords(number: number, lastNumber: number): string {
  return `Loan repayment - instalment ${number} of ${lastNumber}`;
}

/**
 * The daily job (PRODUCT.md section 6), as of a day: every active loan pays each instalment due on
 * or before that day, oldest first, from its checking account. The interest part is booked to the
 * bank's interest income by a transfer linked to the payment (both or neither): loans receivable ->
 * interest income for the interest, then checking -> loans receivable for the whole instalment, so
 * loans receivable falls by the principal. Ids are derived from the loan, the instalment and the
 * day, so a run repeated the same day moves nothing twice; without enough available money the
 * instalment is `late`, the customer is told (at most once a day per instalment), and the next
 * day's run tries again under new ids.
 */
export async function runLoanRepayments(dependencies: LoanDependencies, asOf: string): Promise<RepaymentRunSummary> {
  const summary: RepaymentRunSummary = { asOf, paid: 0, late: 0, paidOff: 0, disbursementsFinished: await finishDisbursements(dependencies) };
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
  for (let attempt = 0; attempt < maxInstalmentsPerLoanPerRun; attempt += 1) {
    const loan = await findLoan(dependencies.db, loanId);
    if (!loan || loan.status !== 'active') return;
    const instalments = await listInstalments(dependencies.db, loanId);
    const next = instalments.find((line) => line.status !== 'paid');
    if (!next || next.due_date > asOf) return;
    const lastNumber = instalments.at(-1)?.number ?? next.number;
    const result = await collectInstalment(dependencies, loan, next, lastNumber, asOf);
    if (result === 'late') summary.late += 1;
    if (result === 'late') return;
    summary.paid += 1;
    if (result === 'paid_off') summary.paidOff += 1;
  }
}

async function collectInstalment(
  dependencies: LoanDependencies,
  loan: LoanRow,
  line: InstalmentRow,
  lastNumber: number,
  asOf: string,
): Promise<'paid' | 'paid_off' | 'late'> {
  const { db } = dependencies;
  const repaymentId = derivedUuid('loan-instalment', loan.id, String(line.number), asOf);
  const interestTransferId = line.interest_cents > 0n ? derivedUuid('loan-interest', loan.id, String(line.number), asOf) : null;
  const checkingLedgerAccountId = await ledgerAccountOf(db, loan.checking_account_id);
  const transfers: TransferInput[] = [];
  if (interestTransferId) {
    transfers.push({
      id: interestTransferId,
      debitAccountId: operatorAccounts.loansReceivable,
      creditAccountId: operatorAccounts.interestIncome,
      amountCents: line.interest_cents,
      ledger: ledgers.usd,
      code: transferCodes.interest,
      flags: transferFlags.linked,
    });
  }
  if (line.payment_cents > 0n) {
    transfers.push({
      id: repaymentId,
      debitAccountId: checkingLedgerAccountId,
      creditAccountId: operatorAccounts.loansReceivable,
      amountCents: line.payment_cents,
      ledger: ledgers.usd,
      code: transferCodes.loanRepayment,
    });
  }
  const outcomes = await createTransfers(db, transfers);
  const refused = outcomes.find((outcome) => outcome.result !== 'ok' && outcome.result !== 'exists');
  if (refused) {
    const shortOfMoney = outcomes.some((outcome) => outcome.result === 'exceeds_credits' || outcome.result === 'id_already_failed');
    if (!shortOfMoney) throw new Error(`the ledger refused instalment ${line.number} of loan ${loan.id}: ${refused.result}`);
    const told = await db.transaction(async (tx) => {
      if (!(await markInstalmentLate(tx, loan.id, line.number, asOf))) return false;
      await notifyCustomer(tx, {
        customerId: loan.customer_id,
        kind: 'loan',
        name: 'Loan instalment late',
        text: `We could not take instalment ${line.number} of ${lastNumber} (${formatMoney(line.payment_cents)}, due ${line.due_date}) from your checking account: not enough money was available. We will try again each day. Please add money to your checking account.`,
        link: `${loanNotificationLink}/${loan.id}`,
      });
      return true;
    });
    if (told) dependencies.liveEvents.publish(loan.customer_id, 'notifications');
    return 'late';
  }

  const paidOff = await db.transaction(async (tx) => {
    const current = await findLoan(tx, loan.id, { lock: true });
    if (!current || current.status !== 'active') return false;
    if (line.payment_cents > 0n) {
      await insertRepayment(tx, {
        id: repaymentId,
        loanId: loan.id,
        kind: 'instalment',
        instalmentNumber: line.number,
        principalCents: line.principal_cents,
        interestCents: line.interest_cents,
        interestTransferId,
      });
      await insertLoanPayment(tx, {
        id: repaymentId,
        customerId: loan.customer_id,
        kind: 'loan_repayment',
        checkingAccountId: loan.checking_account_id,
        amountCents: line.payment_cents,
        message: instalmentWords(line.number, lastNumber),
      });
    }
    await markInstalmentPaid(tx, loan.id, line.number, repaymentId);
    return closeWhenNothingOwed(tx, loan);
  });
  dependencies.liveEvents.publish(loan.customer_id, 'accounts');
  if (paidOff) dependencies.liveEvents.publish(loan.customer_id, 'notifications');
  return paidOff ? 'paid_off' : 'paid';
}

/** Inside the transaction that paid something: the loan closes when no instalment is left unpaid. */
async function closeWhenNothingOwed(tx: Queryable, loan: LoanRow): Promise<boolean> {
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

export function payoffMessage(owedCents: bigint): string {
  return `This is more than the loan still owes. The payoff amount is ${formatMoney(owedCents)}: pay that amount or less.`;
}

/**
 * `POST /loans/{id}/repayments` (Idempotency-Key): an early repayment from one of the customer's own
 * accounts. It all goes to principal (no fee, and no interest beyond the schedule's: interest is
 * charged only by instalments, on the balance at each). The instalments still to pay are then
 * re-amortised at the same level payment from the new balance, so the schedule gets shorter (the
 * last instalment takes the remainder); paying everything owed closes the loan (`paid_off`).
 * More than is owed is refused (422, the message states the payoff amount); while an instalment
 * is late the late one is collected first by the daily job, so an early repayment is refused (409).
 */
export async function repayEarly(
  dependencies: LoanDependencies,
  actor: { customerId: string } & RequestMeta,
  loanId: string,
  body: LoanRepaymentRequest,
  idempotencyKey: string,
): Promise<{ status: number; body: unknown }> {
  const { db } = dependencies;
  const loan = await customerLoan(db, actor.customerId, loanId);
  const hash = requestHash(`loan-repayments:${loan.id}`, body);
  const earlier = await lookupIdempotencyKey(db, actor.customerId, idempotencyKey, hash);
  if (earlier.state === 'answered') return earlier.response;
  if (earlier.state === 'unanswered') throw new AppError('conflict', 'This repayment is already being processed. Check your loan before trying again.');

  if (loan.status !== 'active')
    throw new AppError(
      'conflict',
      loan.status === 'paid_off' ? 'This loan is already paid off.' : 'This loan has not been paid out, so there is nothing to repay.',
    );
  const account = await findCustomerAccount(db, actor.customerId, body.fromAccountId);
  if (!account) throw new AppError('not_found', 'No such account');
  const instalments = await listInstalments(db, loan.id);
  const late = instalments.find((line) => line.status === 'late');
  if (late) {
    throw new AppError(
      'loan_instalment_late',
      `Instalment ${late.number} (${formatMoney(late.payment_cents)}) is late. Add money to your checking account: the late instalment is collected first, then you can repay early.`,
    );
  }
  const amountCents = BigInt(body.amountCents);
  const owedCents = principalOwedCents(instalments);
  if (amountCents > owedCents) throw new AppError('loan_repayment_too_large', payoffMessage(owedCents));

  const repaymentId = randomUUID();
  const claimed = await db.transaction(async (tx) => claimIdempotencyKey(tx, actor.customerId, idempotencyKey, hash, repaymentId));
  if (!claimed) {
    const again = await lookupIdempotencyKey(db, actor.customerId, idempotencyKey, hash);
    if (again.state === 'answered') return again.response;
    throw new AppError('conflict', 'This repayment is already being processed. Check your loan before trying again.');
  }

  const [outcome] = await createTransfers(db, [
    {
      id: repaymentId,
      debitAccountId: account.ledger_account_id,
      creditAccountId: operatorAccounts.loansReceivable,
      amountCents,
      ledger: ledgers.usd,
      code: transferCodes.loanRepayment,
    },
  ]);
  if (!outcome || (outcome.result !== 'ok' && outcome.result !== 'exists')) {
    if (outcome?.result !== 'exceeds_credits') throw new Error(`the ledger refused early repayment ${repaymentId}: ${outcome?.result ?? 'no result'}`);
    const refused = {
      status: 422,
      body: { error: { code: 'insufficient_funds', message: 'Insufficient funds: the amount is more than the available balance of this account.' } },
    };
    await storeIdempotentResponse(db, repaymentId, refused);
    return refused;
  }

  const answer = await db.transaction(async (tx) => {
    const current = await findLoan(tx, loan.id, { lock: true });
    if (!current || current.amount_cents === null || current.apr_bps === null || current.term_months === null || current.disbursed_on === null) {
      throw new Error(`loan ${loan.id} lost its terms`);
    }
    await insertRepayment(tx, {
      id: repaymentId,
      loanId: loan.id,
      kind: 'early',
      instalmentNumber: null,
      principalCents: amountCents,
      interestCents: 0n,
      interestTransferId: null,
    });
    await insertLoanPayment(tx, {
      id: repaymentId,
      customerId: loan.customer_id,
      kind: 'loan_repayment',
      checkingAccountId: account.id,
      amountCents,
      message: 'Loan early repayment',
    });
    await reamortise(tx, current, amountCents);
    await closeWhenNothingOwed(tx, current);
    const after = await findLoan(tx, loan.id);
    if (!after) throw new Error(`loan ${loan.id} vanished`);
    const response = { status: 201, body: { ...presentLoanDetail(after, await listInstalments(tx, loan.id)), transferId: repaymentId } };
    await storeIdempotentResponse(tx, repaymentId, response);
    await recordAudit(tx, {
      actorType: 'customer',
      actorId: actor.customerId,
      action: 'loan.repaid_early',
      subject: loan.id,
      outcome: 'success',
      ip: actor.ip,
      userAgent: actor.userAgent,
      requestId: actor.requestId,
      details: { amountCents: amountCents.toString(), transferId: repaymentId },
    });
    return response;
  });
  dependencies.liveEvents.publish(loan.customer_id, 'accounts');
  dependencies.liveEvents.publish(loan.customer_id, 'notifications');
  return answer;
}

/** Replaces the unpaid instalments by the plan that pays the smaller balance at the same level payment. */
async function reamortise(tx: Queryable, loan: LoanRow, repaidCents: bigint): Promise<void> {
  if (loan.amount_cents === null || loan.apr_bps === null || loan.term_months === null || loan.disbursed_on === null)
    throw new Error(`loan ${loan.id} has no terms`);
  const unpaid = (await listInstalments(tx, loan.id)).filter((line) => line.status !== 'paid');
  const owed = principalOwedCents(unpaid);
  // A repayment racing the daily job may find less owed than when it was checked: the rest stays in loans receivable for staff to refund.
  const balance = owed > repaidCents ? owed - repaidCents : 0n;
  await deleteUnpaidInstalments(tx, loan.id);
  const first = unpaid[0];
  if (balance === 0n || !first) return;
  const disbursedOn = loan.disbursed_on;
  await insertInstalments(
    tx,
    loan.id,
    amortise({
      balanceCents: balance,
      aprBps: loan.apr_bps,
      paymentCents: levelPaymentCents(loan.amount_cents, loan.apr_bps, loan.term_months),
      firstNumber: first.number,
      count: unpaid.length,
      dueDateOf: (number) => addMonths(disbursedOn, number),
    }),
  );
}
