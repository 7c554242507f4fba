import type { UndoScope } from './linked-chains.ts';
import type { TransientTransferResult } from './result-codes.ts';
import type { LedgerAccount, LedgerTransfer, PendingState } from './types.ts';

/** A transfer as decided in memory, before PostgreSQL gives it a sequence and a timestamp. */
export type TransferFields = Omit<LedgerTransfer, 'sequence' | 'createdAt'>;

export interface PendingStateEntry {
  state: PendingState;
  /** Read from PostgreSQL after the accounts were locked: the batch's instant >= expires_at. */
  deadlinePassed: boolean;
  /** The post or void that resolved it, when resolved in this batch. */
  resolvedById: string | null;
  /** True when this batch created the pending transfer (its state row does not exist yet). */
  createdInBatch: boolean;
}

/**
 * The ledger as one batch sees it: copies of the locked accounts, the transfers it may refer to,
 * the pending states and the failed ids. The batch is applied here, transfer by transfer, so that
 * each transfer sees the ones before it; only the end result is written. Every change is logged
 * so that a linked chain that fails can be undone.
 */
export class BatchState implements UndoScope {
  readonly accounts = new Map<string, LedgerAccount>();
  /** The accounts as locked, before the batch: the write sends the difference. */
  readonly lockedAccounts = new Map<string, LedgerAccount>();
  readonly transfers = new Map<string, TransferFields>();
  readonly failedIds = new Map<string, TransientTransferResult>();
  readonly newFailures: Array<{ id: string; result: TransientTransferResult }> = [];
  readonly pendingStates = new Map<string, PendingStateEntry>();
  /** Pending ids whose state this batch created or changed. */
  readonly changedPendingIds = new Set<string>();
  readonly createdTransfers: TransferFields[] = [];
  private readonly undoLog: Array<() => void> = [];

  mark(): number {
    return this.undoLog.length;
  }

  rollback(mark: number): void {
    while (this.undoLog.length > mark) {
      const undo = this.undoLog.pop();
      undo?.();
    }
  }

  addLockedAccount(account: LedgerAccount): void {
    this.accounts.set(account.id, account);
    this.lockedAccounts.set(account.id, account);
  }

  setAccount(account: LedgerAccount): void {
    const previous = this.accounts.get(account.id);
    this.accounts.set(account.id, account);
    this.undoLog.push(() => {
      if (previous) this.accounts.set(account.id, previous);
      else this.accounts.delete(account.id);
    });
  }

  addTransfer(transfer: TransferFields): void {
    this.transfers.set(transfer.id, transfer);
    this.createdTransfers.push(transfer);
    this.undoLog.push(() => {
      this.transfers.delete(transfer.id);
      this.createdTransfers.pop();
    });
  }

  setPendingState(pendingId: string, entry: PendingStateEntry): void {
    const previous = this.pendingStates.get(pendingId);
    const wasChanged = this.changedPendingIds.has(pendingId);
    this.pendingStates.set(pendingId, entry);
    this.changedPendingIds.add(pendingId);
    this.undoLog.push(() => {
      if (previous) this.pendingStates.set(pendingId, previous);
      else this.pendingStates.delete(pendingId);
      if (!wasChanged) this.changedPendingIds.delete(pendingId);
    });
  }

  /** Not undone: as in TigerBeetle, the id of the transfer that broke a chain stays failed. */
  recordFailure(id: string, result: TransientTransferResult): void {
    this.failedIds.set(id, result);
    this.newFailures.push({ id, result });
  }
}
