import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { TestBrowser, lastMessageTo } from '../../test/client.ts';
import { onboardedCustomer, testPassword, uniqueTestPhone } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentSuite, validExternal, type PayingCustomer } from '../../test/payments.ts';
import { totpCode } from '../../platform/totp.ts';

const chromeOnWindows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const safariOnIphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describeEachDatabase('security: sessions, password, authenticator app', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built), { environment: { RAIL_SPEED: 'instant' } });

  /** An onboarded customer signed in through the real sign-in form, from a named browser. */
  async function signedIn(userAgent = chromeOnWindows) {
    const email = `${randomUUID()}@example.com`;
    const phone = uniqueTestPhone();
    const created = await onboardedCustomer({ db: database(), storage: app.services.storage, encryptionKey: config.secrets.encryptionKey }, { email, phone });
    const browser = await signInWithPassword(email, testPassword, userAgent);
    return { id: created.userId, email, phone, browser };
  }

  async function signInWithPassword(email: string, password: string, userAgent = chromeOnWindows): Promise<TestBrowser> {
    const browser = new TestBrowser(app);
    const response = await browser.request({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, headers: { 'user-agent': userAgent } });
    expect(response.statusCode, response.body).toBe(200);
    return browser;
  }

  async function auditActions(customerId: string): Promise<string[]> {
    const rows = await database().query<{ action: string }>('SELECT action FROM audit_log WHERE actor_id = $1 ORDER BY id', [customerId]);
    return rows.map((row) => row.action);
  }

  async function smsCount(phone: string): Promise<number> {
    const [row] = await database().query<{ count: number }>('SELECT count(*)::int AS count FROM outbox_messages WHERE to_address = $1', [phone]);
    return row?.count ?? 0;
  }

  async function latestSmsCode(phone: string): Promise<string> {
    const code = /\b(\d{6})\b/.exec((await lastMessageTo(database(), phone))?.text ?? '')?.[1];
    if (!code) throw new Error('no code sent');
    return code;
  }

  /** Sends a step-up action, answers the SMS code, sends it again with X-Step-Up. */
  async function withSmsStepUp(browser: TestBrowser, phone: string, method: 'POST' | 'DELETE', url: string, payload?: object) {
    const first = await browser.request({ method, url, ...(payload ? { payload } : {}) });
    expect(first.statusCode, first.body).toBe(403);
    const { challengeId } = first.json<{ error: { challengeId: string } }>().error;
    const verified = await browser.post(`/api/v1/step-up/${challengeId}`, { code: await latestSmsCode(phone) });
    expect(verified.statusCode, verified.body).toBe(200);
    return browser.request({ method, url, headers: { 'x-step-up': challengeId }, ...(payload ? { payload } : {}) });
  }

  /** Enrols an app behind an SMS step-up, with a code of the current step; answers the secret and the recovery codes. */
  async function enrol(browser: TestBrowser, phone: string): Promise<{ secret: string; recoveryCodes: string[] }> {
    const started = await withSmsStepUp(browser, phone, 'POST', '/api/v1/me/totp');
    expect(started.statusCode, started.body).toBe(200);
    const { secret } = started.json<{ secret: string }>();
    const confirmed = await browser.post('/api/v1/me/totp/confirm', { code: totpCode(secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return { secret, recoveryCodes: confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes };
  }

  /** Starts an enrolment behind an SMS step-up; answers the secret. */
  async function startEnrolment(browser: TestBrowser, phone: string): Promise<string> {
    const started = await withSmsStepUp(browser, phone, 'POST', '/api/v1/me/totp');
    expect(started.statusCode, started.body).toBe(200);
    return started.json<{ secret: string }>().secret;
  }

  describe('sessions', () => {
    it('lists live sessions with device, address and times, this one first and marked current', async () => {
      const dana = await signedIn(chromeOnWindows);
      await signInWithPassword(dana.email, testPassword, safariOnIphone);
      const response = await dana.browser.get('/api/v1/me/sessions');
      expect(response.statusCode).toBe(200);
      const { items } = response.json<{ items: { id: string; current: boolean; device: string; ip: string; createdAt: string; lastSeenAt: string }[] }>();
      expect(items).toHaveLength(2);
      expect(items[0]).toMatchObject({
        current: true,
        device: 'Chrome on Windows',
        ip: expect.any(String),
        createdAt: expect.any(String),
        lastSeenAt: expect.any(String),
      });
      expect(items[1]).toMatchObject({ current: false, device: 'Safari on iPhone' });
      expect(items[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('ends another session of the customer: that browser is signed out, this one is not', async () => {
      const dana = await signedIn();
      const phone = await signInWithPassword(dana.email, testPassword, safariOnIphone);
      const other = (await dana.browser.get('/api/v1/me/sessions')).json<{ items: { id: string; current: boolean }[] }>().items.find((item) => !item.current);
      const ended = await dana.browser.request({ method: 'DELETE', url: `/api/v1/me/sessions/${other?.id}` });
      expect(ended.statusCode, ended.body).toBe(200);
      expect(ended.json()).toEqual({ ended: true, current: false });
      expect((await phone.get('/api/v1/me')).statusCode).toBe(401);
      expect((await dana.browser.get('/api/v1/me')).statusCode).toBe(200);
      expect(await auditActions(dana.id)).toContain('customer.session_ended');
      // Ended once: again is 404.
      expect((await dana.browser.request({ method: 'DELETE', url: `/api/v1/me/sessions/${other?.id}` })).statusCode).toBe(404);
    });

    it("another customer's session answers exactly like an unknown one (404 not_found) and stays live", async () => {
      const dana = await signedIn();
      const erin = await signedIn();
      const erinsSession = (await erin.browser.get('/api/v1/me/sessions')).json<{ items: { id: string }[] }>().items[0]?.id;
      const foreign = await dana.browser.request({ method: 'DELETE', url: `/api/v1/me/sessions/${erinsSession}` });
      const unknown = await dana.browser.request({ method: 'DELETE', url: `/api/v1/me/sessions/${randomUUID()}` });
      const malformed = await dana.browser.request({ method: 'DELETE', url: '/api/v1/me/sessions/not-an-id' });
      for (const response of [foreign, unknown, malformed]) {
        expect(response.statusCode).toBe(404);
        expect(response.json().error.code).toBe('not_found');
      }
      expect(foreign.json().error.message).toBe(unknown.json().error.message);
      expect((await erin.browser.get('/api/v1/me')).statusCode).toBe(200);
    });

    it('ending the current session signs this browser out (cookies cleared)', async () => {
      const dana = await signedIn();
      const mine = (await dana.browser.get('/api/v1/me/sessions')).json<{ items: { id: string }[] }>().items[0]?.id;
      const ended = await dana.browser.request({ method: 'DELETE', url: `/api/v1/me/sessions/${mine}` });
      expect(ended.json()).toEqual({ ended: true, current: true });
      expect(dana.browser.cookies.session).toBeUndefined();
      expect((await dana.browser.get('/api/v1/me')).statusCode).toBe(401);
    });

    it('revoke-others ends every other session and keeps this one', async () => {
      const dana = await signedIn();
      const second = await signInWithPassword(dana.email, testPassword, safariOnIphone);
      const third = await signInWithPassword(dana.email, testPassword);
      const response = await dana.browser.post('/api/v1/me/sessions/revoke-others');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ended: 2 });
      expect((await second.get('/api/v1/me')).statusCode).toBe(401);
      expect((await third.get('/api/v1/me')).statusCode).toBe(401);
      expect((await dana.browser.get('/api/v1/me/sessions')).json().items).toHaveLength(1);
      expect(await auditActions(dana.id)).toContain('customer.sessions_revoked');
    });

    it('answers 401 without a session', async () => {
      const anonymous = new TestBrowser(app);
      expect((await anonymous.get('/api/v1/me/sessions')).statusCode).toBe(401);
      expect((await anonymous.get('/api/v1/me/totp')).statusCode).toBe(401);
    });
  });

  describe('password', () => {
    const newPassword = 'a fresh long passphrase 42';

    it('changes it behind a step-up: other sessions end, an email tells the customer, an audit row; the new one signs in', async () => {
      const dana = await signedIn();
      const other = await signInWithPassword(dana.email, testPassword, safariOnIphone);
      const body = { currentPassword: testPassword, password: newPassword, confirmPassword: newPassword };
      const first = await dana.browser.post('/api/v1/me/password', body);
      expect(first.statusCode).toBe(403);
      expect(first.json().error).toMatchObject({ code: 'step_up_required', challengeId: expect.any(String), methods: ['sms'] });
      expect(await latestSmsCode(dana.phone)).toMatch(/^\d{6}$/);
      expect((await lastMessageTo(database(), dana.phone))?.text).toContain('changing your password');
      const changed = await withSmsStepUp(dana.browser, dana.phone, 'POST', '/api/v1/me/password', body);
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toEqual({ changed: true, otherSessionsEnded: 1 });
      expect((await other.get('/api/v1/me')).statusCode).toBe(401);
      expect((await dana.browser.get('/api/v1/me')).statusCode).toBe(200);
      expect((await lastMessageTo(database(), dana.email))?.subject).toMatch(/password was changed/);
      expect(await auditActions(dana.id)).toContain('customer.password_changed');
      await signInWithPassword(dana.email, newPassword);
      const old = await new TestBrowser(app).post('/api/v1/auth/login', { email: dana.email, password: testPassword });
      expect(old.statusCode).toBe(401);
    });

    it('a wrong current password is a field error, sends no code and changes nothing', async () => {
      const dana = await signedIn();
      const before = await smsCount(dana.phone);
      const response = await dana.browser.post('/api/v1/me/password', {
        currentPassword: 'not my password at all',
        password: newPassword,
        confirmPassword: newPassword,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'validation_failed', fields: { currentPassword: 'This is not your current password' } });
      expect(await smsCount(dana.phone)).toBe(before);
      expect(await auditActions(dana.id)).toContain('customer.password_change_failed');
      await signInWithPassword(dana.email, testPassword);
    });

    it.each([
      ['too short', { password: 'short1', confirmPassword: 'short1' }, { password: 'password should be at least 8 characters' }],
      ['common', { password: 'password123', confirmPassword: 'password123' }, { password: 'this password is too common' }],
      ['unconfirmed', { password: newPassword, confirmPassword: `${newPassword}!` }, { confirmPassword: 'passwords do not match' }],
      [
        'missing the current one',
        { currentPassword: '', password: newPassword, confirmPassword: newPassword },
        { currentPassword: 'field should not be empty' },
      ],
    ])('refuses a new password that is %s (400, field error, no code sent)', async (_name, change, fields) => {
      const dana = await signedIn();
      const before = await smsCount(dana.phone);
      const response = await dana.browser.post('/api/v1/me/password', { currentPassword: testPassword, ...change });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'validation_failed', fields });
      expect(await smsCount(dana.phone)).toBe(before);
      await signInWithPassword(dana.email, testPassword);
    });

    it('a challenge verified for something else does not change the password', async () => {
      const dana = await kit.customer();
      const transfer = await kit.pay(dana, '/transfers', external(dana, 1_000));
      const challengeId = transfer.json().error.challengeId as string;
      await kit.verifyLatestCode(dana, challengeId);
      const [row] = await database().query<{ email: string }>('SELECT email FROM customers WHERE id = $1', [dana.id]);
      const response = await dana.browser.request({
        method: 'POST',
        url: '/api/v1/me/password',
        payload: { currentPassword: testPassword, password: newPassword, confirmPassword: newPassword },
        headers: { 'x-step-up': challengeId },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.challengeId).not.toBe(challengeId);
      await signInWithPassword(row?.email ?? '', testPassword);
    });
  });

  function external(who: PayingCustomer, amountCents: number) {
    return {
      kind: 'external',
      fromAccountId: who.checking.id,
      toAccountNumber: '123456789',
      accountName: 'Frank Other',
      ...validExternal,
      amountCents,
      message: 'Rent',
    };
  }

  describe('authenticator app', () => {
    it('a password alone adds no app, however recent the sign-in: enrolment asks for a code sent to the phone, and the next withdrawal still texts the phone (issue 30, the probe)', async () => {
      // The probe: sign in with a stolen password, add an app, answer a withdrawal's step-up with it.
      const dana = await kit.customer();
      const smsBefore = await smsCount(dana.phone);
      const enrolment = await dana.browser.post('/api/v1/me/totp');
      expect(enrolment.statusCode, enrolment.body).toBe(403);
      expect(enrolment.json().error).toMatchObject({ code: 'step_up_required', methods: ['sms'] });
      expect(enrolment.body).not.toMatch(/secret|otpauth/);
      // The code went to the customer's phone, which the thief does not hold; a guess is refused.
      expect(await smsCount(dana.phone)).toBe(smsBefore + 1);
      const challengeId = enrolment.json().error.challengeId as string;
      const guessed = await dana.browser.post(`/api/v1/step-up/${challengeId}`, { code: (await latestSmsCode(dana.phone)) === '000000' ? '111111' : '000000' });
      expect(guessed.statusCode).toBe(400);
      const withoutCode = await dana.browser.request({ method: 'POST', url: '/api/v1/me/totp', headers: { 'x-step-up': challengeId } });
      expect(withoutCode.statusCode).toBe(403);
      expect(withoutCode.json().error.code).toBe('step_up_required');
      expect((await dana.browser.post('/api/v1/me/totp/confirm', { code: '123456' })).statusCode).toBe(409);
      expect((await dana.browser.get('/api/v1/me/totp')).json()).toEqual({ enrolled: false, enrolledAt: null, recoveryCodesLeft: 0 });
      // So the next withdrawal's step-up can only be answered from the phone.
      const smsBeforePayment = await smsCount(dana.phone);
      const withdrawal = {
        fromAccountId: dana.checking.id,
        amountCents: 900_000,
        country: 'US',
        nameOfBank: 'First Example Bank',
        accountName: 'Dana Thief',
        accountNumber: '12345678',
        stateName: 'Ohio',
        bankAddress: '1 Main St',
        routeNumber: '011000015',
      };
      const payment = await kit.pay(dana, '/withdrawals', withdrawal, randomUUID());
      expect(payment.statusCode).toBe(403);
      expect(payment.json().error).toMatchObject({ code: 'step_up_required', methods: ['sms'] });
      expect(await smsCount(dana.phone)).toBe(smsBeforePayment + 1);
    });

    it('behind the step-up, enrolment answers the secret, the otpauth URI and a QR code, and is not enrolled until confirmed', async () => {
      const dana = await signedIn();
      const started = await withSmsStepUp(dana.browser, dana.phone, 'POST', '/api/v1/me/totp');
      expect(started.statusCode, started.body).toBe(200);
      const enrolment = started.json<{ secret: string; otpauthUri: string; qrCode: string }>();
      expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(enrolment.otpauthUri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
      expect(enrolment.otpauthUri).toContain(enrolment.secret);
      expect(Buffer.from(enrolment.qrCode.replace('data:image/svg+xml;base64,', ''), 'base64').toString()).toContain('<svg');
      expect((await dana.browser.get('/api/v1/me/totp')).json()).toEqual({ enrolled: false, enrolledAt: null, recoveryCodesLeft: 0 });
      // The secret is stored sealed, never as typed.
      const [row] = await database().query<{ secret_encrypted: Buffer }>('SELECT secret_encrypted FROM customer_totp WHERE customer_id = $1', [dana.id]);
      expect(Buffer.from(row?.secret_encrypted ?? []).toString('latin1')).not.toContain(enrolment.secret);
      const [audit] = await database().query<{ details: { reauthenticatedBy: string } }>(
        "SELECT details FROM audit_log WHERE actor_id = $1 AND action = 'customer.totp_enrolment_started'",
        [dana.id],
      );
      expect(audit?.details.reauthenticatedBy).toBe('step_up');
    });

    it('a wrong code does not confirm it; a right one answers ten single-use recovery codes, stored hashed, audited', async () => {
      const dana = await signedIn();
      const secret = await startEnrolment(dana.browser, dana.phone);
      const right = totpCode(secret);
      const wrong = right === '000000' ? '111111' : '000000';
      const refused = await dana.browser.post('/api/v1/me/totp/confirm', { code: wrong });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.fields.code).toMatch(/not right/);
      const malformed = await dana.browser.post('/api/v1/me/totp/confirm', { code: '12ab' });
      expect(malformed.statusCode).toBe(400);
      const confirmed = await dana.browser.post('/api/v1/me/totp/confirm', { code: right });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      const { recoveryCodes } = confirmed.json<{ recoveryCodes: string[] }>();
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
      const stored = await database().query<{ code_hash: Buffer }>('SELECT code_hash FROM customer_recovery_codes WHERE customer_id = $1', [dana.id]);
      expect(stored).toHaveLength(10);
      expect(JSON.stringify(stored)).not.toContain(recoveryCodes[0]?.replace('-', ''));
      expect((await dana.browser.get('/api/v1/me/totp')).json()).toMatchObject({ enrolled: true, enrolledAt: expect.any(String), recoveryCodesLeft: 10 });
      expect(await auditActions(dana.id)).toEqual(
        expect.arrayContaining(['customer.totp_enrolment_started', 'customer.totp_enrolment_failed', 'customer.totp_enrolled']),
      );
      expect((await lastMessageTo(database(), dana.email))?.subject).toMatch(/authenticator app was added/);
    });

    it('a reused code does not confirm an enrolment', async () => {
      const dana = await signedIn();
      const secret = await startEnrolment(dana.browser, dana.phone);
      // Another enrolment confirmed with this very code would be a replay: the first use claims its step.
      const code = totpCode(secret);
      const first = await dana.browser.post('/api/v1/me/totp/confirm', { code });
      expect(first.statusCode).toBe(200);
      await database().query('UPDATE customer_totp SET confirmed_at = NULL WHERE customer_id = $1', [dana.id]);
      const again = await dana.browser.post('/api/v1/me/totp/confirm', { code });
      expect(again.statusCode).toBe(400);
      expect(again.json().error.fields.code).toMatch(/already used/);
    });

    it('a second enrolment while one is confirmed is refused (409); confirming with nothing started is 409', async () => {
      const dana = await signedIn();
      expect((await dana.browser.post('/api/v1/me/totp/confirm', { code: '123456' })).statusCode).toBe(409);
      await enrol(dana.browser, dana.phone);
      const again = await dana.browser.post('/api/v1/me/totp');
      expect(again.statusCode).toBe(409);
    });

    it('answers the step-up of a real external transfer: no SMS is sent, methods name the app first, a replayed code is refused', async () => {
      const dana = await kit.customer();
      const { secret } = await enrol(dana.browser, dana.phone);
      const smsBefore = await smsCount(dana.phone);
      const key = randomUUID();
      const body = external(dana, 2_500);
      const first = await kit.pay(dana, '/transfers', body, key);
      expect(first.statusCode).toBe(403);
      expect(first.json().error).toMatchObject({ code: 'step_up_required', methods: ['totp', 'sms'] });
      expect(first.json().error.message).toMatch(/authenticator app/);
      expect(await smsCount(dana.phone)).toBe(smsBefore);
      const challengeId = first.json().error.challengeId as string;
      // The enrolment used the current step: the app's next code answers.
      const code = totpCode(secret, Date.now() + 30_000);
      const verified = await dana.browser.post(`/api/v1/step-up/${challengeId}`, { code });
      expect(verified.statusCode, verified.body).toBe(200);
      const paid = await kit.pay(dana, '/transfers', body, key, { 'x-step-up': challengeId });
      expect(paid.statusCode, paid.body).toBe(201);
      await kit.runJobs();
      expect((await kit.balances(dana)).checking.balanceCents).toBe(100_000 - 2_500);
      const [row] = await database().query<{ verified_method: string }>('SELECT verified_method FROM step_up_challenges WHERE id = $1', [challengeId]);
      expect(row?.verified_method).toBe('totp');

      // The same code again, for another payment: refused as a replay.
      const second = await kit.pay(dana, '/transfers', external(dana, 1_000));
      const replay = await dana.browser.post(`/api/v1/step-up/${second.json().error.challengeId}`, { code });
      expect(replay.statusCode).toBe(400);
      expect(replay.json().error.fields.code).toMatch(/already used/);
      expect(await smsCount(dana.phone)).toBe(smsBefore);
    });

    it('"Send me a text instead": the SMS goes on request, without waiting, and its code answers', async () => {
      const dana = await kit.customer();
      await enrol(dana.browser, dana.phone);
      const smsBefore = await smsCount(dana.phone);
      const key = randomUUID();
      const body = external(dana, 1_500);
      const challengeId = (await kit.pay(dana, '/transfers', body, key)).json().error.challengeId as string;
      const sent = await dana.browser.post(`/api/v1/step-up/${challengeId}/resend`);
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json().sentTo).toContain(dana.phone.slice(-4));
      expect(await smsCount(dana.phone)).toBe(smsBefore + 1);
      await kit.verifyLatestCode(dana, challengeId);
      expect((await kit.pay(dana, '/transfers', body, key, { 'x-step-up': challengeId })).statusCode).toBe(201);
      await kit.runJobs();
    });

    it('a recovery code answers one step-up; used twice it is refused', async () => {
      const dana = await kit.customer();
      const { recoveryCodes } = await enrol(dana.browser, dana.phone);
      const recovery = recoveryCodes[3] ?? '';
      const key = randomUUID();
      const body = external(dana, 1_200);
      const challengeId = (await kit.pay(dana, '/transfers', body, key)).json().error.challengeId as string;
      const verified = await dana.browser.post(`/api/v1/step-up/${challengeId}`, { code: recovery.toUpperCase() });
      expect(verified.statusCode, verified.body).toBe(200);
      expect((await kit.pay(dana, '/transfers', body, key, { 'x-step-up': challengeId })).statusCode).toBe(201);
      await kit.runJobs();
      expect((await dana.browser.get('/api/v1/me/totp')).json().recoveryCodesLeft).toBe(9);
      expect(await auditActions(dana.id)).toContain('customer.recovery_code_used');

      const next = (await kit.pay(dana, '/transfers', external(dana, 1_300))).json().error.challengeId as string;
      const twice = await dana.browser.post(`/api/v1/step-up/${next}`, { code: recovery });
      expect(twice.statusCode).toBe(400);
      expect(twice.json().error.fields.code).toMatch(/not right/);
    });

    it("another customer's recovery code or app code does not answer", async () => {
      const dana = await kit.customer();
      const erin = await kit.customer();
      await enrol(dana.browser, dana.phone);
      const erins = await enrol(erin.browser, erin.phone);
      const challengeId = (await kit.pay(dana, '/transfers', external(dana, 1_000))).json().error.challengeId as string;
      expect((await dana.browser.post(`/api/v1/step-up/${challengeId}`, { code: erins.recoveryCodes[0] })).statusCode).toBe(400);
      expect((await dana.browser.post(`/api/v1/step-up/${challengeId}`, { code: totpCode(erins.secret, Date.now() + 30_000) })).statusCode).toBe(400);
    });

    it('removing it is behind a step-up (answered by the app), deletes the recovery codes, and SMS alone answers again', async () => {
      const dana = await signedIn();
      const { secret } = await enrol(dana.browser, dana.phone);
      const first = await dana.browser.request({ method: 'DELETE', url: '/api/v1/me/totp' });
      expect(first.statusCode).toBe(403);
      expect(first.json().error.methods).toEqual(['totp', 'sms']);
      const challengeId = first.json().error.challengeId as string;
      expect((await dana.browser.post(`/api/v1/step-up/${challengeId}`, { code: totpCode(secret, Date.now() + 30_000) })).statusCode).toBe(200);
      const removed = await dana.browser.request({ method: 'DELETE', url: '/api/v1/me/totp', headers: { 'x-step-up': challengeId } });
      expect(removed.statusCode, removed.body).toBe(200);
      expect(removed.json()).toEqual({ removed: true });
      expect((await dana.browser.get('/api/v1/me/totp')).json()).toEqual({ enrolled: false, enrolledAt: null, recoveryCodesLeft: 0 });
      expect(await database().query('SELECT 1 FROM customer_recovery_codes WHERE customer_id = $1', [dana.id])).toHaveLength(0);
      expect(await auditActions(dana.id)).toContain('customer.totp_removed');
      const again = await dana.browser.request({ method: 'DELETE', url: '/api/v1/me/totp' });
      expect(again.statusCode).toBe(404);
      const password = await dana.browser.post('/api/v1/me/password', {
        currentPassword: testPassword,
        password: 'another long passphrase',
        confirmPassword: 'another long passphrase',
      });
      expect(password.json().error.methods).toEqual(['sms']);
    });
  });

  describe('a frozen customer', () => {
    it('may still change the password behind a step-up, but completes no money step-up', async () => {
      const dana = await kit.customer();
      const moneyChallenge = (await kit.pay(dana, '/transfers', external(dana, 1_000))).json().error.challengeId as string;
      const moneyCode = await kit.latestCode(dana);
      const [staff] = await database().query<{ id: string }>(
        `INSERT INTO staff (email, email_normalized, password_hash, role, totp_secret_encrypted) VALUES ($1, lower($1), 'x', 'admin', '\\x00') RETURNING id`,
        [`${randomUUID()}@strongroom.test`],
      );
      await database().query(`INSERT INTO customer_freezes (customer_id, reason, frozen_by) VALUES ($1, 'Test freeze', $2)`, [dana.id, staff?.id]);
      const money = await dana.browser.post(`/api/v1/step-up/${moneyChallenge}`, { code: moneyCode });
      expect(money.statusCode).toBe(403);
      expect(money.json().error.code).toBe('account_frozen');
      const body = { currentPassword: testPassword, password: 'frozen but careful 99', confirmPassword: 'frozen but careful 99' };
      const changed = await withSmsStepUp(dana.browser, dana.phone, 'POST', '/api/v1/me/password', body);
      expect(changed.statusCode, changed.body).toBe(200);
    });
  });
});
