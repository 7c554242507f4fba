import type { PaymentKind } from '@strongroom/contracts/payments.ts';
import type { Clock } from '../../db/clock.ts';
import type { Queryable } from '../../db/database.ts';
import { ledgers, operatorAccounts } from '../../ledger/codes.ts';
import { createTransfersIn } from '../../ledger/create-transfers.ts';
import { lookupTransfers } from '../../ledger/history.ts';
import { transferFlags, type TransferInput } from '../../ledger/types.ts';
import { recordAudit, type AuditEntry } from '../../platform/audit.ts';
import { notifyCustomers, type NewNotification } from '../../platform/notify.ts';
import { owingAmong, repayOwedIn } from '../accounts/service.ts';
import { ledgerSideOf, linkedLegKinds, type LinkedLegKind, type PaymentLedgerAccounts } from './kinds.ts';
import { findPayment, insertFinishedPayment, ledgerAccountIdsOf, type PaymentRow } from './repository.ts';

/** The kinds of money the bank moves itself, posted at once inside the caller's transaction (decision 065). */
export type MovementKind = Extract<PaymentKind, 'loan_disbursement' | 'loan_repayment' | 'referral_bonus'>;

/** A transfer linked to the movement's own (both or neither), sent before it: a repayment's interest. */
export interface MovementLeg {
  id: string;
  kind: LinkedLegKind;
  amountCents: bigint;
}

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

/** The ledger's answers that mean the account had not the money (now, or when this id was first tried). */
const shortOfMoney: ReadonlySet<string> = new Set(['exceeds_credits', 'id_already_failed']);

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

  const ledgerAccounts = await ledgerAccountsOf(tx, movement);
  const side = ledgerSideOf(movement.kind, ledgerAccounts);
  if (side.viaRail) throw new Error(`a ${movement.kind} waits at a rail: it is not moved by moveMoney`);
  const [moved] = await lookupTransfers(tx, [movement.id]);
  if (!moved) {
    const transfers: TransferInput[] = (movement.legs ?? []).map((leg) => ({
      id: leg.id,
      debitAccountId: operatorAccounts[linkedLegKinds[leg.kind].debit],
      creditAccountId: operatorAccounts[linkedLegKinds[leg.kind].credit],
      amountCents: leg.amountCents,
      ledger: ledgers.usd,
      code: linkedLegKinds[leg.kind].code,
      flags: transferFlags.linked,
    }));
    transfers.push({
      id: movement.id,
      debitAccountId: side.debitLedgerAccountId,
      creditAccountId: side.creditLedgerAccountId,
      amountCents: movement.amountCents,
      ledger: ledgers.usd,
      code: side.code,
    });
    const outcomes = await createTransfersIn(tx, transfers, clock);
    const refused = outcomes.find((outcome) => outcome.result !== 'ok');
    if (outcomes.length !== transfers.length || refused) {
      if (outcomes.some((outcome) => shortOfMoney.has(outcome.result))) return { outcome: 'refused', code: 'insufficient_funds' };
      throw new Error(`the ledger refused the ${movement.kind} ${movement.id}: ${refused?.result ?? 'no result'}`);
    }
    // What a customer account owes the bank after a returned deposit is paid first, as with any money that arrives (accounts/owed.ts).
    if (ledgerAccounts.toLedgerAccountId) await repayOwedIn(tx, await owingAmong(tx, [ledgerAccounts.toLedgerAccountId]));
  }

  const row = await insertFinishedPayment(tx, movement);
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
