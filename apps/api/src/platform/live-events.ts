import type { FastifyBaseLogger } from 'fastify';
import { liveEventTopicSchema, type LiveEventTopic } from '@strongroom/contracts/notifications.ts';
import type { Database } from '../db/database.ts';

/**
 * Tells a signed-in customer's open pages that something of theirs changed (a balance, a
 * notification), so they refetch it without a reload. Through the database (decision 043): publish
 * is one `pg_notify` on the `live_events` channel, and every API process (each worker, each
 * machine on the same DATABASE_URL) listens there and hands the event to the pages connected to
 * it. A process whose listening connection was lost tells every page it holds to refetch
 * everything once it listens again, since what was published meanwhile is gone; the web also
 * refetches when a window regains focus.
 * Publish after the change has committed, never inside its transaction.
 *
 * The events published in one turn of the event loop travel together: one `pg_notify` whose
 * payload is one event per line (a payment's four events, and every other request's of that turn,
 * cost one statement instead of one each; decision 044). An event repeated in a turn is sent once.
 */
export type LiveEventListener = (topic: LiveEventTopic) => void;

export interface LiveEvents {
  /** Sends when this turn of the event loop ends, with the turn's other events; never waits, its failure logged, never the caller's. */
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
 * An event is the topic and the customer's id, nothing else (it passes through the database and
 * anyone listening on it); one notification carries a turn's events, a line each.
 */
function lineOf(customerId: string, topic: LiveEventTopic): string {
  return `${topic} ${customerId}`;
}

function parseLine(line: string): { customerId: string; topic: LiveEventTopic } | undefined {
  const separator = line.indexOf(' ');
  const topic = liveEventTopicSchema.safeParse(line.slice(0, separator));
  const customerId = line.slice(separator + 1);
  if (separator < 0 || !topic.success || customerId === '') return undefined;
  return { customerId, topic: topic.data };
}

/** PostgreSQL refuses a payload of 8000 bytes or more; a turn's events beyond this go in the next notification. */
export const maxPayloadBytes = 7_900;

/** The lines, in order, packed into as few payloads as fit. */
export function payloadsOf(lines: readonly string[]): string[] {
  const payloads: string[] = [];
  let current = '';
  for (const line of lines) {
    if (current !== '' && Buffer.byteLength(current) + 1 + Buffer.byteLength(line) > maxPayloadBytes) {
      payloads.push(current);
      current = '';
    }
    current = current === '' ? line : `${current}\n${line}`;
  }
  if (current !== '') payloads.push(current);
  return payloads;
}

export function createLiveEvents(db: Pick<Database, 'query' | 'listen'>, log?: Pick<FastifyBaseLogger, 'warn'>): LiveEvents {
  const listeners = new Map<string, Set<LiveEventListener>>();
  const sending = new Set<Promise<void>>();
  let stopListening: (() => Promise<void>) | undefined;

  const deliver = (customerId: string, topic: LiveEventTopic) => {
    for (const listener of listeners.get(customerId) ?? []) listener(topic);
  };
  const onNotification = (payload: string) => {
    for (const line of payload.split('\n')) {
      const event = parseLine(line);
      if (event) deliver(event.customerId, event.topic);
      else log?.warn({ channel: liveEventsChannel }, 'a live event that is not one was ignored');
    }
  };
  /** This turn's events, in the order published, each once; sent when the turn ends. */
  let turn: Set<string> | undefined;
  const send = (payload: string) => {
    const sent = db.query('SELECT pg_notify($1, $2)', [liveEventsChannel, payload], { name: 'live_events_publish' }).then(
      () => undefined,
      // Without a log (the ops CLI) a lost event is only a page that refetches on focus.
      (error: unknown) => log?.warn({ err: error }, 'a live event could not be published'),
    );
    sending.add(sent);
    void sent.finally(() => sending.delete(sent));
  };
  const flush = () => {
    const lines = turn;
    turn = undefined;
    if (lines) for (const payload of payloadsOf([...lines])) send(payload);
  };
  const onReconnected = () => {
    for (const customerId of listeners.keys()) for (const topic of liveEventTopicSchema.options) deliver(customerId, topic);
  };

  return {
    publish(customerId, topic) {
      if (!turn) {
        turn = new Set();
        setImmediate(flush);
      }
      turn.add(lineOf(customerId, topic));
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
      flush();
      await Promise.all(sending);
      await stopListening?.();
      stopListening = undefined;
    },
  };
}
