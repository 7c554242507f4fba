import type { PaymentKind } from '@strongroom/contracts/payments.ts';
import type { Clock } from '../../db/clock.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { ledgers, operatorAccounts } from '../../ledger/codes.ts';
import { createTransfersIn } from '../../ledger/create-transfers.ts';
import { lookupTransfers } from '../../ledger/history.ts';
import type { CreateTransferOutcome } from '../../ledger/result-codes.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { transferFlags, type TransferInput } from '../../ledger/types.ts';
import { owedRepaymentsOf, owingAmong, type OwingAccount, type OwingLedgerAccounts } from '../accounts/service.ts';
import {
  bookedMovementKinds,
  ledgerSideOf,
  linkedLegKinds,
  type BookedMovementKind,
  type BookedParty,
  type LinkedLegKind,
  type PaymentLedgerAccounts,
} from './kinds.ts';

/**
 * The money module (docs/decisions/065-one-money-movement-primitive.md and 069): the only code
 * that writes ledger transfers, besides the commit group's batcher (payments/commit-group.ts),
 * which writes many payments' at once through the same ledger. Every transfer's sides come from
 * kinds.ts: `postPayment` for a payment row's transfer (payments/move-money.ts writes the row),
 * `bookMovements` for what a feature records in its own table (cards, micro-deposits, returns,
 * what an account owes), `resolveHeld` to post or void what either held, `repayOwedIn` for money
 * that arrives where something is owed. Each runs inside the caller's transaction, so the
 * feature's record commits with the money or not at all; lint (strongroom/money-through-one-module)
 * keeps every other file from writing the ledger.
 */

/** The ledger's answers that mean the account had not the money (now, or when this id was first tried). */
const shortOfMoney: ReadonlySet<string> = new Set(['exceeds_credits', 'id_already_failed']);

/** A transfer linked to a payment's own (both or neither), sent before it: a repayment's interest. */
export interface MovementLeg {
  id: string;
  kind: LinkedLegKind;
  amountCents: bigint;
}

/** A payment's ledger transfer: its sides from its kind's row in kinds.ts, for the accounts its row names. */
export interface PaymentTransfer {
  id: string;
  kind: PaymentKind;
  ledgerAccounts: PaymentLedgerAccounts;
  amountCents: bigint;
  legs?: readonly MovementLeg[];
  /** Posted at once even for a kind that waits at a rail: it has already settled (the sandbox's history). */
  settled?: boolean;
}

export type PaymentPosting = { outcome: 'posted' } | { outcome: 'already' } | { outcome: 'refused'; code: 'insufficient_funds' };

/**
 * Posts a payment's transfer (and its linked legs) at once, inside the caller's transaction that
 * writes the payment's row. A transfer the ledger already holds under the id is `already` (a
 * rerun). Money arriving in a customer's account pays what it owes first (accounts/owed.ts). A
 * kind that waits at a rail is not posted here (the commit group holds it pending) unless settled.
 */
export async function postPayment(tx: Queryable, payment: PaymentTransfer, clock?: Clock): Promise<PaymentPosting> {
  const side = ledgerSideOf(payment.kind, payment.ledgerAccounts);
  if (side.viaRail && payment.settled !== true) throw new Error(`a ${payment.kind} waits at a rail: it is not posted at once`);
  const [moved] = await lookupTransfers(tx, [payment.id]);
  if (moved) return { outcome: 'already' };
  const transfers: TransferInput[] = (payment.legs ?? []).map((leg) => ({
    id: leg.id,
    debitAccountId: operatorAccounts[linkedLegKinds[leg.kind].debit],
    creditAccountId: operatorAccounts[linkedLegKinds[leg.kind].credit],
    amountCents: leg.amountCents,
    ledger: ledgers.usd,
    code: linkedLegKinds[leg.kind].code,
    flags: transferFlags.linked,
  }));
  transfers.push({
    id: payment.id,
    debitAccountId: side.debitLedgerAccountId,
    creditAccountId: side.creditLedgerAccountId,
    amountCents: payment.amountCents,
    ledger: ledgers.usd,
    code: side.code,
  });
  const outcomes = await createTransfersIn(tx, transfers, clock);
  const refused = outcomes.find((outcome) => outcome.result !== 'ok');
  if (outcomes.length !== transfers.length || refused) {
    if (outcomes.some((outcome) => shortOfMoney.has(outcome.result))) return { outcome: 'refused', code: 'insufficient_funds' };
    throw new Error(`the ledger refused the ${payment.kind} ${payment.id}: ${refused?.result ?? 'no result'}`);
  }
  const arrivedIn = payment.ledgerAccounts.toLedgerAccountId;
  if (arrivedIn) await repayOwedIn(tx, await owingAmong(tx, [arrivedIn]), clock);
  return { outcome: 'posted' };
}

/** A movement its feature records in its own table; its sides and code are its kind's row in kinds.ts (bookedMovementKinds). */
export interface BookedMovement {
  /** The ledger transfer's id: derived from what the movement is, where a rerun must find it done. */
  id: string;
  kind: BookedMovementKind;
  /** The ledger account on the kind's 'from' side, where its row has one. */
  fromLedgerAccountId?: string;
  /** The ledger account on the kind's 'to' side, where its row has one. */
  toLedgerAccountId?: string;
  amountCents: bigint;
}

/** Not enough money (or credit) on the debit side; or an account's limit (what is owed) would be passed on the credit side. */
export type BookingRefusal = 'insufficient_funds' | 'over_limit';

export type BookingOutcome =
  /** `already`: the ledger held a transfer with this id (a rerun); nothing was written now. */
  { outcome: 'booked' } | { outcome: 'already' } | { outcome: 'refused'; code: BookingRefusal };

/**
 * Posts movements recorded in their feature's own table (a card authorisation or payment, a line
 * of credit, micro-deposits, a returned deposit, a repayment of what is owed), inside the caller's
 * transaction that writes the record beside them: all of it commits, or none. With `linked`, the
 * movements succeed or fail as one. An expected refusal is a value (the caller rolls back by
 * throwing, or records the refusal and commits); any other answer of the ledger is a defect and
 * throws. Money arriving in a customer's deposit account pays what the account owes first.
 */
export async function bookMovements(
  tx: Queryable,
  movements: readonly BookedMovement[],
  options: { linked?: boolean; clock?: Clock | undefined } = {},
): Promise<BookingOutcome[]> {
  const transfers = movements.map((movement, index) => bookedTransferOf(movement, options.linked === true && index < movements.length - 1));
  const outcomes = await createTransfersIn(tx, transfers, options.clock);
  if (outcomes.length !== transfers.length) throw new Error(`the ledger answered ${outcomes.length} of ${transfers.length} movements`);
  const chainRefusal = outcomes.map(refusalOf).find((refusal) => refusal !== undefined);
  const answers = outcomes.map((outcome, index): BookingOutcome => {
    if (outcome.result === 'ok') return { outcome: 'booked' };
    if (outcome.result === 'exists') return { outcome: 'already' };
    const refusal = refusalOf(outcome) ?? (outcome.result === 'linked_event_failed' ? chainRefusal : undefined);
    if (refusal) return { outcome: 'refused', code: refusal };
    throw new Error(`the ledger refused the ${movements[index]?.kind} ${movements[index]?.id}: ${outcome.result}`);
  });
  const arrivedIn = movements.flatMap((movement, index) =>
    bookedMovementKinds[movement.kind].paysWhatIsOwed && answers[index]?.outcome === 'booked' && movement.toLedgerAccountId ? [movement.toLedgerAccountId] : [],
  );
  if (arrivedIn.length > 0) await repayOwedIn(tx, await owingAmong(tx, arrivedIn), options.clock);
  return answers;
}

/** A booked movement's ledger transfer: its sides, code and kind of transfer from its row in kinds.ts. */
function bookedTransferOf(movement: BookedMovement, chained: boolean): TransferInput {
  const row = bookedMovementKinds[movement.kind];
  return {
    id: movement.id,
    debitAccountId: bookedParty(row.debit, movement),
    creditAccountId: bookedParty(row.credit, movement),
    amountCents: movement.amountCents,
    ledger: ledgers.usd,
    code: row.code,
    flags: (row.transfer === 'pending' ? transferFlags.pending : 0) | (chained ? transferFlags.linked : 0),
    ...(row.transfer === 'pending' ? { timeoutSeconds: row.timeoutSeconds } : {}),
  };
}

function refusalOf(outcome: CreateTransferOutcome): BookingRefusal | undefined {
  if (shortOfMoney.has(outcome.result)) return 'insufficient_funds';
  if (outcome.result === 'exceeds_debits') return 'over_limit';
  return undefined;
}

function bookedParty(party: BookedParty, movement: BookedMovement): string {
  if (party === 'from' || party === 'to') {
    const id = party === 'from' ? movement.fromLedgerAccountId : movement.toLedgerAccountId;
    if (!id) throw new Error(`the ${movement.kind} ${movement.id} names no '${party}' ledger account`);
    return id;
  }
  return operatorAccounts[party];
}

/** Posting (for the amount held or less: the rest is released) or voiding what a pending transfer holds. */
export interface HeldResolution {
  /** The resolving transfer's id, derived from the held one's and the action, so a rerun finds it done. */
  id: string;
  pendingId: string;
  action: 'post' | 'void';
  /** A post for less than was held; omitted, the whole amount. */
  amountCents?: bigint;
}

export type ResolveRefusal = 'hold_expired' | 'hold_already_posted' | 'hold_already_voided';

export type ResolveOutcome = { outcome: 'resolved' } | { outcome: 'already' } | { outcome: 'refused'; code: ResolveRefusal };

const resolveRefusals: Readonly<Record<string, ResolveRefusal>> = {
  pending_transfer_expired: 'hold_expired',
  pending_transfer_already_posted: 'hold_already_posted',
  pending_transfer_already_voided: 'hold_already_voided',
};

/**
 * Posts or voids a pending transfer (a payment waiting at a rail or in review, a card's hold),
 * inside the caller's transaction that records why. Money a post brings into an account that owes
 * the bank pays that first, in the same transaction. The hold having ended otherwise (expired,
 * posted or voided by another) is a value; anything else is a defect and throws.
 */
export async function resolveHeld(tx: Queryable, resolution: HeldResolution, clock?: Clock): Promise<ResolveOutcome> {
  const [outcome] = await createTransfersIn(
    tx,
    [
      {
        id: resolution.id,
        pendingId: resolution.pendingId,
        flags: resolution.action === 'post' ? transferFlags.postPendingTransfer : transferFlags.voidPendingTransfer,
        ...(resolution.amountCents === undefined ? {} : { amountCents: resolution.amountCents }),
      },
    ],
    clock,
  );
  if (!outcome) throw new Error(`the ledger did not answer the ${resolution.action} of ${resolution.pendingId}`);
  if (outcome.result === 'exists') return { outcome: 'already' };
  if (outcome.result === 'ok') {
    if (resolution.action === 'post') await repayOwedIn(tx, await owingAmong(tx, [outcome.transfer.creditAccountId]), clock);
    return { outcome: 'resolved' };
  }
  const refusal = resolveRefusals[outcome.result];
  if (refusal) return { outcome: 'refused', code: refusal };
  throw new Error(`could not ${resolution.action} the pending transfer ${resolution.pendingId}: ${outcome.result}`);
}

/** How a caller writes transfers in its transaction: the ledger's own, or the commit group's batcher (which dates them by its clock). */
export type TransfersWriter = (tx: Queryable, transfers: readonly TransferInput[]) => Promise<CreateTransferOutcome[]>;

/**
 * Money that arrived pays what the account owes, in the transaction that brought it (issue 30
 * item 6; decision 052): accounts/owed.ts works out each repayment (the smaller of the debt and
 * what is available, read while the caller's credit holds the account's row lock), and this writes
 * them. Such a repayment cannot be refused; if the ledger does, it is a defect. Answers the cents repaid.
 */
export async function repayOwedIn(tx: Queryable, owing: readonly OwingLedgerAccounts[], clockOrWriter?: Clock | TransfersWriter): Promise<bigint> {
  const owed = await owedRepaymentsOf(tx, owing);
  if (owed.length === 0) return 0n;
  const repayments = owed.map((repayment) => bookedTransferOf({ ...repayment, kind: 'owed_repayment' }, false));
  const write: TransfersWriter = typeof clockOrWriter === 'function' ? clockOrWriter : (inTx, transfers) => createTransfersIn(inTx, transfers, clockOrWriter);
  const outcomes = await write(tx, repayments);
  outcomes.forEach((outcome, index) => {
    if (outcome.result !== 'ok') throw new Error(`the ledger refused repaying what ${repayments[index]?.debitAccountId} owes: ${outcome.result}`);
  });
  return owed.reduce((sum, repayment) => sum + repayment.amountCents, 0n);
}

/**
 * The payments sweep's repayment of what an account owes from what it has (money that arrived
 * before decision 052, or freed by a hold released), in a transaction of its own. Two runs at once
 * cannot take too much: the ledger's limits refuse the loser's repayment, which repays nothing.
 */
export async function repayOwed(db: Database, account: OwingAccount, clock?: Clock): Promise<bigint> {
  const owedLedgerAccountId = account.owed_ledger_account_id;
  if (!owedLedgerAccountId) return 0n;
  return retryOnWriteConflict(() =>
    db.transaction(async (tx) => {
      const [repayment] = await owedRepaymentsOf(tx, [{ depositLedgerAccountId: account.ledger_account_id, owedLedgerAccountId }]);
      if (!repayment) return 0n;
      const [answer] = await bookMovements(tx, [{ ...repayment, kind: 'owed_repayment' }], { clock });
      return answer?.outcome === 'booked' ? repayment.amountCents : 0n;
    }),
  );
}
