/**
 * A deliberately plain model of the ledger for the property tests: the same rules as TigerBeetle's
 * documentation states them, written again without sharing code with the ledger, for the subset of
 * requests the tests generate (valid ids and flags, one ledger). Everything is copied on a linked
 * chain, so rollback is trivial; speed does not matter here.
 */

export interface ModelAccount {
  flags: number;
  debitsPending: bigint;
  debitsPosted: bigint;
  creditsPending: bigint;
  creditsPosted: bigint;
}

export interface ModelRequest {
  id: string;
  debitAccountId?: string;
  creditAccountId?: string;
  amountCents?: bigint;
  pendingId?: string;
  timeoutSeconds?: number;
  ledger?: number;
  code?: number;
  flags: number;
}

interface ModelTransfer {
  debit: string;
  credit: string;
  amount: bigint;
  pendingId: string | null;
  timeout: number;
  ledger: number;
  code: number;
  flags: number;
}

export interface ModelState {
  accounts: Map<string, ModelAccount>;
  transfers: Map<string, ModelTransfer>;
  failed: Map<string, string>;
  pendingStates: Map<string, 'pending' | 'posted' | 'voided' | 'expired'>;
}

const LINKED = 1;
const PENDING = 2;
const POST = 4;
const VOID = 8;
const DEBITS_LIMITED = 2;
const CREDITS_LIMITED = 4;
const transient = new Set(['debit_account_not_found', 'credit_account_not_found', 'pending_transfer_not_found', 'exceeds_credits', 'exceeds_debits']);

export function emptyModel(): ModelState {
  return { accounts: new Map(), transfers: new Map(), failed: new Map(), pendingStates: new Map() };
}

/** Applies a batch and answers one result per request, chains included. */
export function applyModelBatch(model: ModelState, batch: readonly ModelRequest[]): string[] {
  const results: string[] = [];
  let chainStart = -1;
  let saved: ModelState | undefined;
  let broken = false;
  for (let index = 0; index < batch.length; index += 1) {
    const request = batch[index] as ModelRequest;
    const linked = (request.flags & LINKED) !== 0;
    if (linked && chainStart < 0) {
      chainStart = index;
      saved = structuredClone(model);
      broken = false;
    }
    let result: string;
    if (broken) result = 'linked_event_failed';
    else if (linked && index === batch.length - 1) result = 'linked_event_chain_open';
    else result = applyOne(model, request);
    results.push(result);
    if (result !== 'ok' && result !== 'linked_event_failed') {
      if (chainStart >= 0 && saved) {
        broken = true;
        restore(model, saved);
        for (let earlier = chainStart; earlier < index; earlier += 1) results[earlier] = 'linked_event_failed';
      }
      if (transient.has(result) && !model.failed.has(request.id)) model.failed.set(request.id, result);
    }
    if (!linked) {
      chainStart = -1;
      broken = false;
    }
  }
  return results;
}

/** The sweep: every pending transfer with a timeout of at most `maxTimeoutSeconds` expires. */
export function expireModel(model: ModelState, maxTimeoutSeconds: number): void {
  for (const [id, state] of model.pendingStates) {
    const transfer = model.transfers.get(id);
    if (state !== 'pending' || !transfer || transfer.timeout === 0 || transfer.timeout > maxTimeoutSeconds) continue;
    model.pendingStates.set(id, 'expired');
    change(model, transfer.debit, (a) => ({ ...a, debitsPending: a.debitsPending - transfer.amount }));
    change(model, transfer.credit, (a) => ({ ...a, creditsPending: a.creditsPending - transfer.amount }));
  }
}

function restore(model: ModelState, saved: ModelState): void {
  const copy = structuredClone(saved);
  model.accounts = copy.accounts;
  model.transfers = copy.transfers;
  model.failed = copy.failed;
  model.pendingStates = copy.pendingStates;
}

function change(model: ModelState, id: string, update: (account: ModelAccount) => ModelAccount): void {
  const account = model.accounts.get(id);
  if (!account) throw new Error(`model: no account ${id}`);
  model.accounts.set(id, update(account));
}

function applyOne(model: ModelState, r: ModelRequest): string {
  const existing = model.transfers.get(r.id);
  if (existing) return compare(r, existing);
  if (model.failed.has(r.id)) return 'id_already_failed';
  if ((r.flags & (POST | VOID)) !== 0) return postOrVoid(model, r);
  if (!r.debitAccountId) return 'debit_account_id_must_not_be_zero';
  if (!r.creditAccountId) return 'credit_account_id_must_not_be_zero';
  if (r.debitAccountId === r.creditAccountId) return 'accounts_must_be_different';
  if ((r.timeoutSeconds ?? 0) !== 0 && (r.flags & PENDING) === 0) return 'timeout_reserved_for_pending_transfer';
  const amount = r.amountCents ?? 0n;
  if (amount === 0n) return 'amount_must_not_be_zero';
  const debit = model.accounts.get(r.debitAccountId);
  if (!debit) return 'debit_account_not_found';
  const credit = model.accounts.get(r.creditAccountId);
  if (!credit) return 'credit_account_not_found';
  if ((debit.flags & DEBITS_LIMITED) !== 0 && debit.debitsPending + debit.debitsPosted + amount > debit.creditsPosted) {
    return 'exceeds_credits';
  }
  if ((credit.flags & CREDITS_LIMITED) !== 0 && credit.creditsPending + credit.creditsPosted + amount > credit.debitsPosted) {
    return 'exceeds_debits';
  }
  const pending = (r.flags & PENDING) !== 0;
  change(model, r.debitAccountId, (a) => (pending ? { ...a, debitsPending: a.debitsPending + amount } : { ...a, debitsPosted: a.debitsPosted + amount }));
  change(model, r.creditAccountId, (a) => (pending ? { ...a, creditsPending: a.creditsPending + amount } : { ...a, creditsPosted: a.creditsPosted + amount }));
  model.transfers.set(r.id, {
    debit: r.debitAccountId,
    credit: r.creditAccountId,
    amount,
    pendingId: null,
    timeout: r.timeoutSeconds ?? 0,
    ledger: r.ledger ?? 0,
    code: r.code ?? 0,
    flags: r.flags,
  });
  if (pending) model.pendingStates.set(r.id, 'pending');
  return 'ok';
}

function postOrVoid(model: ModelState, r: ModelRequest): string {
  const post = (r.flags & POST) !== 0;
  if (!r.pendingId) return 'pending_id_must_not_be_zero';
  const pending = model.transfers.get(r.pendingId);
  if (!pending) return 'pending_transfer_not_found';
  if ((pending.flags & PENDING) === 0) return 'pending_transfer_not_pending';
  if (r.debitAccountId !== undefined && r.debitAccountId !== pending.debit) return 'pending_transfer_has_different_debit_account_id';
  if (r.creditAccountId !== undefined && r.creditAccountId !== pending.credit) {
    return 'pending_transfer_has_different_credit_account_id';
  }
  if (r.ledger !== undefined && r.ledger !== pending.ledger) return 'pending_transfer_has_different_ledger';
  if (r.code !== undefined && r.code !== pending.code) return 'pending_transfer_has_different_code';
  if (post && r.amountCents !== undefined && r.amountCents > pending.amount) return 'exceeds_pending_transfer_amount';
  if (!post && r.amountCents !== undefined && r.amountCents !== pending.amount) return 'pending_transfer_has_different_amount';
  const state = model.pendingStates.get(r.pendingId);
  if (state === 'posted') return 'pending_transfer_already_posted';
  if (state === 'voided') return 'pending_transfer_already_voided';
  if (state === 'expired') return 'pending_transfer_expired';
  const posted = post ? (r.amountCents ?? pending.amount) : 0n;
  change(model, pending.debit, (a) => ({ ...a, debitsPending: a.debitsPending - pending.amount, debitsPosted: a.debitsPosted + posted }));
  change(model, pending.credit, (a) => ({
    ...a,
    creditsPending: a.creditsPending - pending.amount,
    creditsPosted: a.creditsPosted + posted,
  }));
  model.transfers.set(r.id, { ...pending, amount: post ? posted : pending.amount, pendingId: r.pendingId, timeout: 0, flags: r.flags });
  model.pendingStates.set(r.pendingId, post ? 'posted' : 'voided');
  return 'ok';
}

function compare(r: ModelRequest, e: ModelTransfer): string {
  if (r.flags !== e.flags) return 'exists_with_different_flags';
  if ((r.pendingId ?? null) !== e.pendingId) return 'exists_with_different_pending_id';
  if ((r.timeoutSeconds ?? 0) !== e.timeout) return 'exists_with_different_timeout';
  const resolving = (e.flags & (POST | VOID)) !== 0;
  const differs = <T>(given: T | undefined, stored: T) => (resolving ? given !== undefined && given !== stored : given !== stored);
  if (differs(r.debitAccountId, e.debit)) return 'exists_with_different_debit_account_id';
  if (differs(r.creditAccountId, e.credit)) return 'exists_with_different_credit_account_id';
  if (resolving ? r.amountCents !== undefined && r.amountCents !== e.amount : (r.amountCents ?? 0n) !== e.amount) {
    return 'exists_with_different_amount';
  }
  if (differs(r.ledger, e.ledger)) return 'exists_with_different_ledger';
  if (differs(r.code, e.code)) return 'exists_with_different_code';
  return 'exists';
}
