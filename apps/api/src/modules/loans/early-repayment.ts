import type { LoanRepaymentRequest } from '@strongroom/contracts/loans.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/database.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { claimIdempotencyKey, lookupIdempotencyKey, requestHash, storeIdempotentResponse } from '../../platform/idempotency.ts';
import { owedCents } from '../accounts/service.ts';
import { moveMoney } from '../payments/service.ts';
import { presentLoanDetail, principalOwedCents } from './presenter.ts';
import { closeWhenNothingOwed } from './repayments.ts';
import {
  deleteUnpaidInstalments,
  findCustomerAccount,
  findLoan,
  insertInstalments,
  insertRepayment,
  leaseLoan,
  listInstalments,
  markInstalmentPaid,
  reduceInstalment,
  releaseLoan,
  type InstalmentRow,
  type LoanAccountRow,
  type LoanRow,
} from './repository.ts';
import { addMonths, amortise, levelPaymentCents } from './schedule.ts';
import { customerLoan, loanCounterpartyName, type LoanDependencies } from './service.ts';

export function payoffMessage(owedCents: bigint): string {
  return `This is more than the loan still owes. The payoff amount is ${formatMoney(owedCents)}: pay that amount or less.`;
}

/**
 * `POST /loans/{id}/repayments` (Idempotency-Key): an early repayment from one of the customer's own
 * accounts. It all goes to principal (no fee, and no interest beyond the schedule's: interest is
 * charged only by instalments, on the balance at each). The instalments still to pay are then
 * re-amortised at the same level payment from the new balance, so the schedule gets shorter (the
 * last instalment takes the remainder); paying everything owed closes the loan (`paid_off`).
 * More than is owed is refused (422, the message states the payoff amount). While an instalment is
 * late the amount pays the late amount first (docs/decisions/058): each late instalment, oldest
 * first, its interest then its principal, as the daily job would have; what is left of a late
 * instalment stays late and the job collects it; only what is left after every late instalment is
 * paid goes to principal early.
 */
export async function repayEarly(
  dependencies: LoanDependencies,
  actor: CustomerActor,
  loanId: string,
  body: LoanRepaymentRequest,
  idempotencyKey: string,
): Promise<EarlyRepaymentResult> {
  const { db } = dependencies;
  const loan = await customerLoan(db, actor.customerId, loanId);
  const hash = requestHash(`loan-repayments:${loan.id}`, body);
  const earlier = await lookupIdempotencyKey(db, actor.customerId, idempotencyKey, hash);
  if (earlier.state === 'answered') return { outcome: 'answered', ...earlier.response };
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
  planRepayment(await listInstalments(db, loan.id), amountCents);
  // The daily job and this repayment never move this loan's money at once (the lease), so the
  // amount checked against what is owed is still right when the schedule is re-amortised.
  if (!(await leaseLoan(db, loan.id))) throw new AppError('conflict', 'A payment of this loan is being processed. Try again in a moment.');
  try {
    const plan = planRepayment(await listInstalments(db, loan.id), amountCents);
    return await moveEarlyRepayment(dependencies, actor, loan, account, amountCents, plan, { idempotencyKey, hash });
  } finally {
    await releaseLoan(db, loan.id);
  }
}

/** The part of a late instalment a repayment pays. */
interface LatePart {
  number: number;
  principalCents: bigint;
  interestCents: bigint;
  /** True when this pays what was left of the instalment. */
  whole: boolean;
}

interface RepaymentPlan {
  late: LatePart[];
  /** Principal paid early, after every late instalment. */
  earlyCents: bigint;
}

/** Splits a repayment: the late instalments first (interest, then principal), the rest to principal; refuses more than is owed. */
export function planRepayment(instalments: readonly InstalmentRow[], amountCents: bigint): RepaymentPlan {
  const late = instalments.filter((line) => line.status === 'late');
  const lateOwedCents = late.reduce((sum, line) => sum + line.payment_cents, 0n);
  const payoffCents = lateOwedCents + principalOwedCents(instalments.filter((line) => line.status !== 'late'));
  if (amountCents > payoffCents) throw new AppError('loan_repayment_too_large', payoffMessage(payoffCents));
  const parts: LatePart[] = [];
  let left = amountCents;
  for (const line of late) {
    if (left === 0n) break;
    const paid = left < line.payment_cents ? left : line.payment_cents;
    const interestCents = paid < line.interest_cents ? paid : line.interest_cents;
    parts.push({ number: line.number, interestCents, principalCents: paid - interestCents, whole: paid === line.payment_cents });
    left -= paid;
  }
  return { late: parts, earlyCents: left };
}

/** The answer of an early repayment: the HTTP answer stored for its Idempotency-Key, or a refusal the route words. */
export type EarlyRepaymentResult = { outcome: 'answered'; status: number; body: unknown } | { outcome: 'refused'; code: EarlyRepaymentRefusal };

export type EarlyRepaymentRefusal = 'insufficient_funds';

/** What a refusal answers in HTTP (422), for the route and for the replay of its Idempotency-Key. */
export function earlyRepaymentRefusalAnswer(code: EarlyRepaymentRefusal): { status: 422; body: { error: { code: EarlyRepaymentRefusal; message: string } } } {
  return { status: 422, body: { error: { code, message: 'Insufficient funds: the amount is more than the available balance of this account.' } } };
}

async function moveEarlyRepayment(
  dependencies: LoanDependencies,
  actor: CustomerActor,
  loan: LoanRow,
  account: LoanAccountRow,
  amountCents: bigint,
  plan: RepaymentPlan,
  key: { idempotencyKey: string; hash: Buffer },
): Promise<EarlyRepaymentResult> {
  const { db } = dependencies;
  const { idempotencyKey, hash } = key;
  const repaymentId = randomUUID();
  // The interest of the late instalments is booked to interest income by a transfer linked to the
  // repayment (both or neither), as the daily job books an instalment's.
  const lateInterestCents = plan.late.reduce((sum, part) => sum + part.interestCents, 0n);
  const interestTransferId = lateInterestCents > 0n ? derivedUuid('loan-late-interest', repaymentId) : null;

  // The key's claim, the money, the history line, the loan's new schedule, the answer to replay and
  // the audit entry commit together, or none of them (payments' moveMoney, decision 065).
  const answer = await retryOnWriteConflict(() =>
    db.transaction(async (tx): Promise<EarlyRepaymentResult | undefined> => {
      if (!(await claimIdempotencyKey(tx, actor.customerId, idempotencyKey, hash, repaymentId))) return undefined;
      const current = await findLoan(tx, loan.id, { lock: true });
      if (!current || current.amount_cents === null || current.apr_bps === null || current.term_months === null || current.disbursed_on === null) {
        throw new Error(`loan ${loan.id} lost its terms`);
      }
      const moved = await moveMoney(
        tx,
        {
          id: repaymentId,
          kind: 'loan_repayment',
          customerId: loan.customer_id,
          fromAccountId: account.id,
          toAccountId: null,
          amountCents,
          counterpartyName: loanCounterpartyName,
          message:
            plan.late.length === 0
              ? 'Loan early repayment'
              : `Loan repayment - late instalment ${plan.late.map((part) => part.number).join(', ')}${plan.earlyCents > 0n ? ' and early repayment' : ''}`,
          legs: interestTransferId ? [{ id: interestTransferId, kind: 'loan_interest', amountCents: lateInterestCents }] : [],
        },
        dependencies.clock,
      );
      if (moved.outcome === 'refused') {
        await storeIdempotentResponse(tx, repaymentId, earlyRepaymentRefusalAnswer(moved.code));
        return { outcome: 'refused', code: moved.code };
      }
      await bookRepaymentParts(tx, current, plan, repaymentId, interestTransferId);
      await closeWhenNothingOwed(tx, current);
      const after = await findLoan(tx, loan.id);
      if (!after) throw new Error(`loan ${loan.id} vanished`);
      const response = { status: 201, body: { ...presentLoanDetail(after, await listInstalments(tx, loan.id)), transferId: repaymentId } };
      await storeIdempotentResponse(tx, repaymentId, response);
      await recordAudit(
        tx,
        auditEntryOf(actor, {
          action: 'loan.repaid_early',
          subject: loan.id,
          outcome: 'success',
          details: {
            amountCents: amountCents.toString(),
            transferId: repaymentId,
            lateInstalments: plan.late.map((part) => part.number).join(','),
            earlyCents: plan.earlyCents.toString(),
          },
        }),
      );
      return { outcome: 'answered', ...response };
    }),
  );
  if (!answer) {
    const again = await lookupIdempotencyKey(db, actor.customerId, idempotencyKey, hash);
    if (again.state === 'answered') return { outcome: 'answered', ...again.response };
    throw new AppError('conflict', 'This repayment is already being processed. Check your loan before trying again.');
  }
  if (answer.outcome === 'answered') {
    dependencies.liveEvents.publish(loan.customer_id, 'accounts');
    dependencies.liveEvents.publish(loan.customer_id, 'notifications');
  }
  return answer;
}

/**
 * Books what a repayment paid, inside its transaction: each late instalment (whole, or reduced by a
 * part), then any principal paid early, which re-amortises the rest at the same level payment.
 */
async function bookRepaymentParts(tx: Queryable, loan: LoanRow, plan: RepaymentPlan, repaymentId: string, interestTransferId: string | null): Promise<void> {
  for (const part of plan.late) {
    await insertRepayment(tx, {
      id: derivedUuid('loan-late-part', repaymentId, String(part.number)),
      loanId: loan.id,
      kind: 'instalment',
      instalmentNumber: part.number,
      principalCents: part.principalCents,
      interestCents: part.interestCents,
      interestTransferId: part.interestCents > 0n ? interestTransferId : null,
    });
    if (part.whole) await markInstalmentPaid(tx, loan.id, part.number, repaymentId);
    else await reduceInstalment(tx, loan.id, part.number, part);
  }
  if (plan.earlyCents > 0n) {
    await insertRepayment(tx, {
      id: plan.late.length === 0 ? repaymentId : derivedUuid('loan-early-part', repaymentId),
      loanId: loan.id,
      kind: 'early',
      instalmentNumber: null,
      principalCents: plan.earlyCents,
      interestCents: 0n,
      interestTransferId: null,
    });
  }
  if (plan.earlyCents > 0n) await reamortise(tx, loan, plan.earlyCents);
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
