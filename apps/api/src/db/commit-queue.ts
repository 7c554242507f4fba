/**
 * Group commit: work that arrives while earlier groups are in flight goes together in the next
 * group, so under load many requests share one transaction and one commit. There is no timer: an
 * item waits only while `concurrency` groups are already running, and the items queued meanwhile
 * (in arrival order, up to `maxWeight` of them by `weigh`) form the next group. Under light load
 * each item is a group of its own, without added latency. Used by the ledger's batcher
 * (ledger/batcher.ts) and by payments (modules/payments/commit-group.ts, decision 044).
 *
 * `run` answers each item of its group itself (items carry their own resolve and reject) and must
 * not throw.
 */
export interface CommitQueue<Item> {
  push(item: Item): void;
  /** Resolves when everything pushed so far has been run. */
  idle(): Promise<void>;
}

export interface CommitQueueOptions<Item> {
  /** Most weight in one group; an item heavier than this is a defect of the caller. */
  maxWeight: number;
  /** Most groups in flight at once; each holds one database connection. */
  concurrency: number;
  /** An item's weight (1 by default): a ledger request weighs its number of transfers. */
  weigh?: (item: Item) => number;
  run(group: Item[]): Promise<void>;
}

export function createCommitQueue<Item>(options: CommitQueueOptions<Item>): CommitQueue<Item> {
  const weigh = options.weigh ?? (() => 1);
  const queue: Item[] = [];
  let inFlight = 0;
  let pumpScheduled = false;
  const idleWaiters: Array<() => void> = [];

  function schedulePump(): void {
    if (pumpScheduled) return;
    pumpScheduled = true;
    // Items pushed in the same turn of the event loop join the same group.
    setImmediate(() => {
      pumpScheduled = false;
      pump();
    });
  }

  function nextGroup(): Item[] {
    const group: Item[] = [];
    let weight = 0;
    for (let next = queue[0]; next !== undefined && weight + weigh(next) <= options.maxWeight; next = queue[0]) {
      queue.shift();
      group.push(next);
      weight += weigh(next);
    }
    if (group.length === 0) throw new Error(`an item weighs more than a group may (${options.maxWeight})`);
    return group;
  }

  function pump(): void {
    while (inFlight < options.concurrency && queue.length > 0) {
      const group = nextGroup();
      inFlight += 1;
      void options.run(group).finally(() => {
        inFlight -= 1;
        pump();
        if (inFlight === 0 && queue.length === 0) for (const wake of idleWaiters.splice(0)) wake();
      });
    }
  }

  return {
    push(item) {
      queue.push(item);
      schedulePump();
    },
    idle() {
      if (inFlight === 0 && queue.length === 0 && !pumpScheduled) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}
