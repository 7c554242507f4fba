import type { FastifyInstance } from 'fastify';
import { recordingStatements, type RecordedStatement } from '../../test/recording-database.ts';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/databases.ts';
import { buildTestApp } from '../../test/app.ts';
import { lastMessageTo, TestBrowser, tokenFromLink } from '../../test/client.ts';
import { onboardedCustomer, testPassword } from '../../test/customers.ts';
import { throttlePolicy } from '../../platform/login-throttle.ts';

describeEachDatabase('signing in, out, and recovering a password', (database) => {
  let app: FastifyInstance;
  const email = 'grace@example.com';
  beforeAll(async () => {
    ({ app } = await buildTestApp(database()));
    await onboardedCustomer({ db: database(), storage: app.services.storage, encryptionKey: Buffer.alloc(32, 7) }, { email });
  });

  const logIn = (browser: TestBrowser, password: string, who = email) => browser.post('/api/v1/auth/login', { email: who, password });

  it('signs in with { user, next } and sets an HttpOnly session cookie and a readable csrf cookie', async () => {
    const browser = new TestBrowser(app);
    const response = await logIn(browser, testPassword);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ user: { email, accountVerified: true }, next: 'dashboard' });
    const session = response.cookies.find((cookie) => cookie.name === 'session');
    const csrf = response.cookies.find((cookie) => cookie.name === 'csrf');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(csrf?.httpOnly).toBeFalsy();
    expect(JSON.stringify(response.json())).not.toMatch(/password|hash/i);
  });

  it('answers a wrong password and an unknown email with the same status and message', async () => {
    const wrongPassword = await logIn(new TestBrowser(app), 'not the password at all');
    const unknownEmail = await logIn(new TestBrowser(app), testPassword, 'nobody@example.com');
    for (const response of [wrongPassword, unknownEmail]) {
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toMatchObject({ code: 'unauthenticated', message: 'Email or password is incorrect' });
    }
  });

  it('gives a new session id at every sign-in and ends the one the browser had', async () => {
    const browser = new TestBrowser(app);
    await logIn(browser, testPassword);
    const first = browser.cookies.session;
    await logIn(browser, testPassword);
    expect(browser.cookies.session).not.toBe(first);
    const stale = await app.inject({ method: 'GET', url: '/api/v1/me', cookies: { session: first ?? '' } });
    expect(stale.statusCode).toBe(401);
  });

  it('slows an account down after five failures with 429 and Retry-After, and lets the customer in once the wait is over', async () => {
    const target = 'throttled@example.com';
    await onboardedCustomer({ db: database(), storage: app.services.storage, encryptionKey: Buffer.alloc(32, 7) }, { email: target });
    for (let failure = 0; failure < throttlePolicy.account.freeFailures; failure++) {
      expect((await logIn(new TestBrowser(app), 'wrong password!', target)).statusCode).toBe(401);
    }
    expect((await logIn(new TestBrowser(app), 'wrong password!', target)).statusCode).toBe(401);
    const blocked = await logIn(new TestBrowser(app), testPassword, target);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe('rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(throttlePolicy.account.maxDelaySeconds);

    await database().query("UPDATE login_throttle SET blocked_until = now() - interval '1 second'");
    expect((await logIn(new TestBrowser(app), testPassword, target)).statusCode).toBe(200);
  });

  it('logs out on the server: the old cookie no longer works, and logout needs the CSRF header', async () => {
    const browser = new TestBrowser(app);
    await logIn(browser, testPassword);
    const sessionId = browser.cookies.session ?? '';
    const forged = await app.inject({ method: 'POST', url: '/api/v1/auth/logout', cookies: { session: sessionId } });
    expect(forged.statusCode).toBe(403);
    expect((await browser.get('/api/v1/me')).statusCode).toBe(200);

    expect((await browser.post('/api/v1/auth/logout')).statusCode).toBe(204);
    const after = await app.inject({ method: 'GET', url: '/api/v1/me', cookies: { session: sessionId } });
    expect(after.statusCode).toBe(401);

    const audit = await database().query<{ action: string; outcome: string; actor_id: string | null; ip: string; user_agent: string | null }>(
      "SELECT action, outcome, actor_id, ip, user_agent FROM audit_log WHERE action IN ('auth.login', 'auth.logout') AND ip = $1 ORDER BY id",
      [browser.ip],
    );
    expect(audit.map((row) => `${row.action}:${row.outcome}`)).toEqual(['auth.login:success', 'auth.logout:success']);
    for (const row of audit) expect(row).toMatchObject({ actor_id: expect.any(String), user_agent: expect.any(String) });
  });

  it('answers a reset request the same for known and unknown emails, and mails only the known one', async () => {
    const known = await new TestBrowser(app).post('/api/v1/auth/password-reset', { email });
    const unknown = await new TestBrowser(app).post('/api/v1/auth/password-reset', { email: 'ghost@example.com' });
    expect(known.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    await app.services.jobs.runOnce();
    expect(await lastMessageTo(database(), 'ghost@example.com')).toBeUndefined();
    expect((await lastMessageTo(database(), email))?.subject).toMatch(/Set a new password/);
  });

  it('does the same work for a known and an unknown email: the same statements, one queued job, and the mail only once the job runs', async () => {
    const statements: RecordedStatement[] = [];
    const recorded = recordingStatements(database(), statements);
    const { app: recordingApp } = await buildTestApp(recorded);
    const request = async (address: string) => {
      statements.length = 0;
      const response = await new TestBrowser(recordingApp).post('/api/v1/auth/password-reset', { email: address });
      expect(response.statusCode).toBe(200);
      return statements.map(({ text }) => text);
    };
    const forKnown = await request(email);
    const forUnknown = await request('nobody-at-all@example.com');
    expect(forKnown.length).toBeGreaterThan(0);
    expect(forUnknown).toEqual(forKnown);
    const queued = await database().query<{ kind: string }>("SELECT kind FROM jobs WHERE status = 'queued' AND kind = 'auth.password-reset'");
    expect(queued).toHaveLength(2);

    const sentBefore = await database().query("SELECT 1 FROM outbox_messages WHERE to_address = $1 AND subject LIKE 'Set a new password%'", [email]);
    await recordingApp.services.jobs.runOnce();
    const sentAfter = await database().query("SELECT 1 FROM outbox_messages WHERE to_address = $1 AND subject LIKE 'Set a new password%'", [email]);
    expect(sentAfter).toHaveLength(sentBefore.length + 1);
    expect(await lastMessageTo(database(), 'nobody-at-all@example.com')).toBeUndefined();
    const audited = await database().query<{ outcome: string }>(
      "SELECT outcome FROM audit_log WHERE action = 'auth.password_reset_requested' ORDER BY id DESC LIMIT 2",
    );
    expect(audited.map((row) => row.outcome).sort()).toEqual(['failure', 'success']);
    await recordingApp.close();
  });

  it('resets the password once, ends every session, and signs in with the new password only', async () => {
    const signedIn = new TestBrowser(app);
    await logIn(signedIn, testPassword);
    await new TestBrowser(app).post('/api/v1/auth/password-reset', { email });
    await app.services.jobs.runOnce();
    const token = tokenFromLink((await lastMessageTo(database(), email))?.text ?? '', '/resetpassword');
    const browser = new TestBrowser(app);
    expect((await browser.post('/api/v1/auth/password-reset/check', { token })).statusCode).toBe(200);

    const mismatch = await browser.post('/api/v1/auth/password-reset/complete', { token, password: 'a brand new secret', confirmPassword: 'different' });
    expect(mismatch.json().error.fields).toEqual({ confirmPassword: 'passwords do not match' });
    const common = await browser.post('/api/v1/auth/password-reset/complete', { token, password: 'iloveyou', confirmPassword: 'iloveyou' });
    expect(common.json().error.fields).toEqual({ password: 'this password is too common' });

    const done = await browser.post('/api/v1/auth/password-reset/complete', { token, password: 'a brand new secret', confirmPassword: 'a brand new secret' });
    expect(done.statusCode).toBe(200);
    expect((await signedIn.get('/api/v1/me')).statusCode).toBe(401);
    expect((await logIn(new TestBrowser(app), testPassword)).statusCode).toBe(401);
    expect((await logIn(new TestBrowser(app), 'a brand new secret')).statusCode).toBe(200);

    const again = await browser.post('/api/v1/auth/password-reset/complete', { token, password: 'another new secret', confirmPassword: 'another new secret' });
    expect(again.statusCode).toBe(400);
    expect((await browser.post('/api/v1/auth/password-reset/check', { token })).json().error.message).toMatch(/expired or was already used/);
  });

  it('refuses an expired reset link with a clear message', async () => {
    await new TestBrowser(app).post('/api/v1/auth/password-reset', { email });
    await app.services.jobs.runOnce();
    const token = tokenFromLink((await lastMessageTo(database(), email))?.text ?? '', '/resetpassword');
    await database().query("UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE used_at IS NULL");
    const response = await new TestBrowser(app).post('/api/v1/auth/password-reset/check', { token });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/has expired/);
  });
});
