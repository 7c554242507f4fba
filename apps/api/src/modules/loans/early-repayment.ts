import type { LoanRepaymentRequest } from '@strongroom/contracts/loans.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/database.ts';
import { ledgers, operatorAccounts, transferCodes } from '../../ledger/codes.ts';
import { createTransfers } from '../../ledger/create-transfers.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { claimIdempotencyKey, lookupIdempotencyKey, requestHash, storeIdempotentResponse } from '../../platform/idempotency.ts';
import { owedCents } from '../accounts/service.ts';
import { presentLoanDetail, principalOwedCents } from './presenter.ts';
import { closeWhenNothingOwed } from './repayments.ts';
import {
  deleteUnpaidInstalments,
  findCustomerAccount,
  findLoan,
  insertInstalments,
  insertLoanPayment,
  insertRepayment,
  leaseLoan,
  listInstalments,
  releaseLoan,
  type LoanAccountRow,
  type LoanRow,
} from './repository.ts';
import { addMonths, amortise, levelPaymentCents } from './schedule.ts';
import { customerLoan, type LoanDependencies, type RequestMeta } from './service.ts';

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
  // An account that owes the bank after a returned deposit pays nothing out (accounts/owed.ts; issue 30 item 6).
  const owed = await owedCents(db, account);
  if (owed > 0n) {
    throw new AppError(
      'account_overdrawn',
      `This account is ${formatMoney(-owed)} after a deposit was returned. Pay in at least ${formatMoney(owed)} before you send money from it.`,
    );
  }
  const amountCents = BigInt(body.amountCents);
  await refuseWhatCannotBeRepaid(db, loan.id, amountCents);
  // The daily job and this repayment never move this loan's money at once (the lease), so the
  // amount checked against what is owed is still right when the schedule is re-amortised.
  if (!(await leaseLoan(db, loan.id))) throw new AppError('conflict', 'A payment of this loan is being processed. Try again in a moment.');
  try {
    await refuseWhatCannotBeRepaid(db, loan.id, amountCents);
    return await moveEarlyRepayment(dependencies, actor, loan, account, amountCents, { idempotencyKey, hash });
  } finally {
    await releaseLoan(db, loan.id);
  }
}

async function refuseWhatCannotBeRepaid(db: Queryable, loanId: string, amountCents: bigint): Promise<void> {
  const instalments = await listInstalments(db, loanId);
  const late = instalments.find((line) => line.status === 'late');
  if (late) {
    throw new AppError(
      'loan_instalment_late',
      `Instalment ${late.number} (${formatMoney(late.payment_cents)}) is late. Add money to your checking account: the late instalment is collected first, then you can repay early.`,
    );
  }
  const owedCents = principalOwedCents(instalments);
  if (amountCents > owedCents) throw new AppError('loan_repayment_too_large', payoffMessage(owedCents));
}

async function moveEarlyRepayment(
  dependencies: LoanDependencies,
  actor: { customerId: string } & RequestMeta,
  loan: LoanRow,
  account: LoanAccountRow,
  amountCents: bigint,
  key: { idempotencyKey: string; hash: Buffer },
): Promise<{ status: number; body: unknown }> {
  const { db } = dependencies;
  const { idempotencyKey, hash } = key;
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
  if (repaidCents > owed) throw new Error(`loan ${loan.id}: a repayment of ${repaidCents} cents above the ${owed} owed passed the checks`);
  const balance = owed - repaidCents;
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
