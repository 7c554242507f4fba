import type { LoanDetailResponse } from '@strongroom/contracts/loans.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Queryable } from '../../db/database.ts';
import { systemClock, type Clock } from '../../db/clock.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { recordAudit } from '../../platform/audit.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { AppError } from '../../platform/errors.ts';
import { claimIdempotencyKey, lookupIdempotencyKey, requestHash, storeIdempotentResponse } from '../../platform/idempotency.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { moveMoney } from '../payments/service.ts';
import { presentLoanDetail } from './presenter.ts';
import { acceptOffer, declineOffer, deleteUnpaidInstalments, findLoan, insertInstalments, listInstalments, lapseOffers, type LoanRow } from './repository.ts';
import { buildSchedule } from './schedule.ts';
import { bankToday, customerLoan, loanCounterpartyName, loanNotificationLink, loanNotFound, loanOfferWindowDays, type LoanDependencies } from './service.ts';

/**
 * A loan offer answered (decision 058): accepted (the payout moves in the same transaction, through
 * payments' moveMoney, decision 065), declined, or lapsed past the bank's window.
 */

/** Why an offer cannot be answered, by the loan's status (after the lapse of one past its window). */
function refuseAnswer(row: LoanRow): AppError {
  if (row.status === 'expired') return new AppError('offer_expired', 'This loan offer has expired. You can apply again.');
  if (row.status === 'active' || row.status === 'declined') return new AppError('already_decided', 'You have already answered this loan offer.');
  return new AppError('loan_not_offered', 'This loan is not an offer waiting for your answer.');
}

/**
 * `POST /loans/{id}/accept` (Idempotency-Key): the customer takes the offer. In one transaction the
 * loan (locked) becomes `active`, its schedule is dated from today and the answer is stored under the
 * key; the money then moves by the one disbursal (`disburse`, a transfer id derived from the loan, so
 * a repeat, a second accept at the same moment or a crash in between pays once). An offer past its
 * window lapses here and answers 409 `offer_expired`.
 */
export async function acceptLoanOffer(
  dependencies: LoanDependencies,
  actor: CustomerActor,
  loanId: string,
  idempotencyKey: string,
): Promise<{ status: number; body: unknown }> {
  const { db } = dependencies;
  const loan = await customerLoan(db, actor.customerId, loanId);
  const hash = requestHash(`loan-accept:${loan.id}`, {});
  const earlier = await lookupIdempotencyKey(db, actor.customerId, idempotencyKey, hash);
  if (earlier.state === 'answered') return earlier.response;
  if (earlier.state === 'unanswered') throw new AppError('conflict', 'This acceptance is already being processed. Check your loan before trying again.');
  await lapseOffers(db, { loanId: loan.id });

  // The acceptance and the money it pays out commit together (decision 065): no crash leaves one without the other.
  const accepted = await retryOnWriteConflict(() =>
    db.transaction(async (tx) => {
      const row = await findLoan(tx, loan.id, { lock: true });
      if (!row) throw loanNotFound();
      // The same key sent twice at once: the second waited for the lock and answers what the first did.
      const replay = await lookupIdempotencyKey(tx, actor.customerId, idempotencyKey, hash);
      if (replay.state === 'answered') return { response: replay.response, row: undefined };
      if (row.status !== 'offered') throw refuseAnswer(row);
      if (row.amount_cents === null || row.apr_bps === null || row.term_months === null) throw new Error(`loan ${row.id} is an offer without terms`);
      const disbursementId = disbursementIdOf(row.id);
      if (!(await claimIdempotencyKey(tx, actor.customerId, idempotencyKey, hash, disbursementId))) return undefined;
      const disbursedOn = bankToday(dependencies.config.bankTimeZone, (dependencies.clock ?? systemClock).now());
      if (!(await acceptOffer(tx, row.id, { disbursementTransferId: disbursementId, disbursedOn }))) {
        // Its window closed between the lapse above and this moment: nothing was claimed for good.
        throw new AppError('offer_expired', 'This loan offer has expired. You can apply again.');
      }
      await deleteUnpaidInstalments(tx, row.id);
      await insertInstalments(tx, row.id, buildSchedule({ principalCents: row.amount_cents, aprBps: row.apr_bps, termMonths: row.term_months, disbursedOn }));
      const after = await findLoan(tx, row.id);
      if (!after) throw new Error(`loan ${row.id} vanished`);
      const response = { status: 200, body: presentLoanDetail(after, await listInstalments(tx, row.id)) };
      await storeIdempotentResponse(tx, disbursementId, response);
      await recordAudit(
        tx,
        auditEntryOf(actor, {
          action: 'loan.offer_accepted',
          subject: row.id,
          outcome: 'success',
          details: { amountCents: row.amount_cents.toString() },
        }),
      );
      await disburse(tx, after, dependencies.clock);
      return { response, row: after };
    }),
  );
  if (!accepted) {
    const again = await lookupIdempotencyKey(db, actor.customerId, idempotencyKey, hash);
    if (again.state === 'answered') return again.response;
    throw new AppError('conflict', 'This acceptance is already being processed. Check your loan before trying again.');
  }
  if (accepted.row) {
    dependencies.liveEvents.publish(accepted.row.customer_id, 'accounts');
    dependencies.liveEvents.publish(accepted.row.customer_id, 'notifications');
  }
  return accepted.response;
}

/** `POST /loans/{id}/decline`: the customer turns the offer down (`declined`); nothing moves. */
export async function declineLoanOffer(dependencies: LoanDependencies, actor: CustomerActor, loanId: string): Promise<LoanDetailResponse> {
  const { db } = dependencies;
  const loan = await customerLoan(db, actor.customerId, loanId);
  await lapseOffers(db, { loanId: loan.id });
  return db.transaction(async (tx) => {
    const row = await findLoan(tx, loan.id, { lock: true });
    if (!row) throw loanNotFound();
    if (row.status !== 'offered' || !(await declineOffer(tx, row.id))) throw refuseAnswer(row);
    await recordAudit(
      tx,
      auditEntryOf(actor, {
        action: 'loan.offer_declined',
        subject: row.id,
        outcome: 'success',
        details: {},
      }),
    );
    const after = await findLoan(tx, row.id);
    if (!after) throw new Error(`loan ${row.id} vanished`);
    return presentLoanDetail(after, await listInstalments(tx, row.id));
  });
}

/** Part of the daily job: offers past their window lapse (reads and accepts lapse them too); the customer is told. */
export async function lapseExpiredOffers(dependencies: LoanDependencies): Promise<number> {
  const lapsed = await dependencies.db.transaction(async (tx) => {
    const rows = await lapseOffers(tx);
    for (const row of rows) {
      await notifyCustomer(tx, {
        customerId: row.customer_id,
        kind: 'loan',
        name: 'Loan offer expired',
        text: `Your loan offer was not accepted within ${loanOfferWindowDays} days and has expired. Nothing was paid. You can apply again.`,
        link: `${loanNotificationLink}/${row.id}`,
      });
    }
    return rows;
  });
  for (const customerId of new Set(lapsed.map((row) => row.customer_id))) dependencies.liveEvents.publish(customerId, 'notifications');
  return lapsed.length;
}

export function disbursementIdOf(loanId: string): string {
  return derivedUuid('loan-disbursement', loanId);
}

/**
 * Pays an accepted loan into checking, inside the acceptance's transaction, with its history line
 * and notice (payments' moveMoney: the transfer id is the loan's, so the money moves once).
 */
async function disburse(tx: Queryable, row: LoanRow, clock: Clock | undefined): Promise<void> {
  if (row.amount_cents === null || row.disbursement_transfer_id === null) throw new Error(`loan ${row.id} has no approved amount`);
  const amountCents = row.amount_cents;
  const transferId = row.disbursement_transfer_id;
  const first = (await listInstalments(tx, row.id))[0];
  const moved = await moveMoney(
    tx,
    {
      id: transferId,
      kind: 'loan_disbursement',
      customerId: row.customer_id,
      fromAccountId: null,
      toAccountId: row.checking_account_id,
      amountCents,
      counterpartyName: loanCounterpartyName,
      message: 'Loan disbursement',
      notifications: [
        {
          customerId: row.customer_id,
          kind: 'loan',
          name: 'Loan paid out',
          text: `Your loan of ${formatMoney(amountCents)} was paid into your checking account.${
            first ? ` Your first instalment of ${formatMoney(first.payment_cents)} is due on ${first.due_date}.` : ''
          }`,
          link: `/loan/${row.id}`,
          paymentId: transferId,
        },
      ],
    },
    clock,
  );
  // Loans receivable has no limit: a refusal is a defect, and the acceptance rolls back with it.
  if (moved.outcome === 'refused') throw new Error(`the ledger refused the disbursement of loan ${row.id}: ${moved.code}`);
}
