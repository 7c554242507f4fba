import { afterAll, expect, it } from 'vitest';
import type { LiveEventTopic } from '@strongroom/contracts/notifications.ts';
import { describeEachDatabase, openAnotherHandle } from '../test/databases.ts';
import { eventually as waitFor } from '../test/eventually.ts';
import { createLiveEvents, liveEventsChannel, maxPayloadBytes, payloadsOf, type LiveEvents } from './live-events.ts';

/** How long a test waits for an event that should arrive at once. */
const eventWaitMs = 5_000;

/** Waits for `condition`, at most `eventWaitMs`. */
const eventually = (condition: () => boolean, what: string) => waitFor(condition, what, { waitMs: eventWaitMs });

/** A stand-in for one API process: its own live events, and on PostgreSQL its own pool. */
interface Process {
  events: LiveEvents;
  warnings: string[];
  close(): Promise<void>;
}

describeEachDatabase('Live events through the database', (database, kind) => {
  const processes: Process[] = [];

  async function startProcess(): Promise<Process> {
    // PGlite's data directory belongs to one process: two instances share its one connection there.
    const handle = await openAnotherHandle(database());
    const warnings: string[] = [];
    const events = createLiveEvents(handle.db, { warn: (_: unknown, message?: string) => void warnings.push(message ?? '') });
    await events.start();
    let closed = false;
    const started = {
      events,
      warnings,
      async close() {
        if (closed) return;
        closed = true;
        await events.close();
        await handle.close();
      },
    };
    processes.push(started);
    return started;
  }

  afterAll(async () => {
    for (const started of processes) await started.close();
  });

  it("carries an event published in one process to the customer's subscribers in another, and to no one else", async () => {
    const publisher = await startProcess();
    const receiver = await startProcess();
    const received: LiveEventTopic[] = [];
    const strangerReceived: LiveEventTopic[] = [];
    const stop = receiver.events.subscribe('customer-a', (topic) => received.push(topic));
    const stopStranger = receiver.events.subscribe('customer-b', (topic) => strangerReceived.push(topic));

    publisher.events.publish('customer-a', 'accounts');
    await eventually(() => received.length === 1, 'the first event');
    publisher.events.publish('customer-a', 'notifications');
    await eventually(() => received.length === 2, 'the second event');
    expect(received).toEqual(['accounts', 'notifications']);
    expect(strangerReceived).toEqual([]);
    stop();
    stopStranger();
  });

  it("sends one turn's events in one notification, each once and in order, and delivers each", async () => {
    const publisher = await startProcess();
    const receiver = await startProcess();
    const payloads: string[] = [];
    const stopRaw = await database().listen(liveEventsChannel, (payload) => payloads.push(payload));
    const received: string[] = [];
    const stops = ['customer-f', 'customer-g'].map((id) => receiver.events.subscribe(id, (topic) => received.push(`${id} ${topic}`)));

    publisher.events.publish('customer-f', 'accounts');
    publisher.events.publish('customer-f', 'notifications');
    publisher.events.publish('customer-g', 'accounts');
    publisher.events.publish('customer-f', 'accounts');
    await eventually(() => received.length === 3, 'the three events');
    expect(received).toEqual(['customer-f accounts', 'customer-f notifications', 'customer-g accounts']);
    await eventually(() => payloads.length >= 1, 'the raw notification');
    expect(payloads).toEqual(['accounts customer-f\nnotifications customer-f\naccounts customer-g']);
    await stopRaw();
    for (const stop of stops) stop();
  });

  it('packs lines into payloads PostgreSQL accepts, splitting only between lines', () => {
    const line = `accounts ${'c'.repeat(40)}`;
    const lines = Array.from({ length: 500 }, () => line);
    const payloads = payloadsOf(lines);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(maxPayloadBytes);
    expect(payloads.join('\n').split('\n')).toEqual(lines);
    expect(payloadsOf([])).toEqual([]);
  });

  it('ignores a notification on the channel that is not a live event, with a warning', async () => {
    const receiver = await startProcess();
    const received: LiveEventTopic[] = [];
    const stop = receiver.events.subscribe('customer-c', (topic) => received.push(topic));
    await database().query('SELECT pg_notify($1, $2)', [liveEventsChannel, 'balances customer-c']);
    receiver.events.publish('customer-c', 'accounts');
    await eventually(() => received.length === 1, 'the real event');
    expect(received).toEqual(['accounts']);
    expect(receiver.warnings).toContain('a live event that is not one was ignored');
    stop();
  });

  it('stops hearing events once closed, and close waits for the events being sent', async () => {
    const publisher = await startProcess();
    const receiver = await startProcess();
    const late: LiveEventTopic[] = [];
    receiver.events.subscribe('customer-d', (topic) => late.push(topic));
    await receiver.close();
    publisher.events.publish('customer-d', 'accounts');
    await publisher.events.close();
    // The publisher's close resolved after its NOTIFY committed; a listener would have it by now
    // on PGlite (same connection); on PostgreSQL a third process proves the delivery happened.
    const witness = await startProcess();
    const seen: LiveEventTopic[] = [];
    witness.events.subscribe('customer-d', (topic) => seen.push(topic));
    witness.events.publish('customer-d', 'notifications');
    await eventually(() => seen.length === 1, "the witness's event");
    expect(late).toEqual([]);
  });

  it.runIf(kind === 'postgres')('listens again after losing its connection and tells every page to refetch what it may have missed', async () => {
    const publisher = await startProcess();
    const receiver = await startProcess();
    const received: LiveEventTopic[] = [];
    receiver.events.subscribe('customer-e', (topic) => received.push(topic));
    const listeners = () =>
      database().query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = $1`, [`LISTEN ${liveEventsChannel}`]);
    const before = await listeners();
    expect(before.length).toBeGreaterThanOrEqual(2);
    // End every listening connection: the receiver's among them.
    for (const { pid } of before) await database().query('SELECT pg_terminate_backend($1)', [pid]);
    await eventually(() => received.length === 2, 'the refetch after reconnecting');
    expect([...received].sort()).toEqual(['accounts', 'notifications']);

    publisher.events.publish('customer-e', 'accounts');
    await eventually(() => received.length === 3, 'an event after reconnecting');
    expect(received[2]).toBe('accounts');
  });
});
