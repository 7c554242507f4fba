import type { LiveEventTopic } from '@strongroom/contracts/notifications.ts';

/**
 * Tells a signed-in customer's open pages that something of theirs changed (a balance, a
 * notification), so they refetch it without a reload. In-process: with several API processes each
 * tells only the pages connected to it (noted in docs/decisions/016-money-movement.md); the web
 * also refetches when a window regains focus, so nothing stays stale for long.
 * Publish after the change has committed, never inside its transaction.
 */
export type LiveEventListener = (topic: LiveEventTopic) => void;

export interface LiveEvents {
  publish(customerId: string, topic: LiveEventTopic): void;
  subscribe(customerId: string, listener: LiveEventListener): () => void;
  /** Open subscriptions, for metrics and tests. */
  size(): number;
}

/** Most open streams one customer may hold (tabs and devices); the oldest is dropped beyond it. */
export const maxStreamsPerCustomer = 10;

export function createLiveEvents(): LiveEvents {
  const listeners = new Map<string, Set<LiveEventListener>>();
  return {
    publish(customerId, topic) {
      for (const listener of listeners.get(customerId) ?? []) listener(topic);
    },
    subscribe(customerId, listener) {
      let set = listeners.get(customerId);
      if (!set) {
        set = new Set();
        listeners.set(customerId, set);
      }
      set.add(listener);
      return () => {
        // Safe to call twice: only this subscription's own set is touched.
        set.delete(listener);
        if (set.size === 0 && listeners.get(customerId) === set) listeners.delete(customerId);
      };
    },
    size() {
      let total = 0;
      for (const set of listeners.values()) total += set.size;
      return total;
    },
  };
}
