import type { FastifyBaseLogger } from 'fastify';
import { liveEventTopicSchema, type LiveEventTopic } from '@strongroom/contracts/notifications.ts';
import type { Database } from '../db/database.ts';

/**
 * Tells a signed-in customer's open pages that something of theirs changed (a balance, a
 * notification), so they refetch it without a reload. Through the database (decision 043): an event
 * is a `pg_notify` on the `live_events` channel, and every API process (each worker, each machine
 * on the same DATABASE_URL) listens there and hands the event to the pages connected to it. The
 * events published in one turn of the event loop (a group of payments tells each payer and payee
 * two or three things) go in one statement, each distinct event once: one round trip and one
 * commit instead of one per event. A process whose listening connection was lost tells every page it holds to refetch
 * everything once it listens again, since what was published meanwhile is gone; the web also
 * refetches when a window regains focus.
 * Publish after the change has committed, never inside its transaction.
 */
export type LiveEventListener = (topic: LiveEventTopic) => void;

export interface LiveEvents {
  /**
   * Sends without waiting, with the others of this turn of the event loop in one statement; its
   * failure is logged, never the caller's.
   */
  publish(customerId: string, topic: LiveEventTopic): void;
  subscribe(customerId: string, listener: LiveEventListener): () => void;
  /** Open subscriptions in this process, for metrics and tests. */
  size(): number;
  /** Starts hearing events from every process (without it, this one only publishes: the ops CLI). */
  start(): Promise<void>;
  /** Stops listening and waits for the events being sent. */
  close(): Promise<void>;
}

/** Most open streams one customer may hold (tabs and devices); the oldest is dropped beyond it. */
export const maxStreamsPerCustomer = 10;

export const liveEventsChannel = 'live_events';

/**
 * The payload is the customer's id and the topic, nothing else (it passes through the database
 * and anyone listening on it); PostgreSQL caps a payload at 8000 bytes, far above this.
 */
function payloadOf(customerId: string, topic: LiveEventTopic): string {
  return `${topic} ${customerId}`;
}

function parsePayload(payload: string): { customerId: string; topic: LiveEventTopic } | undefined {
  const separator = payload.indexOf(' ');
  const topic = liveEventTopicSchema.safeParse(payload.slice(0, separator));
  const customerId = payload.slice(separator + 1);
  if (separator < 0 || !topic.success || customerId === '') return undefined;
  return { customerId, topic: topic.data };
}

export function createLiveEvents(db: Pick<Database, 'query' | 'listen'>, log?: Pick<FastifyBaseLogger, 'warn'>): LiveEvents {
  const listeners = new Map<string, Set<LiveEventListener>>();
  const sending = new Set<Promise<void>>();
  /** Payloads published in this turn of the event loop, each once, in the order first published. */
  let pending = new Set<string>();
  let flushing: NodeJS.Immediate | undefined;
  let stopListening: (() => Promise<void>) | undefined;

  const deliver = (customerId: string, topic: LiveEventTopic) => {
    for (const listener of listeners.get(customerId) ?? []) listener(topic);
  };
  const onNotification = (payload: string) => {
    const event = parsePayload(payload);
    if (event) deliver(event.customerId, event.topic);
    else log?.warn({ channel: liveEventsChannel }, 'a live event that is not one was ignored');
  };
  const onReconnected = () => {
    for (const customerId of listeners.keys()) for (const topic of liveEventTopicSchema.options) deliver(customerId, topic);
  };

  const flush = () => {
    flushing = undefined;
    if (pending.size === 0) return;
    const payloads = [...pending];
    pending = new Set();
    // unnest keeps the array's order, and PostgreSQL delivers one transaction's notifications in order.
    const sent = db
      .query('SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload', [liveEventsChannel, payloads], { name: 'live_events_publish' })
      .then(
        () => undefined,
        // Without a log (the ops CLI) a lost event is only a page that refetches on focus.
        (error: unknown) => log?.warn({ err: error, events: payloads.length }, 'live events could not be published'),
      );
    sending.add(sent);
    void sent.finally(() => sending.delete(sent));
  };

  return {
    publish(customerId, topic) {
      pending.add(payloadOf(customerId, topic));
      flushing ??= setImmediate(flush);
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
    async start() {
      stopListening ??= await db.listen(liveEventsChannel, onNotification, onReconnected);
    },
    async close() {
      if (flushing) clearImmediate(flushing);
      flush();
      await Promise.all(sending);
      await stopListening?.();
      stopListening = undefined;
    },
  };
}
