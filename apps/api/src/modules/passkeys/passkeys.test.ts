import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Passkey } from '@strongroom/contracts/passkeys.ts';
import type { Config } from '../../config.ts';
import { consecutiveFailures, reserveSignInAttempt, throttlePolicy } from '../../platform/login-throttle.ts';
import { lastMessageTo, TestBrowser } from '../../test/client.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { SoftwarePasskey, type CreationOptionsJSON, type RequestOptionsJSON } from '../../test/passkeys.ts';
import { paymentSuite, validExternal, type PayingCustomer } from '../../test/payments.ts';
import { relyingPartyOf } from './service.ts';

describeEachDatabase('passkeys: add, name, remove; sign in; answer a step-up', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built));

  function newAuthenticator(): SoftwarePasskey {
    const { rpID, origin } = relyingPartyOf(config.publicUrl);
    return new SoftwarePasskey(origin, rpID);
  }

  /** Registration options behind the SMS step-up (the customer has no other method yet). */
  async function registrationOptions(who: PayingCustomer): Promise<CreationOptionsJSON> {
    const asked = await who.browser.post('/api/v1/me/passkeys/registration/options');
    expect(asked.statusCode, asked.body).toBe(403);
    const error = asked.json<{ error: { code: string; challengeId: string; methods?: string[] } }>().error;
    expect(error.code).toBe('step_up_required');
    if (error.methods?.includes('passkey')) {
      // A customer who has a passkey answers with it: no text is sent until they ask for one.
      await answerStepUp(who, error.challengeId, authenticators.get(who.id));
    } else {
      await kit.verifyLatestCode(who, error.challengeId);
    }
    const options = await who.browser.request({ method: 'POST', url: '/api/v1/me/passkeys/registration/options', headers: { 'x-step-up': error.challengeId } });
    expect(options.statusCode, options.body).toBe(200);
    return options.json<{ options: CreationOptionsJSON }>().options;
  }

  const authenticators = new Map<string, SoftwarePasskey>();

  async function addPasskey(who: PayingCustomer, name = 'My laptop'): Promise<{ passkey: Passkey; authenticator: SoftwarePasskey }> {
    const options = await registrationOptions(who);
    const authenticator = newAuthenticator();
    const added = await who.browser.post('/api/v1/me/passkeys', { name, response: authenticator.register(options) });
    expect(added.statusCode, added.body).toBe(201);
    if (!authenticators.has(who.id)) authenticators.set(who.id, authenticator);
    return { passkey: added.json<{ passkey: Passkey }>().passkey, authenticator };
  }

  async function answerStepUp(who: PayingCustomer, challengeId: string, authenticator: SoftwarePasskey | undefined): Promise<void> {
    if (!authenticator) throw new Error('no passkey to answer with');
    const options = await who.browser.post(`/api/v1/step-up/${challengeId}/passkey/options`);
    expect(options.statusCode, options.body).toBe(200);
    const answered = await who.browser.post(`/api/v1/step-up/${challengeId}/passkey`, {
      response: authenticator.assert(options.json<{ options: RequestOptionsJSON }>().options),
    });
    expect(answered.statusCode, answered.body).toBe(200);
  }

  async function signInOptions(browser: TestBrowser): Promise<RequestOptionsJSON> {
    const response = await browser.post('/api/v1/auth/passkey/options');
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ options: RequestOptionsJSON }>().options;
  }

  async function auditActions(customerId: string): Promise<{ action: string; outcome: string; details: Record<string, unknown> }[]> {
    return database().query(`SELECT action, outcome, details FROM audit_log WHERE actor_id = $1 ORDER BY id`, [customerId]);
  }

  describe('relying party', () => {
    it('is the host of PUBLIC_URL; a loopback address becomes localhost on the same port (browsers refuse an IP)', () => {
      expect(relyingPartyOf('https://bank.example.com')).toEqual({ rpID: 'bank.example.com', origin: 'https://bank.example.com' });
      expect(relyingPartyOf('http://127.0.0.1:4123')).toEqual({ rpID: 'localhost', origin: 'http://localhost:4123' });
      expect(relyingPartyOf('http://[::1]:4123')).toEqual({ rpID: 'localhost', origin: 'http://localhost:4123' });
      expect(relyingPartyOf('http://localhost:3000')).toEqual({ rpID: 'localhost', origin: 'http://localhost:3000' });
    });
  });

  describe('add, list, rename, remove', () => {
    it('adds a passkey behind a step-up, lists it with its name, and audits it', async () => {
      const who = await kit.customer();
      const options = await registrationOptions(who);
      expect(options.rp.id).toBe('localhost');
      expect(options).toMatchObject({ authenticatorSelection: { residentKey: 'required', userVerification: 'required' }, attestation: 'none' });
      // The user handle tells nothing: not the customer's id.
      expect(Buffer.from(options.user.id, 'base64url').toString('utf8')).not.toContain(who.id);
      const authenticator = newAuthenticator();
      const added = await who.browser.post('/api/v1/me/passkeys', { name: '  Work laptop ', response: authenticator.register(options) });
      expect(added.statusCode, added.body).toBe(201);
      const passkey = added.json<{ passkey: Passkey }>().passkey;
      expect(passkey).toMatchObject({ name: 'Work laptop', lastUsedAt: null, backedUp: false, transports: ['internal'] });
      const list = await who.browser.get('/api/v1/me/passkeys');
      expect(list.statusCode).toBe(200);
      expect(list.json()).toEqual({ items: [passkey] });
      const audit = await auditActions(who.id);
      expect(audit).toContainEqual(expect.objectContaining({ action: 'customer.passkey_added', outcome: 'success' }));
      const [customer] = await database().query<{ email: string }>('SELECT email FROM customers WHERE id = $1', [who.id]);
      const mail = await lastMessageTo(database(), customer?.email ?? '');
      expect(mail?.subject).toMatch(/^A passkey was added to your .+ account$/);
      expect(mail?.text).toContain('"Work laptop"');
      // Only the public key is kept.
      const [row] = await database().query<{ credential_id: string }>('SELECT credential_id FROM passkeys WHERE id = $1', [passkey.id]);
      expect(row?.credential_id).toBe(authenticator.id);
    });

    it('refuses a replayed registration, a second use of the step-up, a registration for a challenge never given, and a wrong origin', async () => {
      const who = await kit.customer();
      const options = await registrationOptions(who);
      const authenticator = newAuthenticator();
      const response = authenticator.register(options);
      expect((await who.browser.post('/api/v1/me/passkeys', { name: 'Phone', response })).statusCode).toBe(201);
      authenticators.set(who.id, authenticator);
      const replayed = await who.browser.post('/api/v1/me/passkeys', { name: 'Phone again', response });
      expect(replayed.statusCode).toBe(400);
      expect(replayed.json().error.code).toBe('bad_request');

      const invented = await who.browser.post('/api/v1/me/passkeys', {
        name: 'Invented',
        response: newAuthenticator().register(options, { challenge: Buffer.from('a challenge nobody gave out').toString('base64url') }),
      });
      expect(invented.statusCode).toBe(400);

      const fresh = await registrationOptions(who);
      const otherSite = await who.browser.post('/api/v1/me/passkeys', {
        name: 'Phishing',
        response: newAuthenticator().register(fresh, { origin: 'https://bank-login.example' }),
      });
      expect(otherSite.statusCode).toBe(400);
      // The challenge is spent by the refused answer too.
      expect((await who.browser.post('/api/v1/me/passkeys', { name: 'Late', response: newAuthenticator().register(fresh) })).statusCode).toBe(400);

      expect((await who.browser.get('/api/v1/me/passkeys')).json().items).toHaveLength(1);
      const failures = (await auditActions(who.id)).filter((row) => row.action === 'customer.passkey_added' && row.outcome === 'failure');
      expect(failures.length).toBeGreaterThanOrEqual(4);
    });

    it("refuses another customer's registration challenge and a step-up spent once already", async () => {
      const ann = await kit.customer();
      const ben = await kit.customer();
      const annOptions = await registrationOptions(ann);
      const stolen = await ben.browser.post('/api/v1/me/passkeys', { name: 'Not mine', response: newAuthenticator().register(annOptions) });
      expect(stolen.statusCode).toBe(400);

      const asked = await ben.browser.post('/api/v1/me/passkeys/registration/options');
      const challengeId = asked.json<{ error: { challengeId: string } }>().error.challengeId;
      await kit.verifyLatestCode(ben, challengeId);
      const withStepUp = { method: 'POST', url: '/api/v1/me/passkeys/registration/options', headers: { 'x-step-up': challengeId } } as const;
      expect((await ben.browser.request(withStepUp)).statusCode).toBe(200);
      const again = await ben.browser.request(withStepUp);
      expect(again.statusCode).toBe(403);
      expect(again.json().error.code).toBe('step_up_required');
      // Ann's step-up does not open Ben's registration.
      const annAsked = await ann.browser.post('/api/v1/me/passkeys/registration/options');
      const annChallenge = annAsked.json<{ error: { challengeId: string } }>().error.challengeId;
      await kit.verifyLatestCode(ann, annChallenge);
      const crossed = await ben.browser.request({ ...withStepUp, headers: { 'x-step-up': annChallenge } });
      expect(crossed.statusCode).toBe(403);
    });

    it("renames and removes; another customer's passkey, an unknown or a malformed id answer 404 not_found", async () => {
      const ann = await kit.customer();
      const ben = await kit.customer();
      const { passkey } = await addPasskey(ann, 'Laptop');
      const renamed = await ann.browser.request({ method: 'PATCH', url: `/api/v1/me/passkeys/${passkey.id}`, payload: { name: 'Old laptop' } });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json().passkey).toMatchObject({ id: passkey.id, name: 'Old laptop' });
      for (const name of ['', '   ', 'x'.repeat(61)]) {
        const bad = await ann.browser.request({ method: 'PATCH', url: `/api/v1/me/passkeys/${passkey.id}`, payload: { name } });
        expect(bad.statusCode, name).toBe(400);
        expect(bad.json().error.code).toBe('validation_failed');
      }
      const unknownId = '00000000-0000-4000-8000-000000000000';
      for (const id of [passkey.id, unknownId, 'not-an-id']) {
        const rename = await ben.browser.request({ method: 'PATCH', url: `/api/v1/me/passkeys/${id}`, payload: { name: 'Mine now' } });
        expect(rename.statusCode, id).toBe(404);
        expect(rename.json().error.code).toBe('not_found');
        const remove = await ben.browser.request({ method: 'DELETE', url: `/api/v1/me/passkeys/${id}` });
        expect(remove.statusCode, id).toBe(404);
        expect(remove.json().error.code).toBe('not_found');
      }
      expect((await ben.browser.get('/api/v1/me/passkeys')).json()).toEqual({ items: [] });
      const removed = await ann.browser.request({ method: 'DELETE', url: `/api/v1/me/passkeys/${passkey.id}` });
      expect(removed.statusCode).toBe(204);
      const [annRow] = await database().query<{ email: string }>('SELECT email FROM customers WHERE id = $1', [ann.id]);
      expect((await lastMessageTo(database(), annRow?.email ?? ''))?.subject).toMatch(/^A passkey was removed from your .+ account$/);
      expect((await ann.browser.get('/api/v1/me/passkeys')).json()).toEqual({ items: [] });
      expect((await ann.browser.request({ method: 'DELETE', url: `/api/v1/me/passkeys/${passkey.id}` })).statusCode).toBe(404);
      const actions = (await auditActions(ann.id)).map((row) => row.action);
      expect(actions).toEqual(expect.arrayContaining(['customer.passkey_added', 'customer.passkey_renamed', 'customer.passkey_removed']));
    });

    it('answers 401 without a session', async () => {
      const browser = new TestBrowser(app);
      expect((await browser.get('/api/v1/me/passkeys')).statusCode).toBe(401);
      expect((await browser.post('/api/v1/me/passkeys/registration/options')).statusCode).toBe(401);
    });
  });

  describe('sign in', () => {
    it('signs in with a passkey, no email asked, exactly as a password does: { user, next }, cookies, audit, new-browser notice', async () => {
      const who = await kit.customer();
      const { passkey, authenticator } = await addPasskey(who);
      const browser = new TestBrowser(app);
      const options = await signInOptions(browser);
      expect(options.allowCredentials ?? []).toEqual([]);
      const signedIn = await browser.post('/api/v1/auth/passkey', { response: authenticator.assert(options) });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      expect(signedIn.json()).toMatchObject({ user: { id: who.id }, next: 'dashboard' });
      expect(browser.cookies.session).toBeDefined();
      expect(browser.cookies.csrf).toBeDefined();
      expect(browser.cookies.device).toBeDefined();
      const me = await browser.get('/api/v1/me');
      expect(me.statusCode).toBe(200);
      expect(me.json().user.id).toBe(who.id);
      const login = (await auditActions(who.id)).filter((row) => row.action === 'auth.login' && row.outcome === 'success');
      expect(login.at(-1)?.details).toMatchObject({ via: 'passkey', passkeyId: passkey.id });
      const notices = await database().query<{ kind: string }>(`SELECT kind FROM notifications WHERE customer_id = $1 AND kind = 'new_sign_in'`, [who.id]);
      expect(notices).toHaveLength(1);
      const [listed] = (await browser.get('/api/v1/me/passkeys')).json<{ items: Passkey[] }>().items;
      expect(listed?.lastUsedAt).not.toBeNull();
      // The same browser again: no second notice.
      expect((await browser.post('/api/v1/auth/passkey', { response: authenticator.assert(await signInOptions(browser)) })).statusCode).toBe(200);
      expect(await database().query(`SELECT 1 FROM notifications WHERE customer_id = $1 AND kind = 'new_sign_in'`, [who.id])).toHaveLength(1);
    });

    it('refuses a replayed assertion, an unknown passkey, a wrong challenge, a foreign origin, a cloned counter and a removed passkey (401)', async () => {
      const who = await kit.customer();
      const { passkey, authenticator } = await addPasskey(who);
      const browser = new TestBrowser(app);
      const expectRefused = async (response: object) => {
        const answer = await browser.post('/api/v1/auth/passkey', { response });
        expect(answer.statusCode, answer.body).toBe(401);
        expect(answer.json().error.code).toBe('unauthenticated');
        expect(browser.cookies.session).toBeUndefined();
      };
      const good = authenticator.assert(await signInOptions(browser));
      expect((await new TestBrowser(app).post('/api/v1/auth/passkey', { response: good })).statusCode).toBe(200);
      await expectRefused(good);
      await expectRefused(newAuthenticator().assert(await signInOptions(browser)));
      await expectRefused(authenticator.assert(await signInOptions(browser), { challenge: Buffer.from('made up').toString('base64url') }));
      await expectRefused(authenticator.assert(await signInOptions(browser), { origin: 'https://bank-login.example' }));
      // A counter that goes backwards means a copied authenticator.
      await expectRefused(authenticator.assert(await signInOptions(browser), { counter: 1 }));
      // Another customer's user handle on this credential.
      await expectRefused(authenticator.assert(await signInOptions(browser), { userHandle: Buffer.from('someone else').toString('base64url') }));
      const failures = (await auditActions(who.id)).filter((row) => row.action === 'auth.login' && row.outcome === 'failure');
      expect(failures.map((row) => row.details.reason)).toEqual(expect.arrayContaining(['challenge_unknown_or_used', 'verification_failed']));
      await who.browser.request({ method: 'DELETE', url: `/api/v1/me/passkeys/${passkey.id}` });
      await expectRefused(authenticator.assert(await signInOptions(browser)));
    });

    it('a passkey still signs in an account whose password sign-in needs recovery after 100 failed guesses', async () => {
      const who = await kit.customer();
      const { authenticator } = await addPasskey(who);
      const [customer] = await database().query<{ email: string }>('SELECT email FROM customers WHERE id = $1', [who.id]);
      await database().query('INSERT INTO login_throttle (key, consecutive_failures, last_failure_at) VALUES ($1, $2, now())', [
        `account:${customer?.email ?? ''}`,
        throttlePolicy.failuresBeforeRecoveryRequired,
      ]);
      const browser = new TestBrowser(app);
      const byPassword = await browser.post('/api/v1/auth/login', { email: customer?.email, password: 'whatever it is' });
      expect([403, 429]).toContain(byPassword.statusCode);
      const byPasskey = await browser.post('/api/v1/auth/passkey', { response: authenticator.assert(await signInOptions(browser)) });
      expect(byPasskey.statusCode, byPasskey.body).toBe(200);
    });

    it('a failed passkey counts against the address, and a throttled address waits, passkey or not (429)', async () => {
      const who = await kit.customer();
      const { authenticator } = await addPasskey(who);
      const browser = new TestBrowser(app);
      const refused = await browser.post('/api/v1/auth/passkey', { response: newAuthenticator().assert(await signInOptions(browser)) });
      expect(refused.statusCode).toBe(401);
      expect(await consecutiveFailures(database(), `ip:${browser.ip}`)).toBe(1);
      // Each reserved attempt counts as a failure until it is settled as a success.
      for (let failure = 1; failure <= throttlePolicy.ip.freeFailures; failure += 1) {
        expect((await reserveSignInAttempt(database(), [`ip:${browser.ip}`])).outcome).toBe('reserved');
      }
      const throttled = await browser.post('/api/v1/auth/passkey', { response: authenticator.assert(await signInOptions(browser)) });
      expect(throttled.statusCode).toBe(429);
      expect(throttled.json().error.code).toBe('rate_limited');
      expect(browser.cookies.session).toBeUndefined();
    });
  });

  describe('step-up', () => {
    const transfer = (who: PayingCustomer) => ({
      kind: 'external',
      fromAccountId: who.checking.id,
      toAccountNumber: '1234509876',
      accountName: 'Pat Payee',
      ...validExternal,
      amountCents: 2_500,
      message: 'passkey step-up',
    });

    it('offers the passkey first, sends no text, and a passkey assertion completes the challenge for its one request', async () => {
      const who = await kit.customer();
      const { authenticator } = await addPasskey(who);
      const textsBefore = await database().query('SELECT 1 FROM outbox_messages WHERE to_address = $1', [who.phone]);
      const key = crypto.randomUUID();
      const first = await kit.pay(who, '/transfers', transfer(who), key);
      expect(first.statusCode).toBe(403);
      const error = first.json<{ error: { challengeId: string; methods: string[] } }>().error;
      expect(error.methods[0]).toBe('passkey');
      expect(await database().query('SELECT 1 FROM outbox_messages WHERE to_address = $1', [who.phone])).toHaveLength(textsBefore.length);
      const options = await who.browser.post(`/api/v1/step-up/${error.challengeId}/passkey/options`);
      expect(options.statusCode, options.body).toBe(200);
      expect(options.json().options.allowCredentials).toEqual([expect.objectContaining({ id: authenticator.id })]);
      const response = authenticator.assert(options.json<{ options: RequestOptionsJSON }>().options);
      const answered = await who.browser.post(`/api/v1/step-up/${error.challengeId}/passkey`, { response });
      expect(answered.statusCode, answered.body).toBe(200);
      expect(answered.json()).toEqual({ verified: true });
      // Replayed: the assertion's challenge is spent, and the step-up is verified already.
      expect((await who.browser.post(`/api/v1/step-up/${error.challengeId}/passkey`, { response })).statusCode).toBeGreaterThanOrEqual(400);
      const paid = await kit.pay(who, '/transfers', transfer(who), key, { 'x-step-up': error.challengeId });
      expect(paid.statusCode, paid.body).toBe(201);
      const verify = (await auditActions(who.id)).filter((row) => row.action === 'step_up.verify' && row.outcome === 'success');
      expect(verify.at(-1)?.details).toMatchObject({ method: 'passkey' });
    });

    it("refuses another customer's passkey, an unknown one, a sign-in challenge, a replay, and someone else's step-up (404)", async () => {
      const ann = await kit.customer();
      const ben = await kit.customer();
      const annKey = (await addPasskey(ann)).authenticator;
      const benKey = (await addPasskey(ben)).authenticator;
      const first = await kit.pay(ann, '/transfers', transfer(ann), crypto.randomUUID());
      const challengeId = first.json<{ error: { challengeId: string } }>().error.challengeId;
      const options = async () => (await ann.browser.post(`/api/v1/step-up/${challengeId}/passkey/options`)).json<{ options: RequestOptionsJSON }>().options;
      const answer = (response: object) => ann.browser.post(`/api/v1/step-up/${challengeId}/passkey`, { response });

      expect((await answer(benKey.assert(await options()))).statusCode).toBe(400);
      expect((await answer(newAuthenticator().assert(await options()))).statusCode).toBe(400);
      expect((await answer(annKey.assert(await signInOptions(new TestBrowser(app))))).statusCode).toBe(400);
      expect((await answer(annKey.assert(await options(), { challenge: Buffer.from('made up').toString('base64url') }))).statusCode).toBe(400);
      // Ben can neither ask options for Ann's challenge nor answer it.
      expect((await ben.browser.post(`/api/v1/step-up/${challengeId}/passkey/options`)).statusCode).toBe(404);
      expect((await ben.browser.post(`/api/v1/step-up/${challengeId}/passkey`, { response: benKey.assert(await options()) })).statusCode).toBe(404);
      expect((await ann.browser.post('/api/v1/step-up/00000000-0000-4000-8000-000000000000/passkey/options')).statusCode).toBe(404);
      expect((await ann.browser.post('/api/v1/step-up/not-a-challenge/passkey/options')).statusCode).toBe(404);
      // Still open: Ann's own passkey completes it.
      expect((await answer(annKey.assert(await options()))).statusCode).toBe(200);
      const refused = (await auditActions(ann.id)).filter((row) => row.action === 'step_up.verify' && row.outcome === 'failure');
      expect(refused.map((row) => row.details.reason)).toEqual(expect.arrayContaining(['not_own_passkey', 'challenge_unknown_or_used']));
    });

    it('a customer without a passkey gets 409 for passkey options', async () => {
      const who = await kit.customer();
      const first = await kit.pay(who, '/transfers', transfer(who), crypto.randomUUID());
      const challengeId = first.json<{ error: { challengeId: string } }>().error.challengeId;
      const options = await who.browser.post(`/api/v1/step-up/${challengeId}/passkey/options`);
      expect(options.statusCode).toBe(409);
    });
  });
});
