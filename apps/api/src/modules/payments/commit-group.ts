import { createCommitQueue } from '../../db/commit-queue.ts';
import { systemClock } from '../../db/clock.ts';
import type { Queryable } from '../../db/database.ts';
import { ledgers } from '../../ledger/codes.ts';
import type { CreateTransferOutcome } from '../../ledger/result-codes.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { transferFlags, type TransferInput } from '../../ledger/types.ts';
import type { AuditEntry } from '../../platform/audit.ts';
import { claimIdempotencyKey } from '../../platform/idempotency.ts';
import { consumeStepUp } from '../step-up/service.ts';
import { claimPaymentAnswers, IdempotencyKeyTaken, type PaymentResult } from './answers.ts';
import type { PaymentDependencies } from './dependencies.ts';
import { refuseDepositOverLimit } from './deposit-limits.ts';
import { recordDecidedPayments, recordPaymentOutcomes } from './outcome.ts';
import { repayOwedIn } from '../money/service.ts';
import type { PaymentExecution, PaymentPlan } from './plan.ts';
import { insertPayment, type PaymentRow } from './repository.ts';
import { lockCustomers } from './party-repository.ts';
import { reviewReasonFor, reviewReasonsFor } from './review-rules.ts';

/**
 * Concurrent payments share one transaction and one commit (decision 044). A payment's claim of
 * its Idempotency-Key, its row, its ledger transfer, its outcome, its notifications, its stored
 * answer and its audit entry are written together or not at all, so nothing is ever half-done;
 * and the requests that arrive while earlier groups are in flight go together in the next group,
 * so N payments cost one WAL flush, as the ledger's batcher does for transfers (docs/ledger.md).
 * There is no timer: under light load each payment is its own group, without added latency.
 *
 * A group changes nothing a payment can observe: its payments are applied one after the other in
 * one transaction, each under its customer's row lock and seeing the ones before it (the review
 * rules count them), exactly as if each had been its own transaction in that order. When a group
 * fails for any reason (a deposit over its limit, a deadlock that outlived its retries, the
 * database going away), it is rolled back whole and each of its payments runs again alone, so
 * each gets its own answer: its own error, or its success. A group whose COMMIT was lost is also
 * safe to run again: the claims it may have committed answer the replays (`raced`).
 */
export interface PaymentToCommit {
  customerId: string;
  endpoint: string;
  paymentId: string;
  idempotencyKey: string;
  requestHash: Buffer;
  stepUpChallengeId: string | undefined;
  plan: PaymentPlan;
  execution: PaymentExecution;
  /** Who asked, for the audit entry; its outcome is the payment's. */
  audit: Omit<AuditEntry, 'outcome'>;
}

export type CommittedPayment =
  /** The step-up named was not this request's, or was used or expired: nothing was written. */
  | { kind: 'step_up' }
  /** Another request holds this Idempotency-Key: nothing was written; its answer is the one to give. */
  | { kind: 'raced' }
  | { kind: 'finished'; result: PaymentResult; row: PaymentRow };

export interface PaymentCommitter {
  commit(payment: PaymentToCommit): Promise<CommittedPayment>;
}

/** Most payments in one group; a group holds its customers' row locks until it commits. */
const maxGroupSize = 128;
/** Most groups in flight at once; each holds one database connection. */
const groupConcurrency = 4;

type GroupDependencies = Pick<PaymentDependencies, 'db' | 'ledger' | 'config' | 'stages' | 'clock'>;

interface Queued {
  payment: PaymentToCommit;
  /** performance.now() when it was queued, for the stage timings. */
  queuedAt: number;
  resolve(committed: CommittedPayment): void;
  reject(error: unknown): void;
}

/** One committer per ledger batcher, that is one per app (its database and clock). */
const committers = new WeakMap<object, PaymentCommitter>();

export function paymentCommitterOf(dependencies: GroupDependencies): PaymentCommitter {
  let committer = committers.get(dependencies.ledger);
  if (!committer) {
    committer = createPaymentCommitter(dependencies);
    committers.set(dependencies.ledger, committer);
  }
  return committer;
}

export function createPaymentCommitter(dependencies: GroupDependencies): PaymentCommitter {
  const { stages } = dependencies;
  const queue = createCommitQueue<Queued>({
    maxWeight: maxGroupSize,
    concurrency: groupConcurrency,
    // A payment whose plan rechecks a rule in the transaction (what a credit card owes) is a group
    // of its own: the rule reads the ledger, and the transfers of a group are written after all of
    // its payments are claimed, so a second payment of the same group would not see the first's.
    weigh: (queued) => (queued.payment.plan.recheck ? maxGroupSize : 1),
    async run(group) {
      const started = performance.now();
      for (const queued of group) stages?.observe('queued', (started - queued.queuedAt) / 1_000);
      await runGroup(group);
      const seconds = (performance.now() - started) / 1_000;
      // Once for each of its payments, so that the stage's mean is per payment, like the others'.
      group.forEach(() => stages?.observe('group', seconds));
    },
  });

  /** `claimFirst`: each key claimed before its money moves, as a payment rerun alone is (writeGroup). */
  async function runGroup(group: Queued[], claimFirst = false): Promise<void> {
    try {
      const committed = await commitGroup(
        dependencies,
        group.map((queued) => queued.payment),
        claimFirst,
      );
      group.forEach((queued, index) => {
        const answer = committed[index];
        if (answer) queued.resolve(answer);
        else queued.reject(new Error(`payment ${queued.payment.paymentId} got no answer from its group`));
      });
    } catch (error) {
      if (group.length === 1 && (claimFirst || !(error instanceof IdempotencyKeyTaken))) {
        group[0]?.reject(error);
        return;
      }
      // Nothing of the group was committed (or, if its COMMIT was lost, its claims answer the
      // replays): each payment runs again alone, its key claimed first, and gets its own answer.
      await Promise.all(group.map((queued) => runGroup([queued], true)));
    }
  }

  return {
    commit(payment) {
      return new Promise((resolve, reject) => queue.push({ payment, queuedAt: performance.now(), resolve, reject }));
    },
  };
}

/** One transaction for the whole group, run again from the start on a write conflict (a deadlock). */
function commitGroup(dependencies: GroupDependencies, payments: readonly PaymentToCommit[], claimFirst: boolean): Promise<CommittedPayment[]> {
  return retryOnWriteConflict(() => dependencies.db.transaction((tx) => writeGroup(tx, dependencies, payments, claimFirst)));
}

async function writeGroup(
  tx: Queryable,
  dependencies: GroupDependencies,
  payments: readonly PaymentToCommit[],
  claimFirst: boolean,
): Promise<CommittedPayment[]> {
  const answers: CommittedPayment[] = new Array<CommittedPayment>(payments.length);
  // A key sent twice in one group is the earlier request's: the later one is answered as raced,
  // and replies with what the earlier one answers once it has committed.
  const seenKeys = new Set<string>();
  const entries = payments.flatMap((payment, index) => {
    const seen = `${payment.customerId}\u0000${payment.idempotencyKey}`;
    if (seenKeys.has(seen)) {
      answers[index] = { kind: 'raced' };
      return [];
    }
    seenKeys.add(seen);
    return [{ payment, index }];
  });
  const alone = entries.filter(({ payment }) => claimFirst || claimsAlone(payment));
  const together = entries.filter(({ payment }) => !claimFirst && !claimsAlone(payment));
  // The customers whose payments the 24-hour rules look at (review, deposit limits) are locked
  // first, in ascending id order, so that those rules see every earlier payment of theirs, even one
  // sent a millisecond before in another group or process. The lock lets foreign keys through
  // (lockCustomers), so the rows the group inserts that name a customer never wait for another
  // group's lock, and a payment between one's own accounts takes no customer lock at all: its
  // accounts' rows, locked by the ledger in id order, are what orders it.
  await lockCustomers(
    tx,
    entries.filter(({ payment }) => claimsAlone(payment) || payment.plan.reviewable).map(({ payment }) => payment.customerId),
  );
  const claimed: Array<{ payment: PaymentToCommit; index: number; row: PaymentRow }> = [];
  // A payment with a step-up or under deposit limits is claimed alone, in the order they came in:
  // its key first, then its row as 'creating'. The others are claimed together, in a few
  // statements however many: own transfers, and payments to other people, whose review rules are
  // decided for all of them at once, each seeing the ones before it (reviewReasonsFor). Their rows
  // are written once, after their transfers, with the status the ledger's answer decides
  // (recordDecidedPayments), and their keys once, with their answers, by the group's last
  // statement; if another request holds one of those keys, the group is rolled back and each
  // payment runs again alone (runGroup).
  for (const { payment, index } of alone) {
    const claim = await claimPayment(tx, dependencies, payment);
    if (claim.kind === 'claimed') claimed.push({ payment, index, row: claim.row });
    else answers[index] = claim;
  }
  const reviewed = together.filter(({ payment }) => payment.plan.reviewable);
  const reasons = await reviewReasonsFor(
    tx,
    dependencies.config.reviewRules,
    reviewed.map(({ payment }) => ({
      customerId: payment.customerId,
      amountCents: payment.plan.payment.amountCents,
      payeeKey: payment.plan.payment.payeeKey ?? null,
    })),
    (dependencies.clock ?? systemClock).now(),
  );
  const reasonOf = new Map(reviewed.map(({ payment }, position) => [payment.paymentId, reasons[position] ?? null]));
  // Each payment claimed together with the row it will be written as.
  const fresh = together.map((entry) => ({
    ...entry,
    row: { ...entry.payment.plan.payment, id: entry.payment.paymentId, reviewRule: reasonOf.get(entry.payment.paymentId) ?? null },
  }));

  const outcomes = await dependencies.ledger.createInTransaction(tx, [
    ...claimed.map(({ payment, row }) => transferOf(row, payment.execution)),
    ...fresh.map(({ payment, row }) => transferOf({ id: row.id, amount_cents: row.amountCents, review_rule: row.reviewRule }, payment.execution)),
  ]);
  const outcomeAt = (position: number): CreateTransferOutcome => {
    const outcome = outcomes[position];
    if (!outcome) throw new Error(`transfer ${position} of a group got no ledger outcome`);
    return outcome;
  };
  const finishedAlone = await recordPaymentOutcomes(
    tx,
    dependencies.config,
    claimed.map(({ payment, row }, position) => ({ row, execution: payment.execution, outcome: outcomeAt(position) })),
    dependencies.clock,
  );
  const finishedTogether = await recordDecidedPayments(
    tx,
    dependencies.config,
    fresh.map(({ payment, row }, position) => ({
      payment: row,
      key: { customerId: payment.customerId, key: payment.idempotencyKey, hash: payment.requestHash },
      execution: payment.execution,
      outcome: outcomeAt(claimed.length + position),
    })),
    dependencies.clock,
  );
  const finished = [...finishedAlone, ...finishedTogether.map(({ result, row }) => ({ result, row }))];
  // Money that arrived in an account owing the bank pays that first, in this transaction (issue 30
  // item 6): the ledger holds the credited accounts' row locks until the commit.
  const owing = [
    ...claimed.map(({ payment, row }, position) => ({ payment, held: row.review_rule !== null, outcome: outcomeAt(position) })),
    ...fresh.map(({ payment, row }, position) => ({ payment, held: row.reviewRule !== null, outcome: outcomeAt(claimed.length + position) })),
  ].flatMap(({ payment, held, outcome }) => {
    const owedLedgerAccountId = payment.plan.ledgerAccounts.toOwedLedgerAccountId;
    const posted = outcome.result === 'ok' && !held && !payment.execution.viaRail;
    return posted && owedLedgerAccountId ? [{ depositLedgerAccountId: payment.execution.creditLedgerAccountId, owedLedgerAccountId }] : [];
  });
  if (owing.length > 0) await repayOwedIn(tx, owing, (inTx, transfers) => dependencies.ledger.createInTransaction(inTx, transfers));
  const all = [...claimed.map(({ payment, index }) => ({ payment, index })), ...together];
  const audits: AuditEntry[] = [];
  all.forEach(({ payment, index }, position) => {
    const done = finished[position];
    if (!done) throw new Error(`payment ${payment.paymentId} got no outcome`);
    answers[index] = { kind: 'finished', ...done };
    audits.push({ ...payment.audit, outcome: done.result.outcome === 'made' ? 'success' : 'failure' });
  });
  // Last, right before the commit, in one statement: the keys of the payments claimed together,
  // each with its answer, then the audit entries, which hold the audit chain's lock until the
  // commit (decision 088).
  await claimPaymentAnswers(
    tx,
    finishedTogether.map(({ claim }) => claim),
    audits,
  );
  return answers;
}

/** What must be claimed alone (see writeGroup): a step-up is used, a deposit limit or a plan's recheck checked, one payment at a time. */
function claimsAlone(payment: PaymentToCommit): boolean {
  return payment.plan.needsStepUp || payment.plan.payment.kind === 'deposit' || payment.plan.recheck !== undefined;
}

/**
 * Claims the key, uses the step-up, applies the review rules (D1) under the customer's row lock
 * (taken by writeGroup),
 * and records the payment as 'creating' (it leaves that state in this same transaction).
 */
async function claimPayment(
  tx: Queryable,
  dependencies: GroupDependencies,
  payment: PaymentToCommit,
): Promise<{ kind: 'claimed'; row: PaymentRow } | { kind: 'step_up' } | { kind: 'raced' }> {
  const { plan, customerId } = payment;
  if (plan.needsStepUp && !(await consumeStepUp(tx, customerId, payment.stepUpChallengeId ?? '', payment.idempotencyKey, payment.requestHash))) {
    return { kind: 'step_up' };
  }
  if (plan.payment.kind === 'deposit') await refuseDepositOverLimit(tx, dependencies.config, customerId, plan.payment.amountCents);
  await plan.recheck?.(tx);
  if (!(await claimIdempotencyKey(tx, customerId, payment.idempotencyKey, payment.requestHash, payment.paymentId))) return { kind: 'raced' };
  const reviewRule = plan.reviewable
    ? await reviewReasonFor(
        tx,
        dependencies.config.reviewRules,
        { customerId, amountCents: plan.payment.amountCents, payeeKey: plan.payment.payeeKey ?? null },
        (dependencies.clock ?? systemClock).now(),
      )
    : null;
  const row = await insertPayment(tx, { ...plan.payment, id: payment.paymentId, reviewRule });
  return { kind: 'claimed', row };
}

/**
 * The payment's transfer. A payment held for review is a pending transfer whatever its kind
 * (kinds.ts), so that staff can post or void it.
 */
export function transferOf(row: Pick<PaymentRow, 'id' | 'amount_cents' | 'review_rule'>, execution: PaymentExecution): TransferInput {
  const pending = execution.viaRail || row.review_rule !== null;
  return {
    id: row.id,
    debitAccountId: execution.debitLedgerAccountId,
    creditAccountId: execution.creditLedgerAccountId,
    amountCents: row.amount_cents,
    ledger: ledgers.usd,
    code: execution.code,
    flags: pending ? transferFlags.pending : 0,
    timeoutSeconds: execution.timeoutSeconds,
  };
}
