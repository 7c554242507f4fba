import { formatMoney } from '@strongroom/contracts/money.ts';
import { sqlInstant, systemClock } from '../../db/clock.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { recordAudit } from '../../platform/audit.ts';
import { bankDate } from '../../platform/bank-date.ts';
import type { JobRunner } from '../../platform/jobs/job-runner.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { recordLetter } from './letters.ts';
import { prepareReversal, reverseProvisionalCredit } from './money.ts';
import { findDispute, lockDispute } from './repository.ts';
import { disputedTransactionOf, letterFactsOf } from './staff-presenter.ts';
import { creditCase, type StaffDisputeDependencies } from './staff-service.ts';
import { creditsDue, findStaffDispute, insertStaffEvent, markReversed, reversalsDue } from './staff-repository.ts';

/**
 * The disputes' own work on Regulation E's clock (issue 34; docs/disputes.md), each step in a
 * transaction of its own under the case's row lock, its money under an id derived from the case
 * (money.ts), so two runs at once, or a run after a crash, do each step once:
 * - the provisional credit the rule requires by the 10th business day (20th for a new account),
 *   given automatically to a case with neither credit nor decision on that day or later;
 * - a denied case's credit taken back on its reversal date (5 business days' notice), never sooner.
 */
export const disputesJobKind = 'disputes.run';
/** Every five minutes, so a deadline is met on its day whenever the server runs; end of day runs it too (beforeDay). */
export const disputesIntervalMs = 5 * 60 * 1_000;
/** The cases one run takes of each kind, at most; the next run takes the rest. */
export const disputesPerRun = 200;
export const automaticCreditReason = 'Regulation E: provisional credit by the 10th business day';

export interface DisputeRunResult {
  credited: number;
  reversed: number;
}

/** Every step due on `day` (the bank's date) or before. */
export async function runDisputes(dependencies: StaffDisputeDependencies, day: string): Promise<DisputeRunResult> {
  let credited = 0;
  for (const id of await creditsDue(dependencies.db, day, disputesPerRun)) if (await creditIfDue(dependencies, id, day)) credited += 1;
  let reversed = 0;
  for (const id of await reversalsDue(dependencies.db, day, disputesPerRun)) if (await reverseIfDue(dependencies, id, day)) reversed += 1;
  return { credited, reversed };
}

async function creditIfDue(dependencies: StaffDisputeDependencies, id: string, day: string): Promise<boolean> {
  const done = await retryOnWriteConflict(() =>
    dependencies.db.transaction(async (tx) => {
      const locked = await lockDispute(tx, id);
      // Credited, decided or withdrawn meanwhile (by staff, or by another run): nothing to do.
      if (!locked || locked.provisional_credit_payment_id !== null || locked.decision !== null) return null;
      if ((locked.status !== 'submitted' && locked.status !== 'investigating') || locked.provisional_credit_by > day) return null;
      await creditCase(dependencies, tx, locked, { system: true }, automaticCreditReason);
      return locked.customer_id;
    }),
  );
  return publish(dependencies, done);
}

async function reverseIfDue(dependencies: StaffDisputeDependencies, id: string, day: string): Promise<boolean> {
  const { db, config } = dependencies;
  const before = await findDispute(db, id);
  const creditRow = before ? await findStaffDispute(db, id) : undefined;
  if (!before || !creditRow?.provisional_credit_cents) return false;
  const creditCents = creditRow.provisional_credit_cents;
  await prepareReversal(db, before, creditCents);
  const done = await retryOnWriteConflict(() =>
    db.transaction(async (tx) => {
      const locked = await lockDispute(tx, id);
      if (!locked || locked.decision !== 'denied' || locked.reversal_payment_id !== null || locked.reversal_on === null || locked.reversal_on > day)
        return null;
      const now = sqlInstant(dependencies.clock);
      const { paymentId, owedCents } = await reverseProvisionalCredit(tx, locked, creditCents, dependencies.clock, { bankName: config.bankName });
      await markReversed(tx, locked.id, paymentId, now);
      const amount = formatMoney(creditCents);
      const owedWords =
        owedCents > 0n
          ? ` Your account did not have it all, so it is ${formatMoney(-owedCents)}: payments out of it wait until you pay in ${formatMoney(owedCents)}; money that comes in pays this first.`
          : '';
      await insertStaffEvent(
        tx,
        {
          disputeId: locked.id,
          kind: 'reversed',
          text: `We took back the provisional credit of ${amount}.${owedWords}`,
          staffReason: null,
          staffId: null,
          visible: true,
        },
        now,
      );
      const row = await findStaffDispute(tx, locked.id);
      if (!row) throw new Error(`dispute ${locked.id} disappeared`);
      await recordLetter(tx, {
        disputeId: locked.id,
        customerId: locked.customer_id,
        kind: 'reversal_notice',
        facts: letterFactsOf(row, config, day, {
          provisionalCreditCents: creditCents.toString(),
          decision: 'denied',
          ...(locked.reversal_on ? { reversalOn: locked.reversal_on } : {}),
        }),
      });
      await notifyCustomer(tx, {
        customerId: locked.customer_id,
        kind: 'dispute',
        name: 'Provisional credit reversed',
        text: `As we told you, we took back the provisional credit of ${amount} on your dispute of ${disputedTransactionOf(row)}.${owedWords}`,
        link: `/disputes/${locked.id}`,
        paymentId,
      });
      await recordAudit(tx, {
        actorType: 'system',
        action: 'dispute.reversed',
        subject: locked.id,
        outcome: 'success',
        details: { paymentId, amountCents: creditCents.toString(), owedCents: owedCents.toString(), reversalOn: locked.reversal_on },
      });
      return locked.customer_id;
    }),
  );
  return publish(dependencies, done);
}

/** The customer's pages hear of a step done (after its commit); answers whether one was. */
function publish(dependencies: StaffDisputeDependencies, customerId: string | null): boolean {
  if (customerId === null) return false;
  dependencies.liveEvents?.publish(customerId, 'notifications');
  dependencies.liveEvents?.publish(customerId, 'accounts');
  return true;
}

/** The recurring run: every step due through the bank's today. */
export function registerDisputeJobs(jobs: JobRunner, dependencies: StaffDisputeDependencies): void {
  jobs.register(disputesJobKind, async () => {
    await runDisputes(dependencies, await bankDate(dependencies.db, dependencies.config, dependencies.clock ?? systemClock));
  });
  jobs.every(disputesJobKind, disputesIntervalMs);
}

/** What end of day runs first in each business day: `first` (the scheduled payments', app.ts), then the disputes' steps due that day. */
export function disputesBeforeDay(dependencies: StaffDisputeDependencies, first?: (day: string) => Promise<void>): (day: string) => Promise<void> {
  return async (day) => {
    await first?.(day);
    await runDisputes(dependencies, day);
  };
}
