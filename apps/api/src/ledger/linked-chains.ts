/**
 * TigerBeetle's linked events: an event with the linked flag belongs to one chain with the next
 * event; a chain succeeds or fails as one. The first event of a chain to fail keeps its own result,
 * every other event of the chain answers linked_event_failed, and the chain's effects are undone
 * so that later events of the batch never see them. A batch may not end inside a chain.
 */

export interface UndoScope {
  /** A point to return to. */
  mark(): number;
  /** Undoes every change made since `mark`. */
  rollback(mark: number): void;
}

export type ChainResult<Result extends string> = Result | 'linked_event_failed' | 'linked_event_chain_open';

export function applyLinkedChains<Event, Result extends string>(
  events: readonly Event[],
  isLinked: (event: Event) => boolean,
  apply: (event: Event, index: number) => Result | 'ok',
  scope: UndoScope,
  /** Called for the event whose own failure broke its chain (or for a failed unlinked event), after the undo. */
  onFailure: (event: Event, result: Result | 'linked_event_chain_open') => void,
): Array<ChainResult<Result> | 'ok'> {
  const results: Array<ChainResult<Result> | 'ok'> = [];
  let chainStart: number | undefined;
  let chainMark = 0;
  let chainBroken = false;

  for (const [index, event] of events.entries()) {
    const linked = isLinked(event);
    if (linked && chainStart === undefined) {
      chainStart = index;
      chainMark = scope.mark();
      chainBroken = false;
    }

    let result: ChainResult<Result> | 'ok';
    if (chainBroken) {
      result = 'linked_event_failed';
    } else if (linked && index === events.length - 1) {
      result = 'linked_event_chain_open';
    } else {
      result = apply(event, index);
    }
    results.push(result);

    if (result !== 'ok' && result !== 'linked_event_failed') {
      if (chainStart !== undefined) {
        chainBroken = true;
        scope.rollback(chainMark);
        for (let earlier = chainStart; earlier < index; earlier += 1) results[earlier] = 'linked_event_failed';
      }
      onFailure(event, result);
    }

    // An unlinked event closes the chain it ends (or stands alone).
    if (!linked) {
      chainStart = undefined;
      chainBroken = false;
    }
  }
  return results;
}
