import { assert, assertCents, assertInteger, normalizeUuid } from './assert.ts';
import type { BatchState, TransferFields } from './batch-state.ts';
import { amountMaxCents, maxCode, maxLedger, maxTimeoutSeconds } from './limits.ts';
import type { CreateTransferResult } from './result-codes.ts';
import { accountFlags, hasFlag, intMaxId, transferFlags, transferFlagsMask, zeroId } from './types.ts';
import type { LedgerAccount, TransferInput } from './types.ts';

/**
 * The rules of one transfer, applied to the batch's in-memory ledger: TigerBeetle's checks in its
 * order of precedence, then the effect on the two accounts. Pure computation; no SQL here.
 */

/** A transfer request with TigerBeetle's zeros filled in for absent fields. */
export interface NormalizedTransfer {
  id: string;
  debitAccountId: string;
  creditAccountId: string;
  /** Null when absent: a post or void then moves the whole pending amount. */
  amountCents: bigint | null;
  pendingId: string;
  timeoutSeconds: number;
  ledger: number;
  code: number;
  flags: number;
}

/**
 * Checks the shape of each field (a caller's bug if wrong, so it throws) and fills in zeros.
 * Values with a meaning of their own (a zero id, a reserved flag) are left for the rules to answer.
 */
export function normalizeTransfer(input: TransferInput): NormalizedTransfer {
  const optionalId = (value: string | undefined, what: string) => (value === undefined ? zeroId : normalizeUuid(value, what));
  if (input.amountCents !== undefined) assertCents(input.amountCents, 'amountCents');
  const timeoutSeconds = input.timeoutSeconds ?? 0;
  assertInteger(timeoutSeconds, 0, maxTimeoutSeconds, 'timeoutSeconds');
  const ledger = input.ledger ?? 0;
  assertInteger(ledger, 0, maxLedger, 'ledger');
  const code = input.code ?? 0;
  assertInteger(code, 0, maxCode, 'code');
  const flags = input.flags ?? 0;
  assertInteger(flags, 0, 0xffff, 'flags');
  return {
    id: normalizeUuid(input.id, 'id'),
    debitAccountId: optionalId(input.debitAccountId, 'debitAccountId'),
    creditAccountId: optionalId(input.creditAccountId, 'creditAccountId'),
    amountCents: input.amountCents ?? null,
    pendingId: optionalId(input.pendingId, 'pendingId'),
    timeoutSeconds,
    ledger,
    code,
    flags,
  };
}

export function resolvesPending(flags: number): boolean {
  return hasFlag(flags, transferFlags.postPendingTransfer | transferFlags.voidPendingTransfer);
}

export type TransferDecision = CreateTransferResult;

/** Applies one transfer: answers its result and, when `ok`, changes `state`. */
export function applyTransfer(state: BatchState, t: NormalizedTransfer): TransferDecision {
  if ((t.flags & ~transferFlagsMask) !== 0) return 'reserved_flag';
  if (t.id === zeroId) return 'id_must_not_be_zero';
  if (t.id === intMaxId) return 'id_must_not_be_int_max';

  const existing = state.transfers.get(t.id);
  if (existing) return compareWithExisting(t, existing);
  if (state.failedIds.has(t.id)) return 'id_already_failed';

  const pending = hasFlag(t.flags, transferFlags.pending);
  const post = hasFlag(t.flags, transferFlags.postPendingTransfer);
  const voiding = hasFlag(t.flags, transferFlags.voidPendingTransfer);
  if (Number(pending) + Number(post) + Number(voiding) > 1) return 'flags_are_mutually_exclusive';
  if (post || voiding) return postOrVoidPendingTransfer(state, t, post);

  if (t.debitAccountId === zeroId) return 'debit_account_id_must_not_be_zero';
  if (t.debitAccountId === intMaxId) return 'debit_account_id_must_not_be_int_max';
  if (t.creditAccountId === zeroId) return 'credit_account_id_must_not_be_zero';
  if (t.creditAccountId === intMaxId) return 'credit_account_id_must_not_be_int_max';
  if (t.debitAccountId === t.creditAccountId) return 'accounts_must_be_different';
  if (t.pendingId !== zeroId) return 'pending_id_must_be_zero';
  if (t.timeoutSeconds !== 0 && !pending) return 'timeout_reserved_for_pending_transfer';
  const amountCents = t.amountCents ?? 0n;
  if (amountCents === 0n) return 'amount_must_not_be_zero';
  if (t.ledger === 0) return 'ledger_must_not_be_zero';
  if (t.code === 0) return 'code_must_not_be_zero';

  const debit = state.accounts.get(t.debitAccountId);
  if (!debit) return 'debit_account_not_found';
  const credit = state.accounts.get(t.creditAccountId);
  if (!credit) return 'credit_account_not_found';
  if (debit.ledger !== credit.ledger) return 'accounts_must_have_the_same_ledger';
  if (t.ledger !== debit.ledger) return 'transfer_must_have_the_same_ledger_as_accounts';

  if (pending) {
    if (debit.debitsPendingCents + amountCents > amountMaxCents) return 'overflows_debits_pending';
    if (credit.creditsPendingCents + amountCents > amountMaxCents) return 'overflows_credits_pending';
  } else {
    if (debit.debitsPostedCents + amountCents > amountMaxCents) return 'overflows_debits_posted';
    if (credit.creditsPostedCents + amountCents > amountMaxCents) return 'overflows_credits_posted';
  }
  const debitsAfter = debit.debitsPendingCents + debit.debitsPostedCents + amountCents;
  const creditsAfter = credit.creditsPendingCents + credit.creditsPostedCents + amountCents;
  if (debitsAfter > amountMaxCents) return 'overflows_debits';
  if (creditsAfter > amountMaxCents) return 'overflows_credits';
  if (hasFlag(debit.flags, accountFlags.debitsMustNotExceedCredits) && debitsAfter > debit.creditsPostedCents) {
    return 'exceeds_credits';
  }
  if (hasFlag(credit.flags, accountFlags.creditsMustNotExceedDebits) && creditsAfter > credit.debitsPostedCents) {
    return 'exceeds_debits';
  }

  const transfer: TransferFields = {
    id: t.id,
    debitAccountId: debit.id,
    creditAccountId: credit.id,
    amountCents,
    pendingId: null,
    timeoutSeconds: t.timeoutSeconds,
    ledger: t.ledger,
    code: t.code,
    flags: t.flags,
  };
  if (pending) {
    state.setAccount({ ...debit, debitsPendingCents: debit.debitsPendingCents + amountCents });
    state.setAccount({ ...credit, creditsPendingCents: credit.creditsPendingCents + amountCents });
    state.setPendingState(t.id, { state: 'pending', deadlinePassed: false, resolvedById: null, createdInBatch: true });
  } else {
    state.setAccount({ ...debit, debitsPostedCents: debit.debitsPostedCents + amountCents });
    state.setAccount({ ...credit, creditsPostedCents: credit.creditsPostedCents + amountCents });
  }
  state.addTransfer(transfer);
  return 'ok';
}

function postOrVoidPendingTransfer(state: BatchState, t: NormalizedTransfer, post: boolean): TransferDecision {
  if (t.pendingId === zeroId) return 'pending_id_must_not_be_zero';
  if (t.pendingId === intMaxId) return 'pending_id_must_not_be_int_max';
  if (t.pendingId === t.id) return 'pending_id_must_be_different';
  if (t.timeoutSeconds !== 0) return 'timeout_reserved_for_pending_transfer';

  const pendingTransfer = state.transfers.get(t.pendingId);
  if (!pendingTransfer) return 'pending_transfer_not_found';
  if (!hasFlag(pendingTransfer.flags, transferFlags.pending)) return 'pending_transfer_not_pending';
  if (t.debitAccountId !== zeroId && t.debitAccountId !== pendingTransfer.debitAccountId) {
    return 'pending_transfer_has_different_debit_account_id';
  }
  if (t.creditAccountId !== zeroId && t.creditAccountId !== pendingTransfer.creditAccountId) {
    return 'pending_transfer_has_different_credit_account_id';
  }
  if (t.ledger !== 0 && t.ledger !== pendingTransfer.ledger) return 'pending_transfer_has_different_ledger';
  if (t.code !== 0 && t.code !== pendingTransfer.code) return 'pending_transfer_has_different_code';
  const pendingAmountCents = pendingTransfer.amountCents;
  if (post && t.amountCents !== null && t.amountCents > pendingAmountCents) return 'exceeds_pending_transfer_amount';
  if (!post && t.amountCents !== null && t.amountCents !== pendingAmountCents) {
    return 'pending_transfer_has_different_amount';
  }

  const pendingState = state.pendingStates.get(pendingTransfer.id);
  assert(pendingState !== undefined, `pending transfer ${pendingTransfer.id} has no state`);
  if (pendingState.state === 'posted') return 'pending_transfer_already_posted';
  if (pendingState.state === 'voided') return 'pending_transfer_already_voided';
  if (pendingState.state === 'expired' || pendingState.deadlinePassed) return 'pending_transfer_expired';

  const debit = state.accounts.get(pendingTransfer.debitAccountId);
  const credit = state.accounts.get(pendingTransfer.creditAccountId);
  assert(debit !== undefined && credit !== undefined, `the accounts of pending ${pendingTransfer.id} are not locked`);
  assertReservation(debit, credit, pendingAmountCents);

  const postedCents = post ? (t.amountCents ?? pendingAmountCents) : 0n;
  if (debit.debitsPostedCents + postedCents > amountMaxCents) return 'overflows_debits_posted';
  if (credit.creditsPostedCents + postedCents > amountMaxCents) return 'overflows_credits_posted';

  state.setAccount({
    ...debit,
    debitsPendingCents: debit.debitsPendingCents - pendingAmountCents,
    debitsPostedCents: debit.debitsPostedCents + postedCents,
  });
  state.setAccount({
    ...credit,
    creditsPendingCents: credit.creditsPendingCents - pendingAmountCents,
    creditsPostedCents: credit.creditsPostedCents + postedCents,
  });
  // The stored post or void carries the pending transfer's accounts, ledger and code, and the
  // amount it actually moved (a void records the amount it released).
  state.addTransfer({
    id: t.id,
    debitAccountId: pendingTransfer.debitAccountId,
    creditAccountId: pendingTransfer.creditAccountId,
    amountCents: post ? postedCents : pendingAmountCents,
    pendingId: pendingTransfer.id,
    timeoutSeconds: 0,
    ledger: pendingTransfer.ledger,
    code: pendingTransfer.code,
    flags: t.flags,
  });
  state.setPendingState(pendingTransfer.id, {
    ...pendingState,
    state: post ? 'posted' : 'voided',
    resolvedById: t.id,
  });
  return 'ok';
}

/** A pending transfer still pending has its amount in both accounts' pending counters. */
function assertReservation(debit: LedgerAccount, credit: LedgerAccount, amountCents: bigint): void {
  assert(debit.debitsPendingCents >= amountCents, `account ${debit.id} lost part of a reservation`);
  assert(credit.creditsPendingCents >= amountCents, `account ${credit.id} lost part of a reservation`);
}

/**
 * TigerBeetle's exists checks, field by field in its order. For a post or void, a field the caller
 * left absent was taken from the pending transfer, so only fields the caller gave are compared.
 */
function compareWithExisting(t: NormalizedTransfer, e: TransferFields): TransferDecision {
  if (t.flags !== e.flags) return 'exists_with_different_flags';
  if (t.pendingId !== (e.pendingId ?? zeroId)) return 'exists_with_different_pending_id';
  if (t.timeoutSeconds !== e.timeoutSeconds) return 'exists_with_different_timeout';
  const optional = resolvesPending(e.flags);
  const differs = <Value>(given: Value, absent: Value, stored: Value) => (optional ? given !== absent && given !== stored : given !== stored);
  if (differs(t.debitAccountId, zeroId, e.debitAccountId)) return 'exists_with_different_debit_account_id';
  if (differs(t.creditAccountId, zeroId, e.creditAccountId)) return 'exists_with_different_credit_account_id';
  if (optional ? t.amountCents !== null && t.amountCents !== e.amountCents : (t.amountCents ?? 0n) !== e.amountCents) {
    return 'exists_with_different_amount';
  }
  if (differs(t.ledger, 0, e.ledger)) return 'exists_with_different_ledger';
  if (differs(t.code, 0, e.code)) return 'exists_with_different_code';
  return 'exists';
}
