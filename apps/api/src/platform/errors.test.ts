import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { errorResponseSchema } from '@strongroom/contracts/errors.ts';
import { describeEachDatabase } from '../test/databases.ts';
import { buildTestApp } from '../test/app.ts';
import { insertOutboxMessage } from './messaging/outbox-repository.ts';

/** Routes that exist only in this test, to drive the real error handler. */
function addProbeRoutes(app: FastifyInstance): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.post(
    '/api/v1/test/notes',
    { schema: { body: z.object({ to: z.email('email is not valid'), text: z.string().min(1, 'field should not be empty') }), response: { 201: z.object({ id: z.string() }) } } },
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
  beforeAll(async () => {
    ({ app } = await buildTestApp(database(), { beforeReady: addProbeRoutes }));
  });

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
    const response = await app.inject({ method: 'POST', url: '/api/v1/test/notes', headers: { 'content-type': 'application/json' }, payload: '{"to": "a@b.co", ' });
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

  it('keeps a well-formed incoming request id and replaces a malformed one', async () => {
    const kept = await app.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-request-id': 'proxy-trace-12345' } });
    expect(kept.headers['x-request-id']).toBe('proxy-trace-12345');
    const replaced = await app.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-request-id': 'bad id\nwith newline' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
