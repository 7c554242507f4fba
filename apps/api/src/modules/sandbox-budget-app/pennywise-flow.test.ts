import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentKit, type PayingCustomer } from '../../test/payments.ts';
import { testAppSuite } from '../../test/suite.ts';
import { approveAsCustomer, followToApp, injectFetch, type ConsentingCustomer } from '../connected-apps/test-kit.ts';
import { sandboxBudgetAppRoutes } from './routes.ts';
import { seedSandboxBudgetApp } from './seed.ts';
import { sessionCookieName } from './sessions.ts';

/**
 * Pennywise against the real bank: its discovery, pushed authorization request (private_key_jwt
 * with the key the seed registered, PKCE, DPoP), the customer's consent through the bank's consent
 * API with a step-up, the code exchanged, the FDX reads, and the customer's revocation. The app runs
 * in an instance of its own whose requests reach the bank through app.inject: the same exchanges as
 * over HTTP, without a socket. The browser's part is the Chromium journey's.
 */
const environment = { PUBLIC_URL: 'http://127.0.0.1:47913' };
const base = '/sandbox/budget-app';

describeEachDatabase('Pennywise, the sandbox’s budgeting app, connected to the bank (issue 38)', (database) => {
  let bank: FastifyInstance;
  const suite = testAppSuite(database, (built) => ({ app: bank } = built), { environment });
  const kit = paymentKit(suite);
  let pennywise: FastifyInstance;
  let dana: PayingCustomer;
  let customer: ConsentingCustomer;

  beforeAll(async () => {
    await seedSandboxBudgetApp(database(), suite().config);
    pennywise = Fastify();
    await pennywise.register(fastifyCookie);
    await pennywise.register(sandboxBudgetAppRoutes({ db: database(), config: suite().config }, { fetch: injectFetch(bank) }), { prefix: base });
    await pennywise.ready();
    dana = await kit.customer({ savingsCents: 20_000 });
    customer = { browser: dana.browser, answerStepUp: (challengeId) => kit.verifyLatestCode(dana, challengeId) };
    return () => pennywise.close();
  });

  function cookieOf(response: LightMyRequestResponse): string {
    const cookie = response.cookies.find((item) => item.name === sessionCookieName);
    if (!cookie) throw new Error('Pennywise set no session cookie');
    return cookie.value;
  }

  function visit(path: string, session: string) {
    return pennywise.inject({ method: 'GET', url: path, cookies: { [sessionCookieName]: session } });
  }

  it('connects with one account, shows that account’s transactions and not the other’s, and says the access ended once the customer revokes it', async () => {
    const started = await pennywise.inject({
      method: 'POST',
      url: `${base}/start`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(started.statusCode, started.body).toBe(303);
    const authorization = new URL(String(started.headers.location));
    expect(authorization.origin + authorization.pathname).toBe(`${environment.PUBLIC_URL}/oauth/auth`);
    expect(authorization.searchParams.get('client_id')).toBe('sandbox-budget-app');
    expect(authorization.searchParams.get('request_uri')).toMatch(/^urn:ietf:params:oauth:request_uri:/);
    const cookie = started.cookies.find((item) => item.name === sessionCookieName);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: base });
    const session = cookieOf(started);

    // The customer's browser at the bank: the authorization endpoint sends it to the consent page.
    const atAuthorization = await dana.browser.get(`${authorization.pathname}${authorization.search}`);
    const uid = /^\/connect\/([\w-]+)$/.exec(String(atAuthorization.headers.location))?.[1];
    expect(uid, atAuthorization.body).toBeDefined();
    const asked = await dana.browser.get(`/api/v1/connect/requests/${uid}`);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toMatchObject({ app: { name: 'Pennywise (sandbox)' } });

    const approved = await approveAsCustomer(customer, uid ?? '', { accountIds: [dana.checking.id], scopes: asked.json().scopes, days: 30 });
    expect(approved.statusCode, approved.body).toBe(200);
    const callback = await followToApp(customer, approved.json<{ redirectTo: string }>().redirectTo);
    expect(callback.origin + callback.pathname).toBe(`${environment.PUBLIC_URL}${base}/callback`);

    const finished = await visit(`${callback.pathname}${callback.search}`, session);
    expect(finished.statusCode, finished.body).toBe(303);
    expect(finished.headers.location).toBe(`${base}/refresh`);
    const reading = await visit(`${base}/refresh`, session);
    expect(reading.statusCode, reading.body).toBe(200);
    const text = reading.body.replace(/\s+/g, ' ');
    expect(text).toContain('Your money, from Strongroom');
    expect(text).toContain(`Account ending ${dana.checking.number.slice(-4)}`);
    expect(text).not.toContain(`Account ending ${dana.savings.number.slice(-4)}`);
    expect(text).toMatch(/<caption> ?Transactions of [^<]+<\/caption>/);
    expect(text).toContain('Opening deposit');
    expect(text).toMatch(/<td class="amount amount--out">-\$200\.00<\/td>/);

    // The same code a second time is refused: the callback is not a way back in.
    const replayed = await visit(`${callback.pathname}${callback.search}`, session);
    expect(replayed.statusCode).toBe(400);

    const [consent] = await database().query<{ id: string }>(
      "SELECT c.id FROM connected_app_consents c JOIN data_recipients r ON r.id = c.recipient_id WHERE r.client_id = 'sandbox-budget-app' AND c.customer_id = $1",
      [dana.id],
    );
    const revoked = await dana.browser.request({ method: 'DELETE', url: `/api/v1/me/connected-apps/${consent?.id}` });
    expect(revoked.statusCode, revoked.body).toBe(204);

    const ended = await visit(`${base}/refresh`, session);
    expect(ended.statusCode).toBe(200);
    expect(ended.body).toContain('Strongroom says this app’s access has ended (the customer revoked it or it expired).');
    // Forgotten: the next visit no longer holds a connection.
    expect((await visit(`${base}/refresh`, session)).body).toContain('Pennywise is not connected yet');
  });

  it('a customer who does not allow it leaves Pennywise with nothing, and it says so', async () => {
    const started = await pennywise.inject({
      method: 'POST',
      url: `${base}/start`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    const authorization = new URL(String(started.headers.location));
    const atAuthorization = await dana.browser.get(`${authorization.pathname}${authorization.search}`);
    const uid = /^\/connect\/([\w-]+)$/.exec(String(atAuthorization.headers.location))?.[1];
    const refused = await dana.browser.request({ method: 'POST', url: `/api/v1/connect/requests/${uid}/refuse`, payload: {} });
    expect(refused.statusCode, refused.body).toBe(200);
    const callback = await followToApp(customer, refused.json<{ redirectTo: string }>().redirectTo);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const page = await visit(`${callback.pathname}${callback.search}`, cookieOf(started));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('You did not allow Pennywise');
    expect((await visit(`${base}/refresh`, cookieOf(started))).body).toContain('Pennywise is not connected yet');
  });
});
