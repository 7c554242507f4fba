import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { testAppSuite } from '../../test/suite.ts';
import { TestBrowser, lastMessageTo, tokenFromLink } from '../../test/client.ts';
import { onboardedCustomer, testPassword, uniqueTestPhone } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';

type Method = 'POST' | 'PUT';

describeEachDatabase('contact details: a customer changes their email, phone and address', (database) => {
  let app: FastifyInstance;
  let config: Config;

  testAppSuite(database, (built) => ({ app, config } = built));

  /** An onboarded customer signed in a moment ago through the real sign-in form, with email and password only. */
  async function signedIn() {
    const email = `${randomUUID()}@example.com`;
    const phone = uniqueTestPhone();
    const created = await onboardedCustomer({ db: database(), storage: app.services.storage, encryptionKey: config.secrets.encryptionKey }, { email, phone });
    const browser = new TestBrowser(app);
    const login = await browser.post('/api/v1/auth/login', { email, password: testPassword });
    expect(login.statusCode, login.body).toBe(200);
    return { id: created.userId, email, phone, browser };
  }
  type Customer = Awaited<ReturnType<typeof signedIn>>;

  async function messagesTo(to: string): Promise<{ subject: string; text: string }[]> {
    return database().query<{ subject: string; text: string }>(
      'SELECT subject, text_body AS text FROM outbox_messages WHERE lower(to_address) = lower($1) ORDER BY sequence',
      [to],
    );
  }

  async function stepUpCode(phone: string): Promise<string> {
    const code = /\b(\d{6})\b/.exec((await lastMessageTo(database(), phone))?.text ?? '')?.[1];
    if (!code) throw new Error('no step-up code sent');
    return code;
  }

  /** The request, its step-up answered with the SMS code to the phone on file, and the request again. */
  async function withStepUp(who: Customer, method: Method, url: string, payload: object) {
    const first = await who.browser.request({ method, url, payload });
    expect(first.statusCode, first.body).toBe(403);
    const { challengeId } = first.json<{ error: { challengeId: string } }>().error;
    const verified = await who.browser.post(`/api/v1/step-up/${challengeId}`, { code: await stepUpCode(who.phone) });
    expect(verified.statusCode, verified.body).toBe(200);
    return who.browser.request({ method, url, payload, headers: { 'x-step-up': challengeId } });
  }

  async function auditRows(customerId: string, action: string) {
    return database().query<{ outcome: string; details: Record<string, unknown> }>(
      'SELECT outcome, details FROM audit_log WHERE actor_id = $1 AND action = $2 ORDER BY id',
      [customerId, action],
    );
  }

  async function timelineTitles(who: Customer): Promise<string[]> {
    const response = await who.browser.get('/api/v1/me/security-events');
    expect(response.statusCode).toBe(200);
    return response.json<{ items: { title: string }[] }>().items.map((item) => item.title);
  }

  const newNumber = () => uniqueTestPhone().replace('+1', '');

  describe('email', () => {
    it('a password alone cannot change it, however recent the sign-in: the step-up code goes to the phone on file and nothing goes to the new address', async () => {
      const dana = await signedIn();
      const newEmail = `${randomUUID()}@example.net`;
      const first = await dana.browser.post('/api/v1/me/email-change', { email: newEmail });
      expect(first.statusCode).toBe(403);
      expect(first.json().error).toMatchObject({ code: 'step_up_required', methods: ['sms'] });
      expect((await lastMessageTo(database(), dana.phone))?.text).toContain('changing your email address');
      // An unanswered challenge does not open it.
      const unanswered = await dana.browser.request({
        method: 'POST',
        url: '/api/v1/me/email-change',
        payload: { email: newEmail },
        headers: { 'x-step-up': first.json().error.challengeId },
      });
      expect(unanswered.statusCode).toBe(403);
      expect(unanswered.json().error.code).toBe('step_up_required');
      expect(await messagesTo(newEmail)).toEqual([]);
      expect((await dana.browser.get('/api/v1/me/contact')).json()).toMatchObject({ email: dana.email, pendingEmail: null });
    });

    it('behind the step-up, sends a single-use link to the new address; the email changes only when it is followed, and the old address is told', async () => {
      const dana = await signedIn();
      const newEmail = `${randomUUID()}@example.net`;
      const started = await withStepUp(dana, 'POST', '/api/v1/me/email-change', { email: newEmail });
      expect(started.statusCode, started.body).toBe(200);
      expect(started.json()).toEqual({ sentTo: newEmail, expiresAt: expect.any(String) });
      const link = await lastMessageTo(database(), newEmail);
      const token = tokenFromLink(link?.text ?? '', '/email-change');
      // Stored hashed: the token itself is nowhere in the table.
      const stored = await database().query<{ token_hash: Buffer }>('SELECT token_hash FROM email_changes WHERE customer_id = $1', [dana.id]);
      expect(stored).toHaveLength(1);
      expect(Buffer.from(stored[0]?.token_hash ?? []).toString('latin1')).not.toContain(token);
      // Not changed yet.
      const waiting = (await dana.browser.get('/api/v1/me/contact')).json();
      expect(waiting).toMatchObject({ email: dana.email, pendingEmail: { email: newEmail } });
      expect((await dana.browser.get('/api/v1/me')).json().user.email).toBe(dana.email);

      const confirmed = await dana.browser.post('/api/v1/me/email-change/confirm', { token });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect(confirmed.json()).toEqual({ email: newEmail });
      expect((await dana.browser.get('/api/v1/me')).json().user.email).toBe(newEmail);
      const notice = await lastMessageTo(database(), dana.email);
      expect(notice?.subject).toMatch(/email address was changed/);
      expect(notice?.text).not.toContain(newEmail);
      // The link works once.
      const again = await dana.browser.post('/api/v1/me/email-change/confirm', { token });
      expect(again.statusCode).toBe(400);
      expect(again.json().error.code).toBe('verification_expired');
      // The new address signs in; the old one no longer does.
      expect((await new TestBrowser(app).post('/api/v1/auth/login', { email: newEmail, password: testPassword })).statusCode).toBe(200);
      expect((await new TestBrowser(app).post('/api/v1/auth/login', { email: dana.email, password: testPassword })).statusCode).toBe(401);
      // Audited with masked addresses, and on the customer's security timeline.
      const [changed] = await auditRows(dana.id, 'customer.email_changed');
      expect(changed).toMatchObject({
        outcome: 'success',
        details: { from: expect.stringMatching(/•••@example\.com$/), to: expect.stringMatching(/•••@example\.net$/) },
      });
      expect(JSON.stringify(changed?.details)).not.toContain(newEmail);
      expect(await auditRows(dana.id, 'customer.email_change_requested')).toHaveLength(1);
      const titles = await timelineTitles(dana);
      expect(titles).toContain('Email address changed');
      expect(titles).toContain('New email address asked for: a link was sent to it');
    });

    it("another customer's link does not work: it answers like an unknown one and changes nothing", async () => {
      const dana = await signedIn();
      const erin = await signedIn();
      const newEmail = `${randomUUID()}@example.net`;
      expect((await withStepUp(dana, 'POST', '/api/v1/me/email-change', { email: newEmail })).statusCode).toBe(200);
      const token = tokenFromLink((await lastMessageTo(database(), newEmail))?.text ?? '', '/email-change');
      const foreign = await erin.browser.post('/api/v1/me/email-change/confirm', { token });
      const unknown = await erin.browser.post('/api/v1/me/email-change/confirm', { token: 'A'.repeat(43) });
      for (const response of [foreign, unknown]) {
        expect(response.statusCode).toBe(404);
        expect(response.json().error.code).toBe('not_found');
      }
      expect(foreign.json().error.message).toBe(unknown.json().error.message);
      expect((await erin.browser.get('/api/v1/me')).json().user.email).toBe(erin.email);
      // Dana's link still works for Dana.
      expect((await dana.browser.post('/api/v1/me/email-change/confirm', { token })).statusCode).toBe(200);
    });

    it('an expired link answers verification_expired; a new request replaces the old link', async () => {
      const dana = await signedIn();
      const first = `${randomUUID()}@example.net`;
      expect((await withStepUp(dana, 'POST', '/api/v1/me/email-change', { email: first })).statusCode).toBe(200);
      const token = tokenFromLink((await lastMessageTo(database(), first))?.text ?? '', '/email-change');
      await database().query("UPDATE email_changes SET expires_at = now() - interval '1 minute' WHERE customer_id = $1", [dana.id]);
      const expired = await dana.browser.post('/api/v1/me/email-change/confirm', { token });
      expect(expired.statusCode).toBe(400);
      expect(expired.json().error.code).toBe('verification_expired');
      expect((await dana.browser.get('/api/v1/me')).json().user.email).toBe(dana.email);
    });

    it('an address another customer uses is refused with email_taken, and nothing is sent to it', async () => {
      const dana = await signedIn();
      const erin = await signedIn();
      const before = (await messagesTo(erin.email)).length;
      const refused = await withStepUp(dana, 'POST', '/api/v1/me/email-change', { email: erin.email.toUpperCase() });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatchObject({ code: 'email_taken', fields: { email: expect.stringContaining('another customer') } });
      expect(await messagesTo(erin.email)).toHaveLength(before);
      // The same address as now is a field error, before any code is sent.
      const same = await dana.browser.post('/api/v1/me/email-change', { email: dana.email });
      expect(same.statusCode).toBe(400);
      expect(same.json().error.fields.email).toBe('This is already your email address.');
    });
  });

  describe('phone', () => {
    it('behind the step-up, texts a code to the new number; the phone changes only with that code, and the old number and the email are told', async () => {
      const dana = await signedIn();
      const national = newNumber();
      const first = await dana.browser.post('/api/v1/me/phone-change', { countryCode: 'US', phoneNumber: national });
      expect(first.statusCode).toBe(403);
      expect(first.json().error).toMatchObject({ code: 'step_up_required', methods: ['sms'] });
      expect(await messagesTo(`+1${national}`)).toEqual([]);
      const started = await withStepUp(dana, 'POST', '/api/v1/me/phone-change', { countryCode: 'US', phoneNumber: national });
      expect(started.statusCode, started.body).toBe(200);
      expect(started.json()).toEqual({ sentTo: `•••• ${national.slice(-4)}`, expiresAt: expect.any(String) });
      const code = /\b(\d{4})\b/.exec((await lastMessageTo(database(), `+1${national}`))?.text ?? '')?.[1] ?? '';
      expect(code).toMatch(/^\d{4}$/);
      expect((await dana.browser.get('/api/v1/me/contact')).json()).toMatchObject({
        phone: { number: dana.phone },
        pendingPhone: { sentTo: `•••• ${national.slice(-4)}` },
      });

      const wrong = await dana.browser.post('/api/v1/me/phone-change/confirm', { code: code === '0000' ? '1111' : '0000' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error.fields.code).toMatch(/not right/);
      const confirmed = await dana.browser.post('/api/v1/me/phone-change/confirm', { code });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect(confirmed.json()).toEqual({ phone: { number: `+1${national}`, country: 'US' } });
      expect((await dana.browser.get('/api/v1/me/contact')).json()).toMatchObject({ phone: { number: `+1${national}` }, pendingPhone: null });
      expect((await lastMessageTo(database(), dana.phone))?.text).toContain(`changed to •••• ${national.slice(-4)}`);
      expect((await lastMessageTo(database(), dana.email))?.subject).toMatch(/phone number was changed/);
      // Step-up codes now go to the new number.
      const next = await dana.browser.post('/api/v1/me/email-change', { email: `${randomUUID()}@example.net` });
      expect(next.statusCode).toBe(403);
      expect((await lastMessageTo(database(), `+1${national}`))?.text).toContain('changing your email address');
      expect(await auditRows(dana.id, 'customer.phone_changed')).toEqual([
        expect.objectContaining({ outcome: 'failure' }),
        expect.objectContaining({ outcome: 'success', details: { from: `•••• ${dana.phone.slice(-4)}`, to: `•••• ${national.slice(-4)}` } }),
      ]);
      expect(await timelineTitles(dana)).toContain('Phone number changed');
    });

    it("another customer's code does not work, and a number that is not valid is a field error before any code is sent", async () => {
      const dana = await signedIn();
      const erin = await signedIn();
      const danasNumber = newNumber();
      expect((await withStepUp(dana, 'POST', '/api/v1/me/phone-change', { countryCode: 'US', phoneNumber: danasNumber })).statusCode).toBe(200);
      const danasCode = /\b(\d{4})\b/.exec((await lastMessageTo(database(), `+1${danasNumber}`))?.text ?? '')?.[1] ?? '';
      // Erin has no change waiting: Dana's code does nothing for her.
      const noChange = await erin.browser.post('/api/v1/me/phone-change/confirm', { code: danasCode });
      expect(noChange.statusCode).toBe(409);
      // With one of her own waiting, Dana's code is just a wrong code.
      const erinsNumber = newNumber();
      expect((await withStepUp(erin, 'POST', '/api/v1/me/phone-change', { countryCode: 'US', phoneNumber: erinsNumber })).statusCode).toBe(200);
      const erinsCode = /\b(\d{4})\b/.exec((await lastMessageTo(database(), `+1${erinsNumber}`))?.text ?? '')?.[1] ?? '';
      if (danasCode !== erinsCode) {
        const foreign = await erin.browser.post('/api/v1/me/phone-change/confirm', { code: danasCode });
        expect(foreign.statusCode).toBe(400);
        expect(foreign.json().error.code).toBe('validation_failed');
      }
      expect((await erin.browser.get('/api/v1/me/contact')).json().phone.number).toBe(erin.phone);

      const smsBefore = (await messagesTo(dana.phone)).length;
      const invalid = await dana.browser.post('/api/v1/me/phone-change', { countryCode: 'US', phoneNumber: '12' });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().error.fields.phoneNumber).toBe('This is not a valid phone number for the chosen country');
      expect(await messagesTo(dana.phone)).toHaveLength(smsBefore);
    });

    it('a number another customer verified is refused with phone_taken once the code is right', async () => {
      const dana = await signedIn();
      const erin = await signedIn();
      const national = erin.phone.replace('+1', '');
      expect((await withStepUp(dana, 'POST', '/api/v1/me/phone-change', { countryCode: 'US', phoneNumber: national })).statusCode).toBe(200);
      const code = /\b(\d{4})\b/.exec((await lastMessageTo(database(), erin.phone))?.text ?? '')?.[1] ?? '';
      const refused = await dana.browser.post('/api/v1/me/phone-change/confirm', { code });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('phone_taken');
      expect((await dana.browser.get('/api/v1/me/contact')).json().phone.number).toBe(dana.phone);
    });

    it('five wrong codes end the change (verification_expired), and more tries are rate limited', async () => {
      const dana = await signedIn();
      const national = newNumber();
      expect((await withStepUp(dana, 'POST', '/api/v1/me/phone-change', { countryCode: 'US', phoneNumber: national })).statusCode).toBe(200);
      const code = /\b(\d{4})\b/.exec((await lastMessageTo(database(), `+1${national}`))?.text ?? '')?.[1] ?? '';
      const wrong = code === '0000' ? '1111' : '0000';
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 5; attempt += 1) statuses.push((await dana.browser.post('/api/v1/me/phone-change/confirm', { code: wrong })).statusCode);
      expect(statuses).toEqual([400, 400, 400, 400, 400]);
      const spent = await dana.browser.post('/api/v1/me/phone-change/confirm', { code });
      expect(spent.statusCode).toBe(400);
      expect(spent.json().error.code).toBe('verification_expired');
      const later: number[] = [];
      for (let attempt = 0; attempt < 5; attempt += 1) later.push((await dana.browser.post('/api/v1/me/phone-change/confirm', { code })).statusCode);
      expect(later.at(-1)).toBe(429);
      expect((await dana.browser.get('/api/v1/me/contact')).json().phone.number).toBe(dana.phone);
    });
  });

  describe('postal address', () => {
    const address = { country: 'US', address: '12 Elm Street\nApartment 4', city: 'Springfield', state: 'IL', zipCode: '62701-1234' };

    it('checks the fields as the identity step does, before any code is sent', async () => {
      const dana = await signedIn();
      const smsBefore = (await messagesTo(dana.phone)).length;
      const refused = await dana.browser.request({
        method: 'PUT',
        url: '/api/v1/me/address',
        payload: { country: 'US', address: 'one\ntwo\nthree', city: 'Springfield', state: '🙂', zipCode: 'abc' },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.fields).toMatchObject({
        address: 'use at most 2 lines',
        state: 'choose a state from the list',
        zipCode: 'enter a 5-digit ZIP code, or ZIP+4 like 62701-1234',
      });
      expect(await messagesTo(dana.phone)).toHaveLength(smsBefore);
    });

    it('saves a two-line address behind the step-up, tells the customer and records it', async () => {
      const dana = await signedIn();
      expect((await dana.browser.get('/api/v1/me/contact')).json().address).toBeNull();
      const first = await dana.browser.request({ method: 'PUT', url: '/api/v1/me/address', payload: address });
      expect(first.statusCode).toBe(403);
      expect(first.json().error.code).toBe('step_up_required');
      const saved = await withStepUp(dana, 'PUT', '/api/v1/me/address', address);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toEqual({ address });
      expect((await dana.browser.get('/api/v1/me/contact')).json().address).toEqual(address);
      expect((await lastMessageTo(database(), dana.email))?.subject).toMatch(/postal address was changed/);
      expect(await auditRows(dana.id, 'customer.address_changed')).toHaveLength(1);
      expect(await timelineTitles(dana)).toContain('Postal address changed');
    });
  });

  it('every route answers 401 without a session', async () => {
    const anonymous = new TestBrowser(app);
    expect((await anonymous.get('/api/v1/me/contact')).statusCode).toBe(401);
    expect((await anonymous.post('/api/v1/me/email-change', { email: 'a@example.com' })).statusCode).toBe(401);
    expect((await anonymous.post('/api/v1/me/phone-change/confirm', { code: '1234' })).statusCode).toBe(401);
  });
});
