import type { PaymentKind } from '@strongroom/contracts/payments.ts';
import type { Clock } from '../../db/clock.ts';
import type { Queryable } from '../../db/database.ts';
import { recordAudit, type AuditEntry } from '../../platform/audit.ts';
import { notifyCustomers, type NewNotification } from '../../platform/notify.ts';
import { postPayment, type MovementLeg, type PaymentLedgerAccounts } from '../money/service.ts';
import { findPayment, insertFinishedPayment, insertPayment, ledgerAccountIdsOf, transitionPayment, type NewPayment, type PaymentRow } from './repository.ts';

export type { MovementLeg };

/**
 * The kinds of money the bank moves itself, posted at once inside the caller's transaction (decision 065);
 * `own` is a move between two accounts of one customer that goes with a change to the accounts
 * themselves (an opening deposit, a closed account's balance: account-management/opening.ts and closing.ts).
 */
export type MovementKind = Extract<
  PaymentKind,
  'loan_disbursement' | 'loan_repayment' | 'referral_bonus' | 'interest' | 'fee' | 'fee_refund' | 'own' | 'dispute_credit' | 'dispute_reversal'
>;

/**
 * One movement of money and everything recorded with it. Its id is the payment's and the ledger
 * transfer's, derived by the caller from what it does (a loan, an instalment and a day; a
 * referral), so a rerun after a crash finds it done and moves nothing twice.
 */
export interface MoneyMovement {
  id: string;
  kind: MovementKind;
  customerId: string;
  /** The customer accounts on each side; the kind's row in kinds.ts says which it reads. */
  fromAccountId: string | null;
  toAccountId: string | null;
  amountCents: bigint;
  counterpartyName: string;
  /** The history line's words. */
  message: string;
  legs?: readonly MovementLeg[];
  /** Told once, when the money moves (not on a rerun that finds it moved). */
  notifications?: readonly NewNotification[];
  audit?: AuditEntry;
}

export type MovementRefusal = 'insufficient_funds';

export type MovementResult =
  /** `already`: an earlier run moved it; nothing was written now. */
  { outcome: 'made'; row: PaymentRow; already: boolean } | { outcome: 'refused'; code: MovementRefusal };

/**
 * Moves money inside the caller's transaction: the ledger transfer (and its linked legs), its sides
 * read from kinds.ts, then the payment row that history, statements and receipts read, the
 * notifications and the audit entry. All of it commits with the caller's own change (a loan's
 * status, an instalment paid, a referral settled), or none of it. An expected refusal is a value;
 * the caller decides (roll back by throwing, or record the refusal and commit). A movement whose
 * transfer the ledger already holds is done: the existing row is answered, or written when an
 * older run (before decision 065) left only the transfer. The caller retries its whole
 * transaction on a write conflict (ledger/retry.ts).
 */
export async function moveMoney(tx: Queryable, movement: MoneyMovement, clock?: Clock): Promise<MovementResult> {
  const existing = await findPayment(tx, movement.id);
  if (existing) return { outcome: 'made', row: existing, already: true };

  const posted = await postPayment(
    tx,
    {
      id: movement.id,
      kind: movement.kind,
      ledgerAccounts: await ledgerAccountsOf(tx, movement),
      amountCents: movement.amountCents,
      legs: movement.legs ?? [],
    },
    clock,
  );
  if (posted.outcome === 'refused') return { outcome: 'refused', code: posted.code };

  const row = await insertFinishedPayment(tx, movement, clock);
  if (!row) {
    const written = await findPayment(tx, movement.id);
    if (!written) throw new Error(`payment ${movement.id} was neither written nor found`);
    return { outcome: 'made', row: written, already: true };
  }
  await notifyCustomers(tx, movement.notifications ?? []);
  if (movement.audit) await recordAudit(tx, movement.audit);
  return { outcome: 'made', row, already: false };
}

async function ledgerAccountsOf(tx: Queryable, movement: MoneyMovement): Promise<PaymentLedgerAccounts> {
  const ledgerIds = await ledgerAccountIdsOf(
    tx,
    [movement.fromAccountId, movement.toAccountId].filter((id): id is string => id !== null),
  );
  const ledgerOf = (id: string | null) => (id === null ? null : (ledgerIds.get(id) ?? null));
  return { paymentId: movement.id, fromLedgerAccountId: ledgerOf(movement.fromAccountId), toLedgerAccountId: ledgerOf(movement.toAccountId) };
}

/**
 * A payment the bank makes that has already settled (an opening deposit, the sandbox's example
 * history): its row and its transfer, posted at once with the sides and code of its kind's row in
 * kinds.ts even for a kind that waits at a rail, and the row completed, in the caller's transaction.
 * The ledger refusing it is a defect: the bank's own accounts have no limit, and the sandbox spends
 * only what it deposited.
 */
export async function recordSettledPayment(
  tx: Queryable,
  payment: NewPayment,
  ledgerAccounts: { from: string | null; to: string | null },
  clock?: Clock,
): Promise<void> {
  await insertPayment(tx, payment);
  const posted = await postPayment(
    tx,
    {
      id: payment.id,
      kind: payment.kind,
      ledgerAccounts: { paymentId: payment.id, fromLedgerAccountId: ledgerAccounts.from, toLedgerAccountId: ledgerAccounts.to },
      amountCents: payment.amountCents,
      settled: true,
    },
    clock,
  );
  if (posted.outcome !== 'posted') throw new Error(`the bank's payment ${payment.id} was not posted: ${posted.outcome}`);
  await transitionPayment(tx, payment.id, ['creating'], { status: 'completed' });
}
