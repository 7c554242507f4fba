import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDatabase } from '../test/databases.ts';
import { buildTestApp } from '../test/app.ts';
import { testAppSuite } from '../test/suite.ts';
import { insertBareCustomer, onboardedCustomer, testPassword } from '../test/customers.ts';
import { recordingStatements, type RecordedStatement } from '../test/recording-database.ts';
import { createHmac, randomBytes } from 'node:crypto';
import { createSession, endAllSessions, endSession, hashSessionId, resolveSession } from './session.ts';

let customerId = '';

function addProbeRoute(app: FastifyInstance): void {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/api/v1/test/writes',
      { schema: { body: z.object({ note: z.string() }), response: { 201: z.object({ ok: z.boolean() }) } } },
      async (request, reply) => {
        await app.services.db.query("INSERT INTO outbox_messages (channel, to_address, subject, text_body) VALUES ('email', 'csrf@probe.co', 'csrf', $1)", [
          request.body.note,
        ]);
        return reply.status(201).send({ ok: true });
      },
    );
}

describeEachDatabase('sessions and CSRF', (database) => {
  let app: FastifyInstance;
  let config: Config;
  testAppSuite(database, (built) => ({ app, config } = built), { beforeReady: addProbeRoute });

  /** A write to the probe route with `note`, in session `sessionId`, with the csrf cookie (when given) and header. */
  const writeNote = (note: string, sessionId: string, csrf: { cookie?: string; header: string }) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/test/writes',
      payload: { note },
      cookies: { session: sessionId, ...(csrf.cookie === undefined ? {} : { csrf: csrf.cookie }) },
      headers: { 'x-csrf-token': csrf.header },
    });
  beforeAll(async () => {
    customerId = await insertBareCustomer(database());
  });

  const me = (sessionId?: string) => app.inject({ method: 'GET', url: '/api/v1/me', cookies: sessionId ? { session: sessionId } : {} });

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
      (
        await database().query<{ last_seen_at: Date }>('SELECT last_seen_at FROM sessions WHERE id_hash = $1', [hashSessionId(sessionId)])
      )[0]?.last_seen_at.getTime() ?? 0;
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
    const { sessionId } = await createSession(database(), { realm: 'customer', subjectId: customerId });
    const csrfToken = app.csrfTokenFor(sessionId);
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
    const { sessionId } = await createSession(database(), { realm: 'customer', subjectId: customerId });
    const csrfToken = app.csrfTokenFor(sessionId);
    const response = await writeNote('genuine', sessionId, { cookie: csrfToken, header: csrfToken });
    expect(response.statusCode).toBe(201);
  });

  it('uses the __Host- cookie name over HTTPS', async () => {
    const { sessionId } = await createSession(database(), { realm: 'customer', subjectId: customerId });
    const { app: httpsApp } = await buildTestApp(database(), { environment: { TRUST_PROXY: 'true' } });
    const plain = await httpsApp.inject({ method: 'GET', url: '/api/v1/me', headers: { 'x-forwarded-proto': 'https' }, cookies: { session: sessionId } });
    expect(plain.statusCode).toBe(401);
    const prefixed = await httpsApp.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { 'x-forwarded-proto': 'https' },
      cookies: { '__Host-session': sessionId },
    });
    expect(prefixed.statusCode).toBe(200);
    await httpsApp.close();
  });

  it('refuses a csrf cookie and header that an attacker chose, even when the two agree', async () => {
    const { sessionId } = await createSession(database(), { realm: 'customer', subjectId: customerId });
    const planted = randomBytes(32).toString('base64url');
    const response = await writeNote('planted', sessionId, { cookie: planted, header: planted });
    expect(response.statusCode).toBe(403);
    expect(await database().query("SELECT 1 FROM outbox_messages WHERE text_body = 'planted'")).toHaveLength(0);
  });

  it("derives the token from the session: the HMAC-SHA256 of its id under the session secret, and no other session's token passes", async () => {
    const { sessionId } = await createSession(database(), { realm: 'customer', subjectId: customerId });
    const other = await createSession(database(), { realm: 'customer', subjectId: customerId });
    const expected = createHmac('sha256', config.secrets.sessionSecret).update(`csrf:${sessionId}`).digest('base64url');
    expect(app.csrfTokenFor(sessionId)).toBe(expected);
    const borrowed = await writeNote('borrowed', sessionId, { header: app.csrfTokenFor(other.sessionId) });
    expect(borrowed.statusCode).toBe(403);
    const own = await writeNote('own', sessionId, { header: expected });
    expect(own.statusCode).toBe(201);
  });

  it('gives a session from before the change its derived csrf cookie on the next page load, so nobody is locked out', async () => {
    const { sessionId } = await createSession(database(), { realm: 'customer', subjectId: customerId });
    const oldRandomCookie = randomBytes(32).toString('base64url');
    const stale = await writeNote('stale', sessionId, { cookie: oldRandomCookie, header: oldRandomCookie });
    expect(stale.statusCode).toBe(403);
    const page = await app.inject({ method: 'GET', url: '/api/v1/me', cookies: { session: sessionId, csrf: oldRandomCookie } });
    expect(page.statusCode).toBe(200);
    const reissued = page.cookies.find((cookie) => cookie.name === 'csrf');
    expect(reissued).toMatchObject({ value: app.csrfTokenFor(sessionId), path: '/', sameSite: 'Lax' });
    expect(reissued?.httpOnly).toBeFalsy();
    const retried = await writeNote('retried', sessionId, { cookie: reissued?.value ?? '', header: reissued?.value ?? '' });
    expect(retried.statusCode).toBe(201);
    const settled = await app.inject({ method: 'GET', url: '/api/v1/me', cookies: { session: sessionId, csrf: app.csrfTokenFor(sessionId) } });
    expect(settled.cookies.find((cookie) => cookie.name === 'csrf')).toBeUndefined();
  });

  it('names the csrf cookie __Host-csrf over HTTPS, Secure for the whole site, and accepts its token', async () => {
    const { app: httpsApp } = await buildTestApp(database(), { environment: { TRUST_PROXY: '1' }, beforeReady: addProbeRoute });
    const email = `${randomBytes(6).toString('hex')}@example.com`;
    await onboardedCustomer({ db: database(), storage: httpsApp.services.storage, encryptionKey: config.secrets.encryptionKey }, { email });
    const login = await httpsApp.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'x-forwarded-proto': 'https' },
      payload: { email, password: testPassword },
    });
    expect(login.statusCode, login.body).toBe(200);
    const session = login.cookies.find((cookie) => cookie.name === '__Host-session');
    const csrf = login.cookies.find((cookie) => cookie.name === '__Host-csrf');
    expect(csrf).toMatchObject({ secure: true, path: '/', sameSite: 'Lax', value: httpsApp.csrfTokenFor(session?.value ?? '') });
    expect(csrf?.domain).toBeUndefined();
    expect(login.cookies.find((cookie) => cookie.name === 'csrf')).toBeUndefined();
    const write = await httpsApp.inject({
      method: 'POST',
      url: '/api/v1/test/writes',
      headers: { 'x-forwarded-proto': 'https', 'x-csrf-token': csrf?.value ?? '' },
      cookies: { '__Host-session': session?.value ?? '', '__Host-csrf': csrf?.value ?? '' },
      payload: { note: 'over https' },
    });
    expect(write.statusCode).toBe(201);
    await httpsApp.close();
  });

  it('reads the sessions asked for at the same moment in one statement, each answered as if alone, and touches each stale one once', async () => {
    const db = database();
    const statements: RecordedStatement[] = [];
    const counting = recordingStatements(db, statements);
    const alice = await insertBareCustomer(db);
    const bob = await insertBareCustomer(db);
    const { sessionId: aliceSession } = await createSession(db, { realm: 'customer', subjectId: alice });
    const { sessionId: bobSession } = await createSession(db, { realm: 'customer', subjectId: bob });
    const { sessionId: ended } = await createSession(db, { realm: 'customer', subjectId: bob });
    await endSession(db, ended);
    // Seen two minutes ago: reading it touches it.
    await db.query(`UPDATE sessions SET last_seen_at = now() - interval '2 minutes' WHERE id_hash = $1`, [hashSessionId(aliceSession)]);

    const answers = await Promise.all([
      resolveSession(counting, aliceSession, 'customer'),
      resolveSession(counting, 'no-such-session', 'customer'),
      resolveSession(counting, bobSession, 'customer'),
      resolveSession(counting, ended, 'customer'),
      resolveSession(counting, bobSession, 'staff'),
      resolveSession(counting, aliceSession, 'customer'),
    ]);
    expect(statements).toHaveLength(1);
    expect(answers.map((answer) => answer?.subjectId)).toEqual([alice, undefined, bob, undefined, undefined, alice]);
    expect(answers[0]?.idHash.equals(hashSessionId(aliceSession))).toBe(true);
    const [touched] = await db.query<{ fresh: boolean }>(`SELECT last_seen_at > now() - interval '1 minute' AS fresh FROM sessions WHERE id_hash = $1`, [
      hashSessionId(aliceSession),
    ]);
    expect(touched?.fresh).toBe(true);

    // Inside a transaction the lookup is the transaction's own, one statement for itself.
    const seen = await db.transaction(async (tx) => resolveSession(tx, bobSession, 'customer'));
    expect(seen?.subjectId).toBe(bob);
  });
});
