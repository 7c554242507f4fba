import {
  formatAprBps,
  loanMessages,
  loanRules,
  suggestedAprBps,
  type LoanApplicationRequest,
  type LoanDecisionRequest,
  type LoanDetailResponse,
  type StaffLoan,
} from '@strongroom/contracts/loans.ts';
import { noAccountMessage } from '@strongroom/contracts/messages.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { systemClock, type Clock } from '../../db/clock.ts';
import { transferCodes } from '../../ledger/codes.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { recordAudit, type AuditEntry } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { claimIdempotencyKey, lookupIdempotencyKey, requestHash, storeIdempotentResponse } from '../../platform/idempotency.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import { centsToJson } from '../../platform/money.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import { accountsWithBalances } from '../accounts/service.ts';
import { findCustomerById } from '../customers/service.ts';
import { presentLoan, presentLoanDetail, principalOwedCents } from './presenter.ts';
import {
  countLoansWithStatus,
  findCheckingAccount,
  findLoan,
  hasOpenApplication,
  hasOpenOffer,
  insertInstalments,
  insertLoan,
  listCustomerLoans,
  listInstalments,
  lapseOffers,
  nextUnpaidInstalments,
  offerLoan,
  recentIncomeCents,
  rejectLoan,
  staffEmailOf,
  type LoanRow,
} from './repository.ts';
import { buildSchedule, discloseSchedule, divideRoundHalfUp, levelPaymentCents } from './schedule.ts';

export interface LoanDependencies {
  db: Database;
  liveEvents: LiveEvents;
  config: Pick<Config, 'bankTimeZone'>;
  /** Dates the ledger's transfers and the bank's today in tests; production reads the database's and the machine's time (db/clock.ts). */
  clock?: Clock;
}

/** Who a loan's history lines name on the other side. */
export const loanCounterpartyName = 'Strongroom loan';

/** A customer holds few loans; the list is bounded all the same. */
const customerLoanListLimit = 100;
/** The staff view's "recent income" looks this far back. */
export const recentIncomeDays = 90;
export const loanNotificationLink = '/loan';
/**
 * How long a loan offer waits for the customer's answer before it lapses (`expired`): 30 days, as
 * long as the disclosures stay true (docs/decisions/058-loan-offers-before-money.md).
 */
export const loanOfferWindowDays = loanRules.offerWindowDays;
const loanOfferWindowSeconds = loanOfferWindowDays * 24 * 60 * 60;

/**
 * A loan is paid into the customer's checking account. Without one, the refusal says why there is
 * none (usually the identity check is not done yet), in the words the web's screens use (decision 057).
 */
async function noCheckingAccountMessage(db: Queryable, customerId: string): Promise<string> {
  const customer = await findCustomerById(db, customerId);
  return noAccountMessage(customer?.identity_status ?? 'not_submitted');
}

/** Today's date (YYYY-MM-DD) in the bank's time zone. */
export function bankToday(timeZone: string, now: Date = systemClock.now()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

export function loanNotFound(): AppError {
  return new AppError('not_found', 'No such loan');
}

/** The customer's own loan; someone else's, a malformed id and a missing one all answer alike. */
export async function customerLoan(db: Queryable, customerId: string, loanId: string): Promise<LoanRow> {
  const row = isUuid(loanId) ? await findLoan(db, loanId) : undefined;
  if (!row || row.customer_id !== customerId) throw loanNotFound();
  return row;
}

/**
 * `POST /loans` (Idempotency-Key): one open application at a time, paid into the customer's
 * checking account. A replay of the key answers what the first request answered.
 */
export async function applyForLoan(
  dependencies: LoanDependencies,
  actor: CustomerActor,
  body: LoanApplicationRequest,
  idempotencyKey: string,
): Promise<{ status: number; body: unknown }> {
  const { db } = dependencies;
  const hash = requestHash('loans', body);
  const earlier = await lookupIdempotencyKey(db, actor.customerId, idempotencyKey, hash);
  if (earlier.state === 'answered') return earlier.response;
  if (earlier.state === 'unanswered') throw new AppError('conflict', 'This application is already being sent. Check your loans before trying again.');

  const checking = await findCheckingAccount(db, actor.customerId);
  if (!checking) throw new AppError('no_account', await noCheckingAccountMessage(db, actor.customerId));
  if (await hasOpenApplication(db, actor.customerId)) throw new AppError('loan_application_open', loanMessages.applicationOpen);
  await lapseOffers(db, { customerId: actor.customerId });
  if (await hasOpenOffer(db, actor.customerId)) throw new AppError('loan_application_open', loanMessages.offerOpen);

  const loanId = randomUUID();
  const answer = await db.transaction(async (tx) => {
    if (!(await claimIdempotencyKey(tx, actor.customerId, idempotencyKey, hash, loanId))) return undefined;
    const inserted = await insertLoan(tx, {
      id: loanId,
      customerId: actor.customerId,
      maritalStatus: body.maritalStatus,
      occupation: body.occupation,
      address: body.address,
      purpose: body.purpose,
      requestedAmountCents: BigInt(body.amountCents),
      annualIncomeCents: BigInt(body.annualIncomeCents),
      durationMonths: body.durationMonths,
      checkingAccountId: checking.id,
    });
    // The partial unique index is the last word on "one open application": the claim rolls back with it.
    if (!inserted) throw new AppError('loan_application_open', loanMessages.applicationOpen);
    const row = await findLoan(tx, loanId);
    if (!row) throw new Error(`loan ${loanId} vanished`);
    const response = { status: 201, body: { loan: presentLoan(row, { next: undefined, owedCents: null }) } };
    await storeIdempotentResponse(tx, loanId, response);
    await recordAudit(
      tx,
      auditEntryOf(actor, {
        action: 'loan.applied',
        subject: loanId,
        outcome: 'success',
        details: { amountCents: body.amountCents.toString(), durationMonths: body.durationMonths },
      }),
    );
    return response;
  });
  if (answer) return answer;
  const again = await lookupIdempotencyKey(db, actor.customerId, idempotencyKey, hash);
  if (again.state === 'answered') return again.response;
  throw new AppError('conflict', 'This application is already being sent. Check your loans before trying again.');
}

export async function customerLoans(db: Queryable, customerId: string) {
  // An offer past its window lapses whether or not the daily job has run yet.
  await lapseOffers(db, { customerId });
  const rows = await listCustomerLoans(db, customerId, customerLoanListLimit);
  const next = new Map(
    (
      await nextUnpaidInstalments(
        db,
        rows.map((row) => row.id),
      )
    ).map((line) => [line.loan_id, line]),
  );
  const items = [];
  for (const row of rows) {
    const owed = row.status === 'active' ? principalOwedCents(await listInstalments(db, row.id)) : null;
    items.push(presentLoan(row, { next: next.get(row.id), owedCents: owed }));
  }
  return { items };
}

export async function customerLoanDetail(db: Queryable, customerId: string, loanId: string): Promise<LoanDetailResponse> {
  if (isUuid(loanId)) await lapseOffers(db, { customerId, loanId });
  const row = await customerLoan(db, customerId, loanId);
  return presentLoanDetail(row, await listInstalments(db, row.id));
}

/** The dashboard's loan count: loans active or waiting for a decision (docs/decisions/027-loans.md). */
export function loanCountOf(db: Queryable, customerId: string): Promise<number> {
  return countLoansWithStatus(db, customerId, ['submitted', 'offered', 'active']);
}

/** The APR the back office is offered as a starting point: the bank's stated rule (contracts/loans.ts, decision 027). */
export { suggestedAprBps };

/** A monthly payment as a share of the stated monthly income, in basis points, rounded half-up. */
export function debtToIncomeBps(monthlyPaymentCents: bigint, annualIncomeCents: bigint): number {
  return Number(divideRoundHalfUp(monthlyPaymentCents * 12n * 10_000n, annualIncomeCents));
}

export async function presentStaffLoan(db: Database, row: LoanRow): Promise<StaffLoan> {
  const customer = await findCustomerById(db, row.customer_id);
  if (!customer) throw new Error(`loan ${row.id} has no customer`);
  const accounts = await accountsWithBalances(db, row.customer_id, true);
  const instalments = await listInstalments(db, row.id);
  const aprBps = suggestedAprBps(row.requested_amount_cents, row.annual_income_cents);
  const payment = levelPaymentCents(row.requested_amount_cents, aprBps, row.duration_months);
  return {
    loan: presentLoan(row, {
      next: instalments.find((line) => line.status !== 'paid'),
      owedCents: row.status === 'active' ? principalOwedCents(instalments) : null,
    }),
    customerId: row.customer_id,
    customerName: `${customer.first_name} ${customer.last_name}`,
    customerEmail: customer.email,
    accounts: accounts.map((account) => ({ id: account.id, type: account.type, number: account.number, availableCents: centsToJson(account.availableCents) })),
    recentIncomeCents: centsToJson(await recentIncomeCents(db, row.checking_account_id, recentIncomeDays, transferCodes.loanDisbursement)),
    suggestedAprBps: aprBps,
    suggestedMonthlyPaymentCents: centsToJson(payment),
    debtToIncomeBps: debtToIncomeBps(payment, row.annual_income_cents),
    decidedBy: row.decided_by ? await staffEmailOf(db, row.decided_by) : null,
    decidedAt: row.decided_at?.toISOString() ?? null,
  };
}

export type DecisionOutcome = { kind: 'decided'; row: LoanRow } | { kind: 'already_decided' };

/**
 * A staff decision, exactly once. Approval is an offer (docs/decisions/058): it fixes the terms, the
 * schedule and its Truth in Lending disclosure, and the day the offer lapses, in one transaction,
 * and tells the customer; no money moves until the customer accepts (`acceptLoanOffer`).
 */
export async function decideLoan(
  dependencies: LoanDependencies,
  decision: { loanId: string; staffId: string; body: LoanDecisionRequest; audit: Omit<AuditEntry, 'action' | 'subject' | 'outcome' | 'details'> },
): Promise<DecisionOutcome> {
  const { db } = dependencies;
  const { body } = decision;
  const outcome = await db.transaction(async (tx): Promise<DecisionOutcome> => {
    const row = await findLoan(tx, decision.loanId, { lock: true });
    if (!row) throw loanNotFound();
    if (row.status !== 'submitted') return { kind: 'already_decided' };
    if (body.decision === 'reject') {
      await rejectLoan(tx, row.id, { reason: body.reason, staffId: decision.staffId });
      await notifyCustomer(tx, {
        customerId: row.customer_id,
        kind: 'loan',
        name: 'Loan application declined',
        text: `Your application for a loan of ${formatMoney(row.requested_amount_cents)} was not approved: ${body.reason}`,
        link: loanNotificationLink,
      });
      await recordAudit(tx, { ...decision.audit, action: 'loan.rejected', subject: row.id, outcome: 'success', details: { reason: body.reason } });
    } else {
      const amountCents = BigInt(body.amountCents);
      if (amountCents > row.requested_amount_cents) {
        const message = `the amount is at most the ${formatMoney(row.requested_amount_cents)} the customer asked for`;
        throw new AppError('validation_failed', message, { fields: { amountCents: message } });
      }
      // The schedule as it would run if paid out today; acceptance dates it from the day it pays out.
      const schedule = buildSchedule({
        principalCents: amountCents,
        aprBps: body.aprBps,
        termMonths: body.termMonths,
        disbursedOn: bankToday(dependencies.config.bankTimeZone, (dependencies.clock ?? systemClock).now()),
      });
      const disclosure = discloseSchedule(amountCents, schedule);
      if (Math.abs(disclosure.aprBps - body.aprBps) > loanRules.aprToleranceBps) {
        throw new Error(`loan ${row.id}: the disclosed APR ${disclosure.aprBps} is beyond the tolerance of the note rate ${body.aprBps}`);
      }
      await offerLoan(tx, row.id, {
        amountCents,
        aprBps: body.aprBps,
        termMonths: body.termMonths,
        reason: body.reason,
        staffId: decision.staffId,
        windowSeconds: loanOfferWindowSeconds,
        disclosure: {
          amountFinancedCents: disclosure.amountFinancedCents,
          financeChargeCents: disclosure.financeChargeCents,
          aprCentiBps: Math.round(disclosure.aprBps * 100),
          totalOfPaymentsCents: disclosure.totalOfPaymentsCents,
        },
      });
      await insertInstalments(tx, row.id, schedule);
      const first = schedule[0];
      await notifyCustomer(tx, {
        customerId: row.customer_id,
        kind: 'loan',
        name: 'Loan offer',
        text: `Your loan application was approved: we offer ${formatMoney(amountCents)} at ${formatAprBps(body.aprBps)} APR over ${body.termMonths} months${
          first ? `, ${formatMoney(first.paymentCents)} a month` : ''
        }. Read the terms and accept or decline within ${loanOfferWindowDays} days. Nothing is paid until you accept.`,
        link: `${loanNotificationLink}/${row.id}`,
      });
      await recordAudit(tx, {
        ...decision.audit,
        action: 'loan.approved',
        subject: row.id,
        outcome: 'success',
        details: { reason: body.reason, amountCents: amountCents.toString(), aprBps: body.aprBps, termMonths: body.termMonths },
      });
    }
    const decided = await findLoan(tx, row.id);
    if (!decided) throw new Error(`loan ${row.id} vanished`);
    return { kind: 'decided', row: decided };
  });
  if (outcome.kind === 'decided') dependencies.liveEvents.publish(outcome.row.customer_id, 'notifications');
  return outcome;
}
