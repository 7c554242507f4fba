import { describe, expect, it } from 'vitest';
import { createCommitQueue } from './commit-queue.ts';

/** A run that records each group and finishes when told to. */
function recordingRun() {
  const groups: string[][] = [];
  const finishers: Array<() => void> = [];
  return {
    groups,
    /** Finishes the oldest running group. */
    finishOne: () => finishers.shift()?.(),
    run: (group: string[]) =>
      new Promise<void>((resolve) => {
        groups.push(group);
        finishers.push(resolve);
      }),
  };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('a commit queue (group commit for the ledger and payments)', () => {
  it('runs what arrives in one turn of the event loop as one group, and a lone item at once', async () => {
    const recorder = recordingRun();
    const queue = createCommitQueue<string>({ maxWeight: 10, concurrency: 1, run: recorder.run });
    queue.push('a');
    queue.push('b');
    queue.push('c');
    await nextTurn();
    expect(recorder.groups).toEqual([['a', 'b', 'c']]);
    recorder.finishOne();
    await queue.idle();
    queue.push('d');
    await nextTurn();
    expect(recorder.groups).toEqual([['a', 'b', 'c'], ['d']]);
    recorder.finishOne();
    await queue.idle();
  });

  it('holds what arrives while `concurrency` groups run, then runs it together, in order, by weight', async () => {
    const recorder = recordingRun();
    const queue = createCommitQueue<string>({ maxWeight: 5, concurrency: 2, weigh: (item) => item.length, run: recorder.run });
    queue.push('one');
    await nextTurn();
    queue.push('two');
    await nextTurn();
    // Both slots are taken: these wait, and go in groups of at most 5 characters.
    for (const item of ['a', 'bb', 'cc', 'ddd', 'e']) queue.push(item);
    await nextTurn();
    expect(recorder.groups).toEqual([['one'], ['two']]);

    recorder.finishOne();
    await nextTurn();
    expect(recorder.groups.at(-1)).toEqual(['a', 'bb', 'cc']);
    recorder.finishOne();
    await nextTurn();
    expect(recorder.groups.at(-1)).toEqual(['ddd', 'e']);
    let idle = false;
    void queue.idle().then(() => (idle = true));
    recorder.finishOne();
    await nextTurn();
    expect(idle).toBe(false);
    recorder.finishOne();
    await queue.idle();
    expect(recorder.groups).toEqual([['one'], ['two'], ['a', 'bb', 'cc'], ['ddd', 'e']]);
  });
});
