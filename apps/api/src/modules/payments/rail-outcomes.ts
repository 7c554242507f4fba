import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Queryable } from '../../db/database.ts';
import { lookupAccounts } from '../../ledger/accounts.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { recordAudit } from '../../platform/audit.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { accountsOwing, ensureOwedAccount, owedCentsOf, owedRepaymentsOf } from '../accounts/service.ts';
import { failFundingSource } from '../funding-sources/service.ts';
import { publishPaymentChange, type PaymentDependencies } from './dependencies.ts';
import { paymentNotificationLink } from './presenter.ts';
import { describeReturnCode, returnCodeEndsSource, returnReasonFor, simulatedReturnCode } from './rail.ts';
import { claimDuePayments, clearReversalDue, findPayment, markReversalDue, paymentsWithReversalDue, transitionPayment, type PaymentRow } from './repository.ts';
import { bookMovements, repayOwed, resolveHeld } from '../money/service.ts';
import { findAccountById } from './party-repository.ts';
import { derivedTransferId } from './settlement.ts';

/**
 * What the payment rail says about a payment that left or entered the bank: it settled, or the
 * other bank returned it with a NACHA reason code. In the sandbox the simulator decides when its
 * time comes; in production a deposit (an ACH debit the bank pulled) waits for staff, who record
 * what the rail said or import the rail's returns file (modules/ach), never for a timer.
 *
 * Each outcome is claimed (a conditional status change, so only one outcome wins) and applied to
 * the ledger under an id derived from the payment's, with its notification and audit entry, in one
 * transaction (decision 069); `reconcileDecisions` and `finishReversals` finish what a crash left
 * undone before that.
 */
export type RailOutcome = { kind: 'settled' } | { kind: 'returned'; code: string };

export type RailOutcomeResult = 'settled' | 'returned' | 'returned_after_settlement' | 'not_found' | 'already_decided';

type RailDependencies = Pick<PaymentDependencies, 'db' | 'config' | 'liveEvents' | 'clock'>;

export interface RailActor {
  actorType: 'system' | 'staff';
  actorId: string;
  /** Why staff recorded it; the simulator and imported files need none. */
  reason?: string;
}

/** Settles every pending payment whose rail time has come. Safe to run anywhere, any number of times. */
export async function settleDuePayments(dependencies: RailDependencies, limit = 100): Promise<number> {
  const { db } = dependencies;
  // In production an ACH debit is settled by what the rail says, never by the clock.
  const exceptKinds = dependencies.config.mode === 'production' ? (['deposit'] as const) : [];
  const due = await db.transaction((tx) => claimDuePayments(tx, limit, exceptKinds));
  let decided = 0;
  for (const payment of due) {
    const code = simulatedReturnCode(payment);
    const result = await recordRailOutcome(dependencies, payment.id, code ? { kind: 'returned', code } : { kind: 'settled' }, {
      actorType: 'system',
      actorId: 'rail-simulator',
    });
    if (result !== 'already_decided' && result !== 'not_found') decided += 1;
  }
  return decided;
}

/**
 * Records what the rail said about one payment: a pending one settles (posted) or is returned
 * (voided); a deposit that had already cleared and is returned late is taken back, even below
 * zero (`reverseReturnedDeposit`). Anything else was decided before: `already_decided`.
 */
export async function recordRailOutcome(dependencies: RailDependencies, paymentId: string, outcome: RailOutcome, actor: RailActor): Promise<RailOutcomeResult> {
  const { db } = dependencies;
  const existing = await findPayment(db, paymentId);
  if (!existing || existing.status === 'creating' || existing.status === 'failed') return 'not_found';
  if (existing.rail === null) return 'already_decided';
  const lateReturn = outcome.kind === 'returned' && existing.status === 'completed' && existing.kind === 'deposit';
  if (existing.status !== 'pending' && !lateReturn) return 'already_decided';

  // A late return takes the money back from what the account owes: that ledger account exists before the outcome's transaction.
  const reversal = lateReturn ? await prepareReversal(dependencies, existing) : undefined;
  const decided = await retryOnWriteConflict(() =>
    db.transaction(async (tx) => {
      const row =
        outcome.kind === 'settled'
          ? await transitionPayment(tx, paymentId, ['pending'], { status: 'completed' })
          : await transitionPayment(tx, paymentId, [lateReturn ? 'completed' : 'pending'], {
              status: 'returned',
              statusReason: returnReasonFor(existing.kind, outcome.code, lateReturn),
              returnCode: outcome.code,
            });
      if (!row) return undefined;
      if (reversal) {
        await markReversalDue(tx, paymentId);
        await reverseReturnedDepositIn(tx, dependencies, row, reversal);
      } else {
        const action = outcome.kind === 'settled' ? 'post' : 'void';
        const resolved = await resolveHeld(tx, { id: derivedTransferId(paymentId, action), pendingId: paymentId, action }, dependencies.clock);
        if (resolved.outcome === 'refused') throw new Error(`could not ${action} the pending transfer of payment ${paymentId}: ${resolved.code}`);
      }
      if (outcome.kind === 'returned' && row.funding_source_id && returnCodeEndsSource(outcome.code)) await failFundingSource(tx, row.funding_source_id);
      await notifyOutcome(tx, row, outcome, lateReturn);
      // In the outcome's transaction: a crash after it commits must not leave it unaudited for good.
      await recordAudit(tx, {
        actorType: actor.actorType,
        actorId: actor.actorId,
        action: outcome.kind === 'settled' ? 'payment.rail_settled' : 'payment.rail_returned',
        subject: paymentId,
        outcome: 'success',
        details: {
          ...(outcome.kind === 'returned' ? { code: outcome.code, afterSettlement: lateReturn } : {}),
          ...(actor.reason ? { reason: actor.reason } : {}),
        },
      });
      return row;
    }),
  );
  if (!decided) return 'already_decided';
  publishPaymentChange(dependencies, decided, null);
  return outcome.kind === 'settled' ? 'settled' : lateReturn ? 'returned_after_settlement' : 'returned';
}

async function notifyOutcome(tx: Queryable, row: PaymentRow, outcome: RailOutcome, lateReturn: boolean): Promise<void> {
  const amount = formatMoney(row.amount_cents);
  const base = { customerId: row.customer_id, paymentId: row.id, link: paymentNotificationLink };
  if (outcome.kind === 'returned') {
    const name = row.kind === 'deposit' ? 'Deposit returned' : 'Payment returned';
    const what = row.kind === 'deposit' ? `Your deposit of ${amount} from ${row.counterparty_name}` : `Your payment of ${amount} to ${row.counterparty_name}`;
    const why = `${describeReturnCode(outcome.code)} (${outcome.code})`;
    const text = lateReturn
      ? `${what} was returned by the other bank after it had cleared: ${why}. We have taken the ${amount} back from your account; if it was already spent, your balance is below zero until you pay in the difference.`
      : row.kind === 'deposit'
        ? `${what} was returned by the other bank: ${why}. Nothing was added to your account.`
        : `${what} was returned by the receiving bank: ${why}. The money is back in your account.`;
    await notifyCustomer(tx, { ...base, kind: 'returned', name, text });
    return;
  }
  if (row.kind === 'deposit') {
    await notifyCustomer(tx, { ...base, kind: 'money_in', name: 'Deposit cleared', text: `Your deposit of ${amount} has cleared and is available.` });
    return;
  }
  await notifyCustomer(tx, {
    ...base,
    kind: 'money_out',
    name: 'Payment delivered',
    text: `Your payment of ${amount} to ${row.counterparty_name} has been delivered.`,
  });
}

interface Reversal {
  account: NonNullable<Awaited<ReturnType<typeof findAccountById>>>;
  owedLedgerAccountId: string;
}

/** The account a late return takes the money back from, and its ledger account of what it owes (created the first time). */
async function prepareReversal(dependencies: RailDependencies, payment: PaymentRow): Promise<Reversal> {
  if (!payment.to_account_id) throw new Error(`deposit ${payment.id} has no account`);
  const account = await findAccountById(dependencies.db, payment.to_account_id);
  if (!account) throw new Error(`deposit ${payment.id} names a missing account`);
  return { account, owedLedgerAccountId: await ensureOwedAccount(dependencies.db, account) };
}

/**
 * A deposit returned after it cleared: the ledger voids nothing already posted; a reversing
 * transfer takes the money back from what the account owes (accounts/owed.ts), under an id
 * derived from the payment's, and what the account has available pays that at once, in the
 * transaction that records the return. If the money was spent, the account is left below zero and
 * told so.
 */
async function reverseReturnedDepositIn(tx: Queryable, dependencies: RailDependencies, payment: PaymentRow, reversal: Reversal): Promise<void> {
  const { account, owedLedgerAccountId } = reversal;
  const [returned] = await bookMovements(
    tx,
    [{ id: derivedTransferId(payment.id, 'return'), kind: 'deposit_returned', fromLedgerAccountId: owedLedgerAccountId, amountCents: payment.amount_cents }],
    { clock: dependencies.clock },
  );
  if (returned?.outcome === 'refused') throw new Error(`could not reverse returned deposit ${payment.id}: ${returned.code}`);
  const [repayment] = await owedRepaymentsOf(tx, [{ depositLedgerAccountId: account.ledger_account_id, owedLedgerAccountId }]);
  if (repayment) await bookMovements(tx, [{ ...repayment, kind: 'owed_repayment' }], { clock: dependencies.clock });
  const [owed] = await lookupAccounts(tx, [owedLedgerAccountId]);
  const stillOwed = owedCentsOf(owed);
  const cleared = await clearReversalDue(tx, payment.id);
  if (cleared && stillOwed > 0n) {
    await notifyCustomer(tx, {
      customerId: payment.customer_id,
      paymentId: payment.id,
      kind: 'account_overdrawn',
      name: 'Your account is below zero',
      text: `Your ${account.type} account ending ${account.number.slice(-4)} is ${formatMoney(-stillOwed)} because a deposit was returned after it had been spent. Payments out of it are paused until you pay in at least ${formatMoney(stillOwed)}; money that comes in pays this first.`,
      link: '/dashboard',
    });
  }
}

/** A late return's reversal that a crash left unwritten before its outcome and reversal were one transaction (decision 069). */
async function reverseReturnedDeposit(dependencies: RailDependencies, payment: PaymentRow): Promise<void> {
  const reversal = await prepareReversal(dependencies, payment);
  await retryOnWriteConflict(() => dependencies.db.transaction((tx) => reverseReturnedDepositIn(tx, dependencies, payment, reversal)));
}

/** Reversals of late returns that a crash left unwritten, and repayments of what accounts owe. */
export async function finishReversals(dependencies: RailDependencies, limit = 100): Promise<number> {
  const due = await paymentsWithReversalDue(dependencies.db, limit);
  for (const id of due) {
    const payment = await findPayment(dependencies.db, id);
    if (payment) await reverseReturnedDeposit(dependencies, payment);
  }
  let repaid = 0;
  for (const account of await accountsOwing(dependencies.db, limit)) {
    if ((await repayOwed(dependencies.db, account, dependencies.clock)) > 0n) {
      repaid += 1;
      dependencies.liveEvents?.publish(account.customer_id, 'accounts');
    }
  }
  return due.length + repaid;
}
