import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDatabase } from '../test/databases.ts';
import { buildTestApp } from '../test/app.ts';
import { insertBareCustomer } from '../test/customers.ts';
import { createSession, endAllSessions, endSession, hashSessionId } from './session.ts';

let customerId = '';

function addProbeRoute(app: FastifyInstance): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v1/test/writes',
    { schema: { body: z.object({ note: z.string() }), response: { 201: z.object({ ok: z.boolean() }) } } },
    async (request, reply) => {
      await app.services.db.query("INSERT INTO outbox_messages (channel, to_address, subject, text_body) VALUES ('email', 'csrf@probe.co', 'csrf', $1)", [request.body.note]);
      return reply.status(201).send({ ok: true });
    },
  );
}

describeEachDatabase('sessions and CSRF', (database) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    ({ app } = await buildTestApp(database(), { beforeReady: addProbeRoute }));
    customerId = await insertBareCustomer(database());
  });

  const me = (sessionId?: string) =>
    app.inject({ method: 'GET', url: '/api/v1/me', cookies: sessionId ? { session: sessionId } : {} });

  it('answers /me with 401 unauthenticated without a session', async () => {
    const response = await me();
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('unauthenticated');
    expect((await me('made-up-session-id')).statusCode).toBe(401);
  });

  it('answers /me for a live session and stores only the hash of its 256-bit id', async () => {
    const { sessionId } = await createSession(database(), { realm: 'customer', subjectId: customerId });
    expect(Buffer.from(sessionId, 'base64url')).toHaveLength(32);
    const response = await me(sessionId);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ user: { id: customerId, emailVerified: false }, next: 'verify-email' });
    const rows = await database().query<{ id_hash: Buffer }>('SELECT id_hash FROM sessions');
    expect(rows.some((row) => Buffer.from(row.id_hash).equals(hashSessionId(sessionId)))).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(sessionId);
  });

  it('ends a session after 15 idle minutes', async () => {
    const { sessionId } = await createSession(database(), { realm: 'customer', subjectId: customerId });
    await database().query("UPDATE sessions SET last_seen_at = now() - interval '16 minutes' WHERE id_hash = $1", [hashSessionId(sessionId)]);
    expect((await me(sessionId)).statusCode).toBe(401);
  });

  it('keeps an active session alive, writing its last-seen time at most once a minute', async () => {
    const { sessionId } = await createSession(database(), { realm: 'customer', subjectId: customerId });
    const lastSeen = async () =>
      (await database().query<{ last_seen_at: Date }>('SELECT last_seen_at FROM sessions WHERE id_hash = $1', [hashSessionId(sessionId)]))[0]?.last_seen_at.getTime() ?? 0;
    await database().query("UPDATE sessions SET last_seen_at = now() - interval '14 minutes' WHERE id_hash = $1", [hashSessionId(sessionId)]);
    expect((await me(sessionId)).statusCode).toBe(200);
    const refreshed = await lastSeen();
    expect(Date.now() - refreshed).toBeLessThan(60_000);
    expect((await me(sessionId)).statusCode).toBe(200);
    expect(await lastSeen()).toBe(refreshed);
  });

  it('ends a session 12 hours after it began however active it is', async () => {
    const { sessionId } = await createSession(database(), { realm: 'customer', subjectId: customerId });
    await database().query("UPDATE sessions SET absolute_expires_at = now() - interval '1 second' WHERE id_hash = $1", [hashSessionId(sessionId)]);
    expect((await me(sessionId)).statusCode).toBe(401);
  });

  it('does not accept a staff session as a customer session', async () => {
    const { sessionId } = await createSession(database(), { realm: 'staff', subjectId: customerId });
    expect((await me(sessionId)).statusCode).toBe(401);
  });

  it('ends a session on the server, and can end all sessions but one', async () => {
    const first = await createSession(database(), { realm: 'customer', subjectId: customerId });
    const second = await createSession(database(), { realm: 'customer', subjectId: customerId });
    await endSession(database(), first.sessionId);
    expect((await me(first.sessionId)).statusCode).toBe(401);
    const third = await createSession(database(), { realm: 'customer', subjectId: customerId });
    await endAllSessions(database(), 'customer', customerId, hashSessionId(third.sessionId));
    expect((await me(second.sessionId)).statusCode).toBe(401);
    expect((await me(third.sessionId)).statusCode).toBe(200);
  });

  it('refuses an unsafe request with a session but no matching CSRF token, changing nothing', async () => {
    const { sessionId, csrfToken } = await createSession(database(), { realm: 'customer', subjectId: customerId });
    const attempts: { cookies: Record<string, string>; headers: Record<string, string> }[] = [
      { cookies: { session: sessionId }, headers: {} },
      { cookies: { session: sessionId, csrf: csrfToken }, headers: {} },
      { cookies: { session: sessionId, csrf: csrfToken }, headers: { 'x-csrf-token': `${csrfToken}x` } },
    ];
    for (const attempt of attempts) {
      const response = await app.inject({ method: 'POST', url: '/api/v1/test/writes', payload: { note: 'forged' }, ...attempt });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('forbidden');
    }
    expect(await database().query("SELECT 1 FROM outbox_messages WHERE text_body = 'forged'")).toHaveLength(0);
    const audit = await database().query("SELECT 1 FROM audit_log WHERE action = 'csrf.rejected' AND outcome = 'denied'");
    expect(audit.length).toBeGreaterThanOrEqual(3);
  });

  it('accepts an unsafe request whose header equals the csrf cookie', async () => {
    const { sessionId, csrfToken } = await createSession(database(), { realm: 'customer', subjectId: customerId });
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/test/writes',
      payload: { note: 'genuine' },
      cookies: { session: sessionId, csrf: csrfToken },
      headers: { 'x-csrf-token': csrfToken },
    });
    expect(response.statusCode).toBe(201);
  });

  it('uses the __Host- cookie name over HTTPS', async () => {
    const { sessionId } = await createSession(database(), { realm: 'customer', subjectId: customerId });
    const { app: httpsApp } = await buildTestApp(database(), { environment: { TRUST_PROXY: 'true' } });
    const plain = await httpsApp.inject({ method: 'GET', url: '/api/v1/me', headers: { 'x-forwarded-proto': 'https' }, cookies: { session: sessionId } });
    expect(plain.statusCode).toBe(401);
    const prefixed = await httpsApp.inject({ method: 'GET', url: '/api/v1/me', headers: { 'x-forwarded-proto': 'https' }, cookies: { '__Host-session': sessionId } });
    expect(prefixed.statusCode).toBe(200);
    await httpsApp.close();
  });
});
