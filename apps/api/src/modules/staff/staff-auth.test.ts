import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { buildTestApp, productionAppOptions } from '../../test/app.ts';
import { testAppSuite } from '../../test/suite.ts';
import { TestBrowser } from '../../test/client.ts';
import { insertBareCustomer } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { createTestStaff, staffBrowser, type TestStaffMember } from '../../test/staff.ts';
import { checksAllowedInBurst } from '../../test/throttle.ts';
import { throttlePolicy } from '../../platform/login-throttle.ts';
import { matchTotp, totpCode, totpStep } from '../../platform/totp.ts';
import { runOpsCommand } from '../ops/registry.ts';
import { ensureSandboxAdmin, sandboxAdmin } from './sandbox-admin.ts';

/** RFC 6238 appendix B: the SHA-1 key "12345678901234567890" and its codes (the 8-digit ones end in these 6). */
describe('TOTP as RFC 6238 computes it', () => {
  const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
  it.each([
    [59, '287082'],
    [1_111_111_109, '081804'],
    [1_111_111_111, '050471'],
    [1_234_567_890, '005924'],
    [2_000_000_000, '279037'],
    [20_000_000_000, '353130'],
  ])('at %i s the code is %s', (seconds, code) => {
    expect(totpCode(rfcSecret, seconds * 1_000)).toBe(code);
  });

  it('accepts a code one step either side of now, and no further', () => {
    const now = 1_234_567_890_000;
    expect(matchTotp(rfcSecret, totpCode(rfcSecret, now), now)).toBe(totpStep(now));
    expect(matchTotp(rfcSecret, totpCode(rfcSecret, now - 30_000), now)).toBe(totpStep(now) - 1);
    expect(matchTotp(rfcSecret, totpCode(rfcSecret, now + 30_000), now)).toBe(totpStep(now) + 1);
    expect(matchTotp(rfcSecret, totpCode(rfcSecret, now - 60_000), now)).toBeUndefined();
    expect(matchTotp(rfcSecret, totpCode(rfcSecret, now + 60_000), now)).toBeUndefined();
    expect(matchTotp(rfcSecret, 'abcdef', now)).toBeUndefined();
  });
});

describeEachDatabase('staff sign-in, a realm apart (D16)', (database) => {
  let app: FastifyInstance;
  let config: Config;
  let admin: TestStaffMember;
  testAppSuite(database, (built) => ({ app, config } = built));
  beforeAll(async () => {
    admin = await createTestStaff(database(), config, 'admin');
  });

  const logIn = (browser: TestBrowser, member: TestStaffMember, code = totpCode(member.totpSecret)) =>
    browser.post('/api/v1/staff/auth/login', { email: member.email, password: member.password, code });

  it('signs in with email, password and the current code, and answers who and what they may do', async () => {
    const member = await createTestStaff(database(), config, 'compliance');
    const browser = new TestBrowser(app);
    const response = await logIn(browser, member);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      staff: {
        id: member.id,
        email: member.email,
        role: 'compliance',
        permissions: ['customers.read', 'identity.decide', 'transfers.review'],
      },
    });
    expect(browser.cookies.staff_session).toBeTruthy();
    expect(browser.cookies.staff_csrf).toBeTruthy();
    expect(browser.cookies.session).toBeUndefined();
    const cookie = response.headers['set-cookie'];
    expect(String(cookie)).toMatch(/staff_session=[^;]+;.*HttpOnly/);
    expect((await browser.get('/api/v1/staff/me')).json().staff.email).toBe(member.email);
    const [audit] = await database().query<{ outcome: string }>("SELECT outcome FROM audit_log WHERE action = 'staff.login' AND actor_id = $1", [member.id]);
    expect(audit?.outcome).toBe('success');
  });

  it('refuses a wrong code, an expired code and a replayed code, saying only that something is wrong', async () => {
    const member = await createTestStaff(database(), config, 'support');
    const wrong = await logIn(new TestBrowser(app), member, totpCode(member.totpSecret) === '000000' ? '111111' : '000000');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toMatchObject({ code: 'unauthenticated', message: 'Email, password or code is not correct' });
    const expired = await logIn(new TestBrowser(app), member, totpCode(member.totpSecret, Date.now() - 90_000));
    expect(expired.statusCode).toBe(401);
    const code = totpCode(member.totpSecret);
    expect((await logIn(new TestBrowser(app), member, code)).statusCode).toBe(200);
    const replay = await logIn(new TestBrowser(app), member, code);
    expect(replay.statusCode).toBe(401);
    const reasons = await database().query<{ reason: string }>(
      "SELECT details->>'reason' AS reason FROM audit_log WHERE action = 'staff.login' AND actor_id = $1 AND outcome = 'failure' ORDER BY chain_seq",
      [member.id],
    );
    expect(reasons.map((row) => row.reason)).toEqual(['wrong_code', 'wrong_code', 'replayed_code']);
  });

  it('refuses a wrong password even with the right code, and an unknown email', async () => {
    const member = await createTestStaff(database(), config, 'support');
    expect((await logIn(new TestBrowser(app), { ...member, password: 'not the password at all' })).statusCode).toBe(401);
    expect((await logIn(new TestBrowser(app), { ...member, email: 'nobody@bank.test' })).statusCode).toBe(401);
    const malformed = await new TestBrowser(app).post('/api/v1/staff/auth/login', { email: member.email, password: member.password, code: '12ab56' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.fields.code).toBe('enter the 6-digit code from your authenticator app');
  });

  it('counts 40 concurrent sign-ins to one member before checking any of them: no more are checked than one at a time, and the right one sent last stays out', async () => {
    const member = await createTestStaff(database(), config, 'admin');
    const attempts = 40;
    const startedAt = Date.now();
    const answers = await Promise.all(
      Array.from({ length: attempts }, (_, index) =>
        app.inject({
          method: 'POST',
          url: '/api/v1/staff/auth/login',
          remoteAddress: new TestBrowser(app).ip,
          payload: { email: member.email, password: index === attempts - 1 ? member.password : `wrong password ${index}`, code: totpCode(member.totpSecret) },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    const checked = statuses.filter((status) => status === 401).length;
    expect(checked, statuses.join(' ')).toBeGreaterThan(0);
    expect(checked, statuses.join(' ')).toBeLessThanOrEqual(checksAllowedInBurst(throttlePolicy.account, Date.now() - startedAt));
    expect(statuses.filter((status) => status === 429)).toHaveLength(attempts - checked);
    expect(statuses.at(-1)).toBe(429);
  });

  it('a customer session is unauthenticated on staff routes, and a staff session on customer routes', async () => {
    const customer = await new TestBrowser(app).signInAs(database(), await insertBareCustomer(database()));
    expect((await customer.get('/api/v1/staff/me')).statusCode).toBe(401);
    expect((await customer.get('/api/v1/staff/members')).statusCode).toBe(401);
    const { browser: staff } = await staffBrowser(app, database(), config, 'admin');
    expect((await staff.get('/api/v1/me')).statusCode).toBe(401);
    expect((await staff.get('/api/v1/accounts')).statusCode).toBe(401);
    // The staff session's id presented as a customer's cookie opens nothing either.
    const planted = await app.inject({ method: 'GET', url: '/api/v1/accounts', cookies: { session: staff.cookies.staff_session ?? '' } });
    expect(planted.statusCode).toBe(401);
  });

  it('refuses an unsafe staff request without the staff CSRF token', async () => {
    const { browser } = await staffBrowser(app, database(), config, 'admin');
    const response = await browser.request({ method: 'POST', url: '/api/v1/staff/me/password', payload: {}, headers: { 'x-csrf-token': 'forged' } });
    expect(response.statusCode).toBe(403);
  });

  it('signs out: the session ends', async () => {
    const browser = new TestBrowser(app);
    const member = await createTestStaff(database(), config, 'operations');
    await logIn(browser, member);
    const session = browser.cookies.staff_session;
    expect((await browser.post('/api/v1/staff/auth/logout')).statusCode).toBe(204);
    const again = await app.inject({ method: 'GET', url: '/api/v1/staff/me', cookies: { staff_session: session ?? '' } });
    expect(again.statusCode).toBe(401);
  });

  it('signs in again over the cookie of a session that ended, without a CSRF token: a stale cookie has no authority to forge', async () => {
    const member = await createTestStaff(database(), config, 'operations');
    const browser = new TestBrowser(app);
    await logIn(browser, member);
    const ended = browser.cookies.staff_session ?? '';
    expect((await browser.post('/api/v1/staff/auth/logout')).statusCode).toBe(204);
    const again = await app.inject({
      method: 'POST',
      url: '/api/v1/staff/auth/login',
      cookies: { staff_session: ended },
      remoteAddress: browser.ip,
      payload: { email: member.email, password: member.password, code: totpCode(member.totpSecret, Date.now() + 30_000) },
    });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('a disabled member cannot sign in and their open sessions end', async () => {
    const member = await createTestStaff(database(), config, 'support');
    const theirs = new TestBrowser(app);
    await logIn(theirs, member);
    const adminBrowser = await new TestBrowser(app).signInAsStaff(database(), admin.id);
    const noReason = await adminBrowser.post(`/api/v1/staff/members/${member.id}/disable`, {});
    expect(noReason.statusCode).toBe(400);
    expect((await adminBrowser.post(`/api/v1/staff/members/${member.id}/disable`, { reason: 'Left the bank' })).statusCode).toBe(204);
    expect((await theirs.get('/api/v1/staff/me')).statusCode).toBe(401);
    const attempt = await logIn(new TestBrowser(app), member, totpCode(member.totpSecret, Date.now() + 30_000));
    expect(attempt.statusCode).toBe(403);
    expect(attempt.json().error.message).toMatch(/disabled/);
    expect((await adminBrowser.post(`/api/v1/staff/members/${member.id}/disable`, { reason: 'Left the bank' })).statusCode).toBe(409);
  });

  it('an admin creates staff (the secret shown once), changes a role and resets a second factor; every change is audited', async () => {
    const adminBrowser = await new TestBrowser(app).signInAsStaff(database(), admin.id);
    const created = await adminBrowser.post('/api/v1/staff/members', {
      email: 'new.hire@bank.test',
      password: 'a fine new passphrase',
      role: 'support',
      reason: 'New hire',
    });
    expect(created.statusCode, created.body).toBe(201);
    const enrolment = created.json();
    expect(enrolment.otpauthUri).toMatch(/^otpauth:\/\/totp\/.+\?.*secret=[A-Z2-7]+/);
    expect(enrolment.qrSvg).toMatch(/^<svg/);
    const member = {
      id: enrolment.staffId,
      email: 'new.hire@bank.test',
      password: 'a fine new passphrase',
      role: 'support' as const,
      totpSecret: enrolment.totpSecret,
    };
    expect((await logIn(new TestBrowser(app), member)).statusCode).toBe(200);
    const duplicate = await adminBrowser.post('/api/v1/staff/members', {
      email: 'NEW.hire@bank.test',
      password: 'a fine new passphrase',
      role: 'support',
      reason: 'New hire',
    });
    expect(duplicate.statusCode).toBe(409);

    const role = await adminBrowser.post(`/api/v1/staff/members/${member.id}/role`, { role: 'compliance', reason: 'Moved to compliance' });
    expect(role.statusCode).toBe(204);
    const reset = await adminBrowser.post(`/api/v1/staff/members/${member.id}/reset-second-factor`, { reason: 'Lost phone' });
    expect(reset.statusCode).toBe(200);
    const newSecret = reset.json().totpSecret;
    expect(newSecret).not.toBe(member.totpSecret);
    expect((await logIn(new TestBrowser(app), member, totpCode(member.totpSecret, Date.now() + 30_000))).statusCode).toBe(401);
    const signedIn = await logIn(new TestBrowser(app), { ...member, totpSecret: newSecret });
    expect(signedIn.json().staff.role).toBe('compliance');

    const trail = await database().query<{ action: string; reason: string }>(
      "SELECT action, details->>'reason' AS reason FROM audit_log WHERE actor_type = 'staff' AND actor_id = $1 AND subject = $2 ORDER BY chain_seq",
      [admin.id, member.id],
    );
    expect(trail).toEqual([
      { action: 'staff.create', reason: 'New hire' },
      { action: 'staff.role_change', reason: 'Moved to compliance' },
      { action: 'staff.reset_second_factor', reason: 'Lost phone' },
    ]);
    const list = await adminBrowser.get('/api/v1/staff/members');
    expect(list.json().items.find((item: { id: string }) => item.id === member.id)).toMatchObject({ role: 'compliance', status: 'active' });
  });

  it('nobody changes their own access, and a malformed or unknown id is not found', async () => {
    const adminBrowser = await new TestBrowser(app).signInAsStaff(database(), admin.id);
    expect((await adminBrowser.post(`/api/v1/staff/members/${admin.id}/disable`, { reason: 'Testing' })).statusCode).toBe(409);
    expect((await adminBrowser.post('/api/v1/staff/members/not-an-id/disable', { reason: 'Testing' })).statusCode).toBe(404);
    expect((await adminBrowser.post('/api/v1/staff/members/00000000-0000-4000-8000-000000000000/disable', { reason: 'Testing' })).statusCode).toBe(404);
  });

  it('a role without staff.manage gets 403, audited', async () => {
    const { browser, member } = await staffBrowser(app, database(), config, 'operations');
    const response = await browser.get('/api/v1/staff/members');
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('forbidden');
    const [row] = await database().query<{ outcome: string; permission: string }>(
      "SELECT outcome, details->>'permission' AS permission FROM audit_log WHERE action = 'staff.permission_denied' AND actor_id = $1",
      [member.id],
    );
    expect(row).toEqual({ outcome: 'denied', permission: 'staff.manage' });
  });

  it('staff change their own password: the current one first, and their other sessions end', async () => {
    const member = await createTestStaff(database(), config, 'support');
    const first = new TestBrowser(app);
    const second = new TestBrowser(app);
    await logIn(first, member);
    await logIn(second, member, totpCode(member.totpSecret, Date.now() + 30_000));
    const wrong = await first.post('/api/v1/staff/me/password', {
      currentPassword: 'wrong one',
      password: 'another long phrase',
      confirmPassword: 'another long phrase',
    });
    expect(wrong.json().error.fields).toEqual({ currentPassword: 'Your current password is not correct' });
    const changed = await first.post('/api/v1/staff/me/password', {
      currentPassword: member.password,
      password: 'another long phrase',
      confirmPassword: 'another long phrase',
    });
    expect(changed.statusCode, changed.body).toBe(204);
    expect((await first.get('/api/v1/staff/me')).statusCode).toBe(200);
    expect((await second.get('/api/v1/staff/me')).statusCode).toBe(401);
  });

  it('a staff session ends after 8 hours at most, sooner than a customer session', async () => {
    const member = await createTestStaff(database(), config, 'support');
    await logIn(new TestBrowser(app), member);
    const [row] = await database().query<{ hours: number }>(
      "SELECT round(extract(epoch FROM absolute_expires_at - created_at) / 3600)::integer AS hours FROM sessions WHERE realm = 'staff' AND subject_id = $1",
      [member.id],
    );
    expect(row?.hours).toBe(8);
  });

  it('the sandbox offers its admin with the current code, which signs in; production has no such route', async () => {
    await ensureSandboxAdmin({ db: database(), config });
    const offered = await app.inject({ method: 'GET', url: '/api/v1/dev/staff-sign-in' });
    expect(offered.statusCode).toBe(200);
    expect(offered.headers['cache-control']).toBe('no-store');
    const signIn = offered.json();
    expect(signIn).toMatchObject({ email: sandboxAdmin.email, password: sandboxAdmin.password, code: expect.stringMatching(/^\d{6}$/) });
    const response = await new TestBrowser(app).post('/api/v1/staff/auth/login', signIn);
    expect(response.json().staff.role).toBe('admin');
    expect(await ensureSandboxAdmin({ db: database(), config })).toBeUndefined();
    const production = await buildTestApp(database(), productionAppOptions(database()));
    expect((await production.app.inject({ method: 'GET', url: '/api/v1/dev/staff-sign-in' })).statusCode).toBe(404);
    await production.app.close();
  });

  it('create-staff prints the id, role, secret and otpauth URI as JSON, and a QR code apart', async () => {
    const result = await runOpsCommand({ database: async () => database(), config }, 'create-staff', [
      '--email',
      'ops.person@bank.test',
      '--password',
      'an operator passphrase',
      '--role',
      'operations',
    ]);
    expect(result.exitCode, result.output).toBe(0);
    const printed = JSON.parse(result.output);
    expect(Object.keys(printed).sort()).toEqual(['otpauthUri', 'role', 'staffId', 'totpSecret']);
    expect(printed.totpSecret).toMatch(/^[A-Z2-7]{32}$/);
    expect(printed.otpauthUri).toContain(`secret=${printed.totpSecret}`);
    expect(result.notice).toContain('authenticator');
    const member = {
      id: printed.staffId,
      email: 'ops.person@bank.test',
      password: 'an operator passphrase',
      role: 'operations' as const,
      totpSecret: printed.totpSecret,
    };
    expect((await logIn(new TestBrowser(app), member)).statusCode).toBe(200);
    const badRole = await runOpsCommand({ database: async () => database(), config }, 'create-staff', [
      '--email',
      'x@bank.test',
      '--password',
      'an operator passphrase',
      '--role',
      'boss',
    ]);
    expect(badRole.exitCode).toBe(2);
  });
});
