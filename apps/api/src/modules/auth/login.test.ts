import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { recordingStatements, type RecordedStatement } from '../../test/recording-database.ts';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/databases.ts';
import { buildTestApp } from '../../test/app.ts';
import { testAppSuite } from '../../test/suite.ts';
import { lastMessageTo, TestBrowser, tokenFromLink } from '../../test/client.ts';
import { onboardedCustomer, testPassword } from '../../test/customers.ts';
import { checksAllowedInBurst } from '../../test/throttle.ts';
import { consecutiveFailures, throttlePolicy } from '../../platform/login-throttle.ts';
import { hashSessionId } from '../../platform/session.ts';

/** The probe's burst: 39 wrong passwords and the right one last, all at once (issue 30, item 5). */
const concurrentSignIns = 40;

describeEachDatabase('signing in, out, and recovering a password', (database) => {
  let app: FastifyInstance;
  const email = 'grace@example.com';
  testAppSuite(database, (built) => ({ app } = built));
  beforeAll(async () => {
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

  it('counts 40 concurrent sign-ins to one account before checking any password: no more are checked than one at a time, the rest get 429, and the right password sent last stays out', async () => {
    const target = 'burst@example.com';
    await onboardedCustomer({ db: database(), storage: app.services.storage, encryptionKey: Buffer.alloc(32, 7) }, { email: target });
    // An unknown email is counted and refused exactly as a known one (ASVS 6.3.8).
    for (const email of [target, 'nobody-bursting@example.com']) {
      const passwords = Array.from({ length: concurrentSignIns }, (_, index) => (index === concurrentSignIns - 1 ? testPassword : `wrong password ${index}`));
      const startedAt = Date.now();
      const answers = await Promise.all(
        passwords.map((password) =>
          app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, remoteAddress: new TestBrowser(app).ip }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode);
      const checked = statuses.filter((status) => status === 401).length;
      expect(checked, `${email}: ${statuses.join(' ')}`).toBeGreaterThan(0);
      expect(checked, `${email}: ${statuses.join(' ')}`).toBeLessThanOrEqual(checksAllowedInBurst(throttlePolicy.account, Date.now() - startedAt));
      expect(
        statuses.filter((status) => status === 429),
        email,
      ).toHaveLength(concurrentSignIns - checked);
      expect(statuses.at(-1), email).toBe(429);
    }
  });

  it('forgives an address its failures with time, so one mistake behind a shared NAT does not block everyone after the twentieth', async () => {
    const office = new TestBrowser(app).ip;
    const signIn = (who: string, password: string) =>
      app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: who, password }, remoteAddress: office });
    for (let failure = 0; failure <= throttlePolicy.ip.freeFailures; failure++) {
      expect((await signIn(`typo-${failure}@example.com`, 'not the password')).statusCode).toBe(401);
    }
    expect((await signIn(email, testPassword)).statusCode).toBe(429);
    // An hour later, with no failure since, someone in the office mistypes once more...
    await database().query(
      "UPDATE login_throttle SET last_failure_at = last_failure_at - interval '1 hour', blocked_until = blocked_until - interval '1 hour' WHERE key = $1",
      [`ip:${office}`],
    );
    expect((await signIn('typo-again@example.com', 'not the password')).statusCode).toBe(401);
    // ...and the next person in the office still signs in.
    expect((await signIn(email, testPassword)).statusCode).toBe(200);
  });

  it("forgives an account's wait with time, yet 100 failures in a row still need a password reset, however slowly they came", async () => {
    const target = 'forgetful@example.com';
    await onboardedCustomer({ db: database(), storage: app.services.storage, encryptionKey: Buffer.alloc(32, 7) }, { email: target });
    for (let failure = 0; failure <= throttlePolicy.account.freeFailures; failure++) {
      expect((await logIn(new TestBrowser(app), 'wrong password!', target)).statusCode).toBe(401);
    }
    await database().query(
      "UPDATE login_throttle SET last_failure_at = last_failure_at - interval '1 hour', blocked_until = blocked_until - interval '1 hour' WHERE key = $1",
      [`account:${target}`],
    );
    expect((await logIn(new TestBrowser(app), 'wrong password!', target)).statusCode).toBe(401);
    expect(await consecutiveFailures(database(), `account:${target}`)).toBe(throttlePolicy.account.freeFailures + 2);
    expect((await logIn(new TestBrowser(app), testPassword, target)).statusCode).toBe(200);

    // One failure short of the rule, the last of them a day ago: nothing is blocked, yet the 100th asks for recovery.
    await database().query("INSERT INTO login_throttle (key, consecutive_failures, last_failure_at) VALUES ($1, $2, now() - interval '1 day')", [
      `account:${target}`,
      throttlePolicy.failuresBeforeRecoveryRequired - 1,
    ]);
    expect((await logIn(new TestBrowser(app), 'wrong password!', target)).statusCode).toBe(401);
    const recovery = await logIn(new TestBrowser(app), testPassword, target);
    expect(recovery.statusCode).toBe(403);
    expect(recovery.json().error.message).toMatch(/Reset your password/);
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

  it('lets a browser whose session cookie is stale (ended or expired) sign in, sign up and ask for a reset without a CSRF token', async () => {
    const ended = new TestBrowser(app);
    await logIn(ended, testPassword);
    const endedSession = ended.cookies.session ?? '';
    expect((await ended.post('/api/v1/auth/logout')).statusCode).toBe(204);
    const expired = new TestBrowser(app);
    await logIn(expired, testPassword);
    const expiredSession = expired.cookies.session ?? '';
    await database().query("UPDATE sessions SET absolute_expires_at = now() - interval '1 second' WHERE id_hash = $1", [hashSessionId(expiredSession)]);

    for (const session of [endedSession, expiredSession, 'never-a-session-0123456789abcdef0123456789a']) {
      // Straight to inject: no X-CSRF-Token header, as a page that kept only the cookie would send.
      const asStale = (url: string, payload: object) =>
        app.inject({ method: 'POST', url, payload, cookies: { session }, remoteAddress: new TestBrowser(app).ip });
      const signedIn = await asStale('/api/v1/auth/login', { email, password: testPassword });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      const signedUp = await asStale('/api/v1/auth/signup', {
        firstName: 'Stale',
        lastName: 'Cookie',
        email: `stale-${randomUUID()}@example.com`,
        password: 'a fresh long passphrase',
        confirmPassword: 'a fresh long passphrase',
        acceptTerms: true,
      });
      expect(signedUp.statusCode, signedUp.body).toBe(201);
      const reset = await asStale('/api/v1/auth/password-reset', { email });
      expect(reset.statusCode, reset.body).toBe(200);
    }
  });

  it('still refuses sign-in, sign-up and sign-out without the CSRF token to a browser whose session is live, so another site cannot switch it to another account', async () => {
    const browser = new TestBrowser(app);
    await logIn(browser, testPassword);
    const session = browser.cookies.session ?? '';
    const forged = (url: string, payload: object) => app.inject({ method: 'POST', url, payload, cookies: { session }, remoteAddress: browser.ip });
    for (const response of [
      await forged('/api/v1/auth/login', { email: 'attacker@example.com', password: testPassword }),
      await forged('/api/v1/auth/signup', {
        firstName: 'A',
        lastName: 'B',
        email: 'x@example.com',
        password: 'whatever long',
        confirmPassword: 'whatever long',
        acceptTerms: true,
      }),
      await forged('/api/v1/auth/logout', {}),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('forbidden');
    }
    expect((await browser.get('/api/v1/me')).statusCode).toBe(200);
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
