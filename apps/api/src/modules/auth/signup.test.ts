import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/databases.ts';
import { testAppSuite } from '../../test/suite.ts';
import { lastMessageTo, TestBrowser, tokenFromLink } from '../../test/client.ts';

const form = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  password: 'analytical engine 1843',
  confirmPassword: 'analytical engine 1843',
  acceptTerms: true,
  ...overrides,
});

describeEachDatabase('signing up and verifying the email', (database) => {
  let app: FastifyInstance;
  testAppSuite(database, (built) => ({ app } = built));
  const customerCount = async () => Number((await database().query<{ count: bigint }>('SELECT count(*)::bigint AS count FROM customers'))[0]?.count);

  it('gives the seed messages under each field and writes nothing', async () => {
    const browser = new TestBrowser(app);
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [
        { firstName: '', lastName: '', email: '' },
        { firstName: 'field should not be empty', lastName: 'field should not be empty', email: 'field should not be empty' },
      ],
      [{ email: 'ada-at-example' }, { email: 'email is not valid' }],
      [{ password: 'short7!', confirmPassword: 'short7!' }, { password: 'password should be at least 8 characters' }],
      [{ password: 'x'.repeat(129), confirmPassword: 'x'.repeat(129) }, { password: 'password should be at most 128 characters' }],
      [{ confirmPassword: 'something else' }, { confirmPassword: 'passwords do not match' }],
      [{ password: 'password1', confirmPassword: 'password1' }, { password: 'this password is too common' }],
      [{ acceptTerms: false }, { acceptTerms: 'please accept the terms and conditions' }],
    ];
    for (const [overrides, fields] of cases) {
      const response = await browser.post('/api/v1/auth/signup', form(overrides));
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json().error.fields).toMatchObject(fields);
    }
    expect(await customerCount()).toBe(0);
  });

  it('keeps the account chosen on a public page, and refuses one the bank does not offer (issue 39 item 11)', async () => {
    const browser = new TestBrowser(app);
    const refused = await browser.post('/api/v1/auth/signup', form({ email: 'narnia@example.com', product: 'narnia-gold' }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toMatchObject({ product: 'choose one of the accounts on our Current accounts or Savings pages' });
    expect((await browser.post('/api/v1/auth/signup', form({ email: 'gold@example.com', product: 'gold-checking' }))).statusCode).toBe(201);
    const [customer] = await database().query<{ chosen_product: string | null }>("SELECT chosen_product FROM customers WHERE email = 'gold@example.com'");
    expect(customer?.chosen_product).toBe('gold-checking');
    expect((await browser.post('/api/v1/auth/signup', form({ email: 'plain@example.com' }))).statusCode).toBe(201);
    const [plain] = await database().query<{ chosen_product: string | null }>("SELECT chosen_product FROM customers WHERE email = 'plain@example.com'");
    expect(plain?.chosen_product).toBeNull();
  });

  it('walks signup, the emailed link opened in another browser, and the waiting tab signing in', async () => {
    const waitingTab = new TestBrowser(app);
    const signup = await waitingTab.post('/api/v1/auth/signup', form());
    expect(signup.statusCode).toBe(201);
    expect(signup.json()).toEqual({ message: expect.stringContaining('Check your email'), next: 'verify-email' });
    expect((await waitingTab.post('/api/v1/auth/signup/status')).json()).toEqual({ verified: false });

    const mail = await lastMessageTo(database(), 'ada@example.com');
    const token = tokenFromLink(mail?.text ?? '', '/verification');
    const otherBrowser = new TestBrowser(app);
    expect((await otherBrowser.post('/api/v1/auth/verify-email', { token })).statusCode).toBe(200);
    expect(otherBrowser.cookies.session).toBeUndefined();

    const polled = await waitingTab.post('/api/v1/auth/signup/status');
    expect(polled.json()).toMatchObject({ verified: true, next: 'phone', user: { email: 'ada@example.com', emailVerified: true } });
    expect(waitingTab.cookies.session).toBeDefined();
    expect((await waitingTab.get('/api/v1/me')).json()).toMatchObject({ next: 'phone' });

    const reused = await otherBrowser.post('/api/v1/auth/verify-email', { token });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.message).toMatch(/not valid, has expired or was already used/);
  });

  it('answers a taken email exactly like a new one, and tells the owner instead', async () => {
    const before = await customerCount();
    const response = await new TestBrowser(app).post('/api/v1/auth/signup', form({ firstName: 'Mallory' }));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ message: expect.stringContaining('Check your email'), next: 'verify-email' });
    expect(response.cookies.map((cookie) => cookie.name)).toEqual(['signup_browser']);
    expect(await customerCount()).toBe(before);
    expect((await lastMessageTo(database(), 'ada@example.com'))?.subject).toMatch(/Someone tried to sign up/);
  });

  it('does not let the verify page of another browser sign in, whatever email its URL names', async () => {
    const stranger = new TestBrowser(app);
    expect((await stranger.post('/api/v1/auth/signup/status')).json()).toEqual({ verified: false });
    expect(stranger.cookies.session).toBeUndefined();
  });

  it('refuses a forged or expired link', async () => {
    const browser = new TestBrowser(app);
    expect((await browser.post('/api/v1/auth/verify-email', { token: 'f'.repeat(43) })).statusCode).toBe(400);

    await browser.post('/api/v1/auth/signup', form({ email: 'late@example.com' }));
    const token = tokenFromLink((await lastMessageTo(database(), 'late@example.com'))?.text ?? '', '/verification');
    await database().query("UPDATE email_verifications SET expires_at = now() - interval '1 second'");
    expect((await browser.post('/api/v1/auth/verify-email', { token })).statusCode).toBe(400);
  });

  it('resends a link at most once a minute, and the new link replaces the old', async () => {
    const browser = new TestBrowser(app);
    await browser.post('/api/v1/auth/signup', form({ email: 'resend@example.com' }));
    const first = tokenFromLink((await lastMessageTo(database(), 'resend@example.com'))?.text ?? '', '/verification');
    const tooSoon = await browser.post('/api/v1/auth/signup/resend');
    expect(tooSoon.statusCode).toBe(429);
    expect(Number(tooSoon.headers['retry-after'])).toBeGreaterThan(0);

    await database().query("UPDATE email_verifications SET created_at = created_at - interval '2 minutes'");
    expect((await browser.post('/api/v1/auth/signup/resend')).statusCode).toBe(200);
    const second = tokenFromLink((await lastMessageTo(database(), 'resend@example.com'))?.text ?? '', '/verification');
    expect(second).not.toBe(first);
    expect((await browser.post('/api/v1/auth/verify-email', { token: first })).statusCode).toBe(400);
    expect((await browser.post('/api/v1/auth/verify-email', { token: second })).statusCode).toBe(200);
  });

  it("resends a link to a signed-in customer whose email is not verified, and binds this browser's poll", async () => {
    const signupBrowser = new TestBrowser(app);
    await signupBrowser.post('/api/v1/auth/signup', form({ email: 'elsewhere@example.com' }));
    await database().query("UPDATE email_verifications SET created_at = created_at - interval '2 minutes'");
    const other = new TestBrowser(app);
    const login = await other.post('/api/v1/auth/login', { email: 'elsewhere@example.com', password: form().password });
    expect(login.json().next).toBe('verify-email');
    expect((await other.post('/api/v1/auth/signup/resend')).statusCode).toBe(200);
    const token = tokenFromLink((await lastMessageTo(database(), 'elsewhere@example.com'))?.text ?? '', '/verification');
    await new TestBrowser(app).post('/api/v1/auth/verify-email', { token });
    expect((await other.post('/api/v1/auth/signup/status')).json()).toMatchObject({ verified: true, next: 'phone' });
    const again = await other.post('/api/v1/auth/signup/resend');
    expect(again.statusCode).toBe(409);
  });

  it('writes signups and verifications to the audit log without secrets', async () => {
    const rows = await database().query<{ action: string; details: unknown }>("SELECT action, details FROM audit_log WHERE action LIKE 'auth.%'");
    expect(rows.map((row) => row.action)).toEqual(expect.arrayContaining(['auth.signup', 'auth.email_verification']));
    expect(JSON.stringify(rows)).not.toContain('analytical engine');
  });
});
