import { get, type ClientRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { maxStreamsPerCustomer } from '../../platform/live-events.ts';
import { createSession } from '../../platform/session.ts';
import { buildTestApp, type LogCapture } from '../../test/app.ts';
import { insertBareCustomer } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { eventually } from '../../test/eventually.ts';
import { heartbeatIntervalMs, reconnectDelayMs } from './routes.ts';

/** How long a test waits for something the stream should carry at once. */
const streamWaitMs = 5_000;

interface Stream {
  request: ClientRequest;
  response: IncomingMessage;
  /** Everything received so far. */
  text(): string;
  /** Resolves once the stream has carried `expected`. */
  waitFor(expected: string): Promise<void>;
  ended: Promise<void>;
}

function openStream(baseUrl: string, sessionId: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const request = get(`${baseUrl}/api/v1/events`, { headers: { cookie: `session=${sessionId}`, accept: 'text/event-stream' } }, (response) => {
      let received = '';
      const waiting = new Set<() => void>();
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        received += chunk;
        for (const check of [...waiting]) check();
      });
      const ended = new Promise<void>((done) => response.once('close', done));
      resolve({
        request,
        response,
        text: () => received,
        ended,
        waitFor: (expected) =>
          new Promise((done, fail) => {
            const timer = setTimeout(
              () => fail(new Error(`the stream did not carry ${JSON.stringify(expected)}; it carried ${JSON.stringify(received)}`)),
              streamWaitMs,
            );
            const check = () => {
              if (!received.includes(expected)) return;
              clearTimeout(timer);
              waiting.delete(check);
              done();
            };
            waiting.add(check);
            check();
          }),
      });
    });
    request.on('error', reject);
  });
}

describeEachDatabase('GET /api/v1/events', (database) => {
  let app: FastifyInstance;
  let logs: LogCapture;
  let baseUrl = '';
  let closed = false;
  beforeAll(async () => {
    ({ app, logs } = await buildTestApp(database()));
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (!closed) await app.close();
  });
  // The server notices a disconnect a moment after the client makes it; each test starts with none.
  afterEach(async () => {
    await eventually(() => app.services.liveEvents.size() === 0, 'the stream closing', { waitMs: streamWaitMs });
  });

  const signedInCustomer = async () => {
    const customerId = await insertBareCustomer(database());
    const { sessionId } = await createSession(database(), { realm: 'customer', subjectId: customerId });
    return { customerId, sessionId };
  };
  const connected = `retry: ${reconnectDelayMs}\n\n`;

  it('answers 401 without a signed-in customer', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/events' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('unauthenticated');
    const stale = await app.inject({ method: 'GET', url: '/api/v1/events', cookies: { session: 'not-a-session' } });
    expect(stale.statusCode).toBe(401);
  });

  it("streams a change event for each topic published to the customer, and none of another customer's", async () => {
    const { customerId, sessionId } = await signedInCustomer();
    const stranger = await signedInCustomer();
    const stream = await openStream(baseUrl, sessionId);
    expect(stream.response.statusCode).toBe(200);
    expect(stream.response.headers).toMatchObject({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      'x-request-id': expect.any(String),
      'content-security-policy': expect.stringContaining("default-src 'self'"),
    });
    await stream.waitFor(connected);
    expect(stream.text()).toMatch(/^: .*\n/);

    app.services.liveEvents.publish(stranger.customerId, 'notifications');
    app.services.liveEvents.publish(customerId, 'accounts');
    await stream.waitFor('event: change\ndata: accounts\n\n');
    app.services.liveEvents.publish(customerId, 'notifications');
    await stream.waitFor('event: change\ndata: notifications\n\n');
    expect(stream.text().match(/event: change/g)).toHaveLength(2);
    expect(stream.text().indexOf('data: accounts')).toBeLessThan(stream.text().indexOf('data: notifications'));

    stream.request.destroy();
    await stream.ended;
    // A hand-written answer must not look like a handler that forgot to answer.
    expect(logs.lines.filter((line) => (JSON.parse(line) as { level: number }).level >= 40)).toEqual([]);
  });

  it('stops listening when the client disconnects', async () => {
    const { sessionId } = await signedInCustomer();
    const stream = await openStream(baseUrl, sessionId);
    await stream.waitFor(connected);
    expect(app.services.liveEvents.size()).toBe(1);
    stream.request.destroy();
    await eventually(() => app.services.liveEvents.size() === 0, 'the stream closing', { waitMs: streamWaitMs });
  });

  it('sends a comment as a heartbeat while nothing happens', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { sessionId } = await signedInCustomer();
      const stream = await openStream(baseUrl, sessionId);
      await stream.waitFor(connected);
      vi.advanceTimersByTime(heartbeatIntervalMs);
      await stream.waitFor(': heartbeat\n\n');
      stream.request.destroy();
      await stream.ended;
    } finally {
      vi.useRealTimers();
    }
  });

  it(`keeps at most ${maxStreamsPerCustomer} streams per customer, ending the oldest`, async () => {
    const { customerId, sessionId } = await signedInCustomer();
    const streams: Stream[] = [];
    for (let index = 0; index <= maxStreamsPerCustomer; index++) {
      const stream = await openStream(baseUrl, sessionId);
      await stream.waitFor(connected);
      streams.push(stream);
    }
    const [oldest, ...newer] = streams;
    await oldest?.ended;
    expect(app.services.liveEvents.size()).toBe(maxStreamsPerCustomer);
    app.services.liveEvents.publish(customerId, 'accounts');
    await Promise.all(newer.map((stream) => stream.waitFor('data: accounts')));
    for (const stream of newer) stream.request.destroy();
  });

  it('ends open streams when the server closes', async () => {
    const { sessionId } = await signedInCustomer();
    const stream = await openStream(baseUrl, sessionId);
    await stream.waitFor(connected);
    closed = true;
    await app.close();
    await stream.ended;
    expect(app.services.liveEvents.size()).toBe(0);
  });
});
