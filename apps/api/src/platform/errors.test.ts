import { connect } from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { errorResponseSchema } from '@strongroom/contracts/errors.ts';
import { describeEachDatabase } from '../test/databases.ts';
import { buildTestApp } from '../test/app.ts';
import { testAppSuite } from '../test/suite.ts';
import { insertOutboxMessage } from './messaging/outbox-repository.ts';

/** Routes that exist only in this test, to drive the real error handler. */
function addProbeRoutes(app: FastifyInstance): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.post(
    '/api/v1/test/notes',
    {
      schema: {
        body: z.object({ to: z.email('email is not valid'), text: z.string().min(1, 'field should not be empty') }),
        response: { 201: z.object({ id: z.string() }) },
      },
    },
    async (request, reply) => {
      const id = await insertOutboxMessage(app.services.db, { channel: 'email', to: request.body.to, subject: 'probe', text: request.body.text });
      return reply.status(201).send({ id });
    },
  );
  typed.get('/api/v1/test/explode', async () => {
    throw new Error('secret internals of the vault');
  });
  typed.get('/api/v1/test/leaky', { schema: { response: { 200: z.object({ name: z.string() }) } } }, async () => ({ name: 42 }) as never);
}

describeEachDatabase('the API error shape', (database) => {
  let app: FastifyInstance;
  testAppSuite(database, (built) => ({ app } = built), { beforeReady: addProbeRoutes });

  const countProbeNotes = async () => (await database().query("SELECT 1 FROM outbox_messages WHERE subject = 'probe'")).length;

  it('answers an unknown API route with 404 not_found in the error shape', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/no-such-thing' });
    expect(response.statusCode).toBe(404);
    const body = errorResponseSchema.parse(response.json());
    expect(body.error.code).toBe('not_found');
    expect(body.error.requestId).toBe(response.headers['x-request-id']);
  });

  it('answers a body that fails validation with validation_failed and a message per field, writing nothing', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/v1/test/notes', payload: { to: 'not-an-email', text: '' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: { code: 'validation_failed', fields: { to: 'email is not valid', text: 'field should not be empty' } },
    });
    expect(await countProbeNotes()).toBe(0);
  });

  it('answers malformed JSON with 400 bad_request, writing nothing', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/test/notes',
      headers: { 'content-type': 'application/json' },
      payload: '{"to": "a@b.co", ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('bad_request');
    expect(await countProbeNotes()).toBe(0);
  });

  it('answers an oversized body with 413 payload_too_large, writing nothing', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/v1/test/notes', payload: { to: 'a@b.co', text: 'x'.repeat(300 * 1024) } });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('payload_too_large');
    expect(await countProbeNotes()).toBe(0);
  });

  it('answers an unsupported content type with 415', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/v1/test/notes', headers: { 'content-type': 'application/xml' }, payload: '<a/>' });
    expect(response.statusCode).toBe(415);
    expect(response.json().error.code).toBe('unsupported_media_type');
  });

  it('accepts a valid body', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/v1/test/notes', payload: { to: 'a@b.co', text: 'hello' } });
    expect(response.statusCode).toBe(201);
    expect(await countProbeNotes()).toBe(1);
  });

  it('never shows a client the stack or the message of an unexpected error', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/test/explode' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ error: { code: 'internal_error', message: 'Something went wrong on our side' } });
    expect(response.body).not.toContain('secret internals');
    expect(response.body).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it('refuses to send a response that does not match its schema', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/test/leaky' });
    expect(response.statusCode).toBe(500);
    expect(response.json().error.code).toBe('internal_error');
  });

  it("replaces an incoming request id from a client that is no trusted proxy, and a malformed one (client-address.test.ts keeps a proxy's)", async () => {
    const untrusted = await app.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-request-id': 'proxy-trace-12345' } });
    expect(untrusted.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const replaced = await app.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-request-id': 'bad id\nwith newline' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

/** The headers every answer carries, error or not, as a successful API answer shows them. */
const securityHeaderNames = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'referrer-policy',
  'x-content-type-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'cache-control',
] as const;

function headersOf(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(securityHeaderNames.map((name) => [name, headers[name]]));
}

/** Sends raw bytes on a new connection and reads the whole answer (the server closes it). */
function rawExchange(port: number, chunks: string[], between?: () => Promise<void>): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    socket.on('end', () => resolve(received));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
    socket.once('connect', async () => {
      socket.write(chunks[0] ?? '');
      if (between) await between();
      for (const chunk of chunks.slice(1)) socket.write(chunk);
    });
  });
}

/** Splits an HTTP/1.1 answer (or several) into status, lower-cased headers and body. */
function parseAnswers(text: string): { status: number; headers: Record<string, string>; body: string }[] {
  const answers: { status: number; headers: Record<string, string>; body: string }[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1')) {
    const headEnd = rest.indexOf('\r\n\r\n');
    const [statusLine = '', ...lines] = rest.slice(0, headEnd).split('\r\n');
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    answers.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(headEnd + 4, headEnd + 4 + length) });
    rest = rest.slice(headEnd + 4 + length);
  }
  return answers;
}

describeEachDatabase('errors from every layer', (database) => {
  let app: FastifyInstance;
  let reference: Record<string, unknown>;
  let release: () => void = () => undefined;
  let slowStarted: Promise<void>;
  let markSlowStarted: () => void = () => undefined;
  let closeStarted: Promise<void>;
  let markCloseStarted: () => void = () => undefined;
  let port = 0;
  let lateRequestRefused: Promise<void>;
  let markLateRequestRefused: () => void = () => undefined;
  beforeAll(async () => {
    ({ app } = await buildTestApp(database(), {
      beforeReady: (instance) => {
        addProbeRoutes(instance);
        // Runs after the app's own preClose hooks, which were added first.
        instance.addHook('preClose', async () => markCloseStarted());
        instance.addHook('onSend', async (_request, reply, payload) => {
          if (reply.statusCode === 503) markLateRequestRefused();
          return payload;
        });
        instance.get('/api/v1/test/slow', async () => {
          markSlowStarted();
          await new Promise<void>((resolve) => (release = resolve));
          return { done: true };
        });
      },
    }));
    slowStarted = new Promise((resolve) => (markSlowStarted = resolve));
    closeStarted = new Promise((resolve) => (markCloseStarted = resolve));
    lateRequestRefused = new Promise((resolve) => (markLateRequestRefused = resolve));
    reference = headersOf((await app.inject({ method: 'GET', url: '/api/v1/health' })).headers);
  });
  afterAll(async () => {
    await app.close();
  });

  const expectErrorAnswer = (label: string, response: LightMyRequestResponse, status: number, code: string) => {
    expect(response.statusCode, `${label}: ${response.body}`).toBe(status);
    const body = errorResponseSchema.strict().parse(response.json());
    expect(body.error.code, label).toBe(code);
    expect(body.error.requestId, label).toBe(response.headers['x-request-id']);
    expect(headersOf(response.headers), label).toEqual(reference);
    expect(response.body, label).not.toMatch(/FST_|statusCode/);
  };

  it('answers a bad URL, an unknown route, a too-long parameter, 413, 415 and bad JSON in the error shape with the request id and the security headers', async () => {
    expect(reference['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(reference).toMatchObject({ 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
    const cases = [
      { label: 'bad URL', request: { method: 'GET', url: '/api/v1/transactions/%ZZ' }, status: 400, code: 'bad_request' },
      { label: 'bad URL outside the API', request: { method: 'GET', url: '/%E0%A4%A' }, status: 400, code: 'bad_request' },
      { label: 'parameter too long', request: { method: 'GET', url: `/api/v1/transfers/${'a'.repeat(150)}` }, status: 404, code: 'not_found' },
      { label: 'unknown route', request: { method: 'GET', url: '/api/v1/no-such-thing' }, status: 404, code: 'not_found' },
      { label: 'unknown method', request: { method: 'PUT', url: '/api/v1/health' }, status: 404, code: 'not_found' },
      {
        label: '413',
        request: { method: 'POST', url: '/api/v1/test/notes', payload: { to: 'a@b.co', text: 'x'.repeat(300 * 1024) } },
        status: 413,
        code: 'payload_too_large',
      },
      {
        label: '415',
        request: { method: 'POST', url: '/api/v1/test/notes', headers: { 'content-type': 'application/xml' }, payload: '<a/>' },
        status: 415,
        code: 'unsupported_media_type',
      },
      {
        label: 'bad JSON',
        request: { method: 'POST', url: '/api/v1/test/notes', headers: { 'content-type': 'application/json' }, payload: '{"to": ' },
        status: 400,
        code: 'bad_request',
      },
    ] as const;
    for (const { label, request, status, code } of cases) {
      const answer = await app.inject(request as never);
      if (label === 'bad URL outside the API') {
        // Outside /api/ nothing is no-store; everything else is the same.
        expect(answer.statusCode).toBe(status);
        expect(answer.json().error).toMatchObject({ code, requestId: answer.headers['x-request-id'] });
        expect({ ...headersOf(answer.headers), 'cache-control': reference['cache-control'] }).toEqual(reference);
        continue;
      }
      expectErrorAnswer(label, answer, status, code);
    }
  });

  it('answers bytes that are not HTTP in the error shape with a request id and the security headers, on the socket', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
    const [answer] = parseAnswers(await rawExchange(port, ['GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\nthis is not a header\r\n\r\n']));
    expect(answer?.status).toBe(400);
    const body = errorResponseSchema.strict().parse(JSON.parse(answer?.body ?? ''));
    expect(body.error).toMatchObject({ code: 'bad_request', message: 'The request is not valid HTTP' });
    expect(body.error.requestId).toBe(answer?.headers['x-request-id']);
    expect(headersOf(answer?.headers ?? {})).toEqual(reference);
  });

  it('answers a request that arrives while the server shuts down with 503 in the error shape and the security headers', async () => {
    let closing: Promise<void> | undefined;
    const exchange = rawExchange(
      port,
      ['GET /api/v1/test/slow HTTP/1.1\r\nHost: localhost\r\n\r\n', 'GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\n\r\n'],
      async () => {
        await slowStarted;
        closing = app.close();
        await closeStarted;
      },
    );
    // Node hands the second request over while the first is in progress; its 503 waits its turn.
    await lateRequestRefused;
    release();
    const answers = parseAnswers(await exchange);
    await closing;
    expect(answers.map((each) => each.status)).toEqual([200, 503]);
    const refused = answers[1];
    const refusedBody = errorResponseSchema.strict().parse(JSON.parse(refused?.body ?? ''));
    expect(refusedBody.error.code).toBe('service_unavailable');
    expect(refusedBody.error.requestId).toBe(refused?.headers['x-request-id']);
    expect(headersOf(refused?.headers ?? {})).toEqual(reference);
  });
});
