import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import * as crypto from 'node:crypto';
import * as net from 'node:net';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import { TestClock, type Clock } from '../../db/clock.ts';
import type { Database } from '../../db/database.ts';
import { testConfig } from '../../test/app.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentKit, type PayingCustomer } from '../../test/payments.ts';
import { testAppSuite } from '../../test/suite.ts';
import type { ConnectedAppsDependencies } from './dependencies.ts';
import { createAuthorizationServer } from './oauth/server.ts';
import { OAuthResourceError, resolveFdxAccess } from './resource-access.ts';
import {
  approveAsCustomer,
  connectWithOpenIdClient,
  followToApp,
  injectFetch,
  openIdClientOf,
  registerTestRecipient,
  startAuthorization,
  type ConsentingCustomer,
  type TestRecipient,
} from './test-kit.ts';

/** The app under test and the probe below share these: the same issuer and the same sealed keys. */
const environment = {
  PUBLIC_URL: 'http://bank.test',
  SESSION_SECRET: Buffer.alloc(32, 5).toString('base64'),
  ENCRYPTION_KEY: Buffer.alloc(32, 6).toString('base64'),
};

/** A resource route of the test's own: the access check alone, whatever the FDX routes answer. */
function probeRoutes(db: Database, clock: Clock, port?: number) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const config = await testConfig(port === undefined ? environment : { ...environment, PUBLIC_URL: `http://127.0.0.1:${port}` });
    const dependencies = { db, config, clock, authorizationServer: createAuthorizationServer({ db, config, clock }) } as ConnectedAppsDependencies;
    app.get('/fdx-probe/accounts', async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        return await resolveFdxAccess(dependencies, request);
      } catch (error) {
        if (!(error instanceof OAuthResourceError)) throw error;
        return reply
          .code(error.status)
          .header('www-authenticate', error.wwwAuthenticate())
          .send({ error: error.error ?? null });
      }
    });
  };
}

describeEachDatabase('Connecting an app with openid-client: FAPI 2.0 with PAR, PKCE, private_key_jwt and DPoP (issue 38)', (database) => {
  const clock = new TestClock();
  let app: FastifyInstance;
  const kit = paymentKit(
    testAppSuite(
      database,
      (built) => ({ app } = built),
      (db) => ({ environment, dependencies: { clock }, beforeReady: (built) => void built.register(probeRoutes(db, clock)) }),
    ),
  );

  let dana: PayingCustomer;
  let customer: ConsentingCustomer;
  let recipient: TestRecipient;
  beforeAll(async () => {
    recipient = await registerTestRecipient(database());
  });
  // A customer of each test's own: approving is rate-limited per customer (20 in 10 minutes).
  beforeEach(async () => {
    const who = await kit.customer();
    dana = who;
    customer = { browser: who.browser, answerStepUp: (challengeId) => kit.verifyLatestCode(who, challengeId) };
  });

  it('runs the whole flow: discovery, PAR, consent with a step-up, code, DPoP-bound tokens, a refresh, a resource call', async () => {
    const connected = await connectWithOpenIdClient(
      app,
      { db: database() },
      {
        recipient,
        customer,
        accountIds: [dana.checking.id],
        scopes: ['fdx:accountdetailed:read', 'fdx:transactions:read'],
      },
    );
    expect(connected.tokens.token_type.toLowerCase()).toBe('dpop');
    expect(connected.tokens.expires_in).toBe(300);
    expect(connected.tokens.scope?.split(' ').sort()).toEqual(['fdx:accountdetailed:read', 'fdx:transactions:read']);
    expect(connected.tokens.refresh_token).toEqual(expect.any(String));

    const read = await client.fetchProtectedResource(
      connected.config,
      connected.tokens.access_token,
      new URL('http://bank.test/fdx-probe/accounts'),
      'GET',
      undefined,
      undefined,
      {
        DPoP: connected.dpop,
      },
    );
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ consentId: connected.consentId, customerId: dana.id, accountIds: [dana.checking.id] });

    const refreshed = await client.refreshTokenGrant(connected.config, connected.tokens.refresh_token ?? '', undefined, { DPoP: connected.dpop });
    expect(refreshed.access_token).not.toBe(connected.tokens.access_token);
    // Not rotated (FAPI 2.0 advises against rotating sender-constrained refresh tokens).
    expect(refreshed.refresh_token ?? connected.tokens.refresh_token).toBe(connected.tokens.refresh_token);
    const again = await client.fetchProtectedResource(
      connected.config,
      refreshed.access_token,
      new URL('http://bank.test/fdx-probe/accounts'),
      'GET',
      undefined,
      undefined,
      {
        DPoP: connected.dpop,
      },
    );
    expect(again.status).toBe(200);

    // The FDX resource API itself: only the consented account.
    const accounts = await client.fetchProtectedResource(
      connected.config,
      refreshed.access_token,
      new URL('http://bank.test/fdx/v6/accounts'),
      'GET',
      undefined,
      undefined,
      {
        DPoP: connected.dpop,
      },
    );
    expect(accounts.status).toBe(200);
    const body = await accounts.text();
    expect(body).toContain(dana.checking.id);
    expect(body).not.toContain(dana.savings.id);
  });

  it('keeps no token, code or request reference in clear in its store', async () => {
    const connected = await connectWithOpenIdClient(
      app,
      { db: database() },
      { recipient, customer, accountIds: [dana.checking.id], scopes: ['fdx:transactions:read'] },
    );
    const rows = await database().query<{ id: string; payload: unknown }>('SELECT id, payload FROM oauth_store');
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(connected.tokens.access_token);
    expect(stored).not.toContain(connected.tokens.refresh_token);
  });

  it('publishes the same metadata at both discovery addresses, FAPI 2.0 as configured', async () => {
    const oauth = await app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
    const openid = await app.inject({ method: 'GET', url: '/.well-known/openid-configuration' });
    expect(oauth.statusCode).toBe(200);
    expect(oauth.json()).toEqual(openid.json());
    expect(oauth.json()).toMatchObject({
      issuer: 'http://bank.test',
      pushed_authorization_request_endpoint: 'http://bank.test/oauth/par',
      token_endpoint: 'http://bank.test/oauth/token',
      jwks_uri: 'http://bank.test/oauth/jwks',
      require_pushed_authorization_requests: true,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['private_key_jwt'],
      authorization_response_iss_parameter_supported: true,
      response_types_supported: ['code'],
    });
    expect(oauth.json<{ dpop_signing_alg_values_supported: string[] }>().dpop_signing_alg_values_supported.sort()).toEqual(['ES256', 'EdDSA', 'PS256']);
    expect(oauth.headers['x-content-type-options']).toBe('nosniff');
    const token = await app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=authorization_code&code=x',
    });
    expect(token.statusCode).toBe(400);
    expect(token.json()).toMatchObject({ error: 'invalid_request' });
    expect(token.headers['cache-control']).toBe('no-store');
    expect(token.headers['x-frame-options']).toBe('DENY');
    const jwks = await app.inject({ method: 'GET', url: '/oauth/jwks' });
    const keys = jwks.json<{ keys: { alg: string; d?: string }[] }>().keys;
    expect(keys.map((key) => key.alg).sort()).toEqual(['ES256', 'PS256']);
    expect(keys.every((key) => key.d === undefined)).toBe(true);
  });

  it('shows the consent page only to the browser that started the request, with what the app asks and the open accounts', async () => {
    const oauth = await openIdClientOf(app, recipient);
    const started = await startAuthorization(oauth, customer, recipient, 'openid fdx:statements:read fdx:transactions:read');
    const page = await dana.browser.get(`/api/v1/connect/requests/${started.uid}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({
      uid: started.uid,
      app: { id: recipient.id, name: 'Test Budget App', logoUrl: null, contactEmail: 'developers@app.example' },
      scopes: ['fdx:transactions:read', 'fdx:statements:read'],
      maxDays: 365,
    });
    expect(
      page
        .json<{ accounts: { id: string }[] }>()
        .accounts.map((account) => account.id)
        .sort(),
    ).toEqual([dana.checking.id, dana.savings.id].sort());
    const erin = await kit.customer();
    expect((await erin.browser.get(`/api/v1/connect/requests/${started.uid}`)).statusCode).toBe(404);
    expect((await erin.browser.request({ method: 'POST', url: `/api/v1/connect/requests/${started.uid}/refuse`, payload: {} })).statusCode).toBe(404);
    expect((await dana.browser.get('/api/v1/connect/requests/unknown-uid')).statusCode).toBe(404);
  });

  it("refuses to approve another customer's account or data the app did not ask for, writing nothing", async () => {
    const erin = await kit.customer();
    const oauth = await openIdClientOf(app, recipient);
    const started = await startAuthorization(oauth, customer, recipient, 'openid fdx:transactions:read');
    const url = `/api/v1/connect/requests/${started.uid}/approve`;
    const before = await database().query<{ n: number }>('SELECT count(*)::int AS n FROM connected_app_consents');
    const notHers = await dana.browser.request({
      method: 'POST',
      url,
      headers: { 'idempotency-key': crypto.randomUUID() },
      payload: { accountIds: [erin.checking.id], scopes: ['fdx:transactions:read'], days: 30 },
    });
    expect(notHers.statusCode).toBe(400);
    expect(notHers.json<{ error: { fields: Record<string, string> } }>().error.fields.accountIds).toEqual(expect.any(String));
    const notAsked = await dana.browser.request({
      method: 'POST',
      url,
      headers: { 'idempotency-key': crypto.randomUUID() },
      payload: { accountIds: [dana.checking.id], scopes: ['fdx:statements:read'], days: 30 },
    });
    expect(notAsked.statusCode).toBe(400);
    const tooLong = await dana.browser.request({
      method: 'POST',
      url,
      headers: { 'idempotency-key': crypto.randomUUID() },
      payload: { accountIds: [dana.checking.id], scopes: ['fdx:transactions:read'], days: 366 },
    });
    expect(tooLong.statusCode).toBe(400);
    const noKey = await dana.browser.post(url, { accountIds: [dana.checking.id], scopes: ['fdx:transactions:read'], days: 30 });
    expect(noKey.statusCode).toBe(400);
    expect(await database().query<{ n: number }>('SELECT count(*)::int AS n FROM connected_app_consents')).toEqual(before);
  });

  it('asks for a step-up every time, records the consent for the days chosen with an audit entry, and answers the same request again alike', async () => {
    const oauth = await openIdClientOf(app, recipient);
    const started = await startAuthorization(oauth, customer, recipient, 'openid fdx:transactions:read fdx:statements:read');
    const approval = { accountIds: [dana.savings.id], scopes: ['fdx:statements:read' as const], days: 30 };
    const key = crypto.randomUUID();
    const approved = await approveAsCustomer(customer, started.uid, approval, key);
    expect(approved.statusCode, approved.body).toBe(200);
    const redirectTo = approved.json<{ redirectTo: string }>().redirectTo;
    expect(redirectTo).toBe(`http://bank.test/oauth/auth/${started.uid}`);
    const url = `/api/v1/connect/requests/${started.uid}/approve`;
    const repeated = await dana.browser.request({ method: 'POST', url, payload: approval, headers: { 'idempotency-key': key } });
    expect(repeated.statusCode, repeated.body).toBe(200);
    expect(repeated.json()).toEqual({ redirectTo });
    const changed = await dana.browser.request({ method: 'POST', url, payload: { ...approval, days: 31 }, headers: { 'idempotency-key': key } });
    expect(changed.statusCode).toBe(404);
    const [consent] = await database().query<{ id: string; scopes: string[]; expires_at: Date; created_at: Date; grant_id: string | null }>(
      'SELECT id, scopes, expires_at, created_at, grant_id FROM connected_app_consents WHERE customer_id = $1 ORDER BY created_at DESC LIMIT 1',
      [dana.id],
    );
    expect(consent?.scopes).toEqual(['fdx:statements:read']);
    expect(consent?.grant_id).toEqual(expect.any(String));
    expect(Math.round(((consent?.expires_at.getTime() ?? 0) - clock.now().getTime()) / 86_400_000)).toBe(30);
    const [audit] = await database().query<{ actor_type: string; actor_id: string; details: Record<string, unknown> }>(
      "SELECT actor_type, actor_id, details FROM audit_log WHERE action = 'connected_app.consented' AND subject = $1",
      [consent?.id],
    );
    expect(audit).toMatchObject({
      actor_type: 'customer',
      actor_id: dana.id,
      details: { recipientId: recipient.id, appName: 'Test Budget App', scopes: 'fdx:statements:read', accountCount: 1 },
    });

    const callback = await followToApp(customer, redirectTo);
    expect(callback.origin + callback.pathname).toBe(recipient.redirectUri);
    expect(callback.searchParams.get('iss')).toBe('http://bank.test');
    const tokens = await client.authorizationCodeGrant(
      oauth.config,
      callback,
      { pkceCodeVerifier: started.codeVerifier, expectedState: started.state },
      undefined,
      { DPoP: oauth.dpop },
    );
    expect(tokens.scope).toBe('fdx:statements:read');
    // The refresh token ends with the consent (30 days), not later.
    const [refresh] = await database().query<{ expires_at: Date }>("SELECT expires_at FROM oauth_store WHERE model = 'RefreshToken' AND grant_id = $1", [
      consent?.grant_id,
    ]);
    expect(Math.abs((refresh?.expires_at.getTime() ?? 0) - (consent?.expires_at.getTime() ?? 0))).toBeLessThan(60_000);

    // The next authorization of the same app asks again: no consent is remembered.
    const next = await startAuthorization(oauth, customer, recipient, 'openid fdx:transactions:read');
    expect(next.uid).not.toBe(started.uid);
  });

  it('sends access_denied to the app when the customer refuses, with an audit entry, and then the request is over', async () => {
    const oauth = await openIdClientOf(app, recipient);
    const started = await startAuthorization(oauth, customer, recipient, 'openid fdx:transactions:read');
    const refused = await dana.browser.request({ method: 'POST', url: `/api/v1/connect/requests/${started.uid}/refuse`, payload: {} });
    expect(refused.statusCode, refused.body).toBe(200);
    expect((await dana.browser.get(`/api/v1/connect/requests/${started.uid}`)).statusCode).toBe(404);
    const callback = await followToApp(customer, refused.json<{ redirectTo: string }>().redirectTo);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    await expect(
      client.authorizationCodeGrant(oauth.config, callback, { pkceCodeVerifier: started.codeVerifier, expectedState: started.state }, undefined, {
        DPoP: oauth.dpop,
      }),
    ).rejects.toMatchObject({ error: 'access_denied' });
    const audits = await database().query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE action = 'connected_app.refused' AND actor_id = $1", [
      dana.id,
    ]);
    expect(audits[0]?.n).toBeGreaterThanOrEqual(1);
  });

  it('refuses a pushed request without PKCE, and an authorization request not pushed', async () => {
    const oauth = await openIdClientOf(app, recipient);
    await expect(
      client.buildAuthorizationUrlWithPAR(
        oauth.config,
        { redirect_uri: recipient.redirectUri, scope: 'openid fdx:transactions:read', state: client.randomState() },
        { DPoP: oauth.dpop },
      ),
    ).rejects.toMatchObject({ error: 'invalid_request' });
    const plain = client.buildAuthorizationUrl(oauth.config, {
      redirect_uri: recipient.redirectUri,
      scope: 'openid fdx:transactions:read',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const answer = await dana.browser.get(`${plain.pathname}${plain.search}`);
    const location = new URL(String(answer.headers.location ?? 'http://none/'));
    expect(answer.statusCode).toBe(303);
    expect(location.origin + location.pathname).toBe(recipient.redirectUri);
    expect(location.searchParams.get('error')).toBe('invalid_request');
  });

  it('refuses a client that does not sign its own assertion, and a code exchanged without the DPoP proof', async () => {
    const issuer = new URL('http://bank.test');
    const secretClient = await client.discovery(issuer, recipient.clientId, undefined, client.ClientSecretPost('guessed-secret'), {
      algorithm: 'oauth2',
      execute: [client.allowInsecureRequests],
      [client.customFetch]: injectFetch(app),
    });
    await expect(
      client.buildAuthorizationUrlWithPAR(secretClient, {
        redirect_uri: recipient.redirectUri,
        scope: 'openid fdx:transactions:read',
        code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      }),
    ).rejects.toMatchObject({ error: 'invalid_client' });

    const oauth = await openIdClientOf(app, recipient);
    const started = await startAuthorization(oauth, customer, recipient, 'openid fdx:transactions:read');
    const approved = await approveAsCustomer(customer, started.uid, { accountIds: [dana.checking.id], scopes: ['fdx:transactions:read'], days: 10 });
    const callback = await followToApp(customer, approved.json<{ redirectTo: string }>().redirectTo);
    await expect(
      client.authorizationCodeGrant(oauth.config, callback, { pkceCodeVerifier: started.codeVerifier, expectedState: started.state }),
    ).rejects.toMatchObject({
      error: expect.stringMatching(/^invalid_(grant|request|dpop_proof)$/),
    });
  });

  it('refuses a refresh once the customer revoked the consent, and everything once staff disabled the app', async () => {
    const connected = await connectWithOpenIdClient(
      app,
      { db: database() },
      { recipient, customer, accountIds: [dana.checking.id], scopes: ['fdx:transactions:read'] },
    );
    const revoked = await dana.browser.request({ method: 'DELETE', url: `/api/v1/me/connected-apps/${connected.consentId}` });
    expect(revoked.statusCode, revoked.body).toBe(204);
    await expect(client.refreshTokenGrant(connected.config, connected.tokens.refresh_token ?? '', undefined, { DPoP: connected.dpop })).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(
      client.fetchProtectedResource(
        connected.config,
        connected.tokens.access_token,
        new URL('http://bank.test/fdx-probe/accounts'),
        'GET',
        undefined,
        undefined,
        { DPoP: connected.dpop },
      ),
    ).rejects.toMatchObject({
      status: 401,
      cause: [expect.objectContaining({ scheme: 'dpop', parameters: expect.objectContaining({ error: 'invalid_token' }) })],
    });

    const other = await registerTestRecipient(database(), { name: 'Soon Disabled' });
    const second = await connectWithOpenIdClient(
      app,
      { db: database() },
      { recipient: other, customer, accountIds: [dana.checking.id], scopes: ['fdx:transactions:read'] },
    );
    await database().query('UPDATE data_recipients SET enabled = false WHERE id = $1', [other.id]);
    await expect(client.refreshTokenGrant(second.config, second.tokens.refresh_token ?? '', undefined, { DPoP: second.dpop })).rejects.toMatchObject({
      error: 'invalid_client',
    });
    const oauth = await openIdClientOf(app, other);
    await expect(
      client.buildAuthorizationUrlWithPAR(
        oauth.config,
        {
          redirect_uri: other.redirectUri,
          scope: 'openid fdx:transactions:read',
          code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
          code_challenge_method: 'S256',
        },
        { DPoP: oauth.dpop },
      ),
    ).rejects.toMatchObject({ error: 'invalid_client' });
  });

  it('ends the consent when the app revokes its refresh token (RFC 7009): Settings no longer lists it, and its access token stops', async () => {
    const connected = await connectWithOpenIdClient(
      app,
      { db: database() },
      { recipient, customer, accountIds: [dana.checking.id], scopes: ['fdx:transactions:read'] },
    );
    const listed = async () =>
      (await dana.browser.get('/api/v1/me/connected-apps')).json<{ items: { consentId: string }[] }>().items.map((item) => item.consentId);
    expect(await listed()).toContain(connected.consentId);
    await client.tokenRevocation(connected.config, connected.tokens.refresh_token ?? '');
    expect(await listed()).not.toContain(connected.consentId);
    const [row] = await database().query<{ revoked_by: string | null }>('SELECT revoked_by FROM connected_app_consents WHERE id = $1', [connected.consentId]);
    expect(row?.revoked_by).toBe('app');
    await expect(
      client.fetchProtectedResource(
        connected.config,
        connected.tokens.access_token,
        new URL('http://bank.test/fdx-probe/accounts'),
        'GET',
        undefined,
        undefined,
        {
          DPoP: connected.dpop,
        },
      ),
    ).rejects.toMatchObject({ status: 401 });
  });

  it('refuses a refresh once the consent expired, though the refresh token was made to last as long', async () => {
    const connected = await connectWithOpenIdClient(
      app,
      { db: database() },
      { recipient, customer, accountIds: [dana.checking.id], scopes: ['fdx:transactions:read'] },
    );
    await database().query(
      `UPDATE connected_app_consents SET created_at = $2::timestamptz - interval '2 days', expires_at = $2::timestamptz - interval '1 second' WHERE id = $1`,
      [connected.consentId, clock.now()],
    );
    await expect(client.refreshTokenGrant(connected.config, connected.tokens.refresh_token ?? '', undefined, { DPoP: connected.dpop })).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it("completes a second app's request though the provider's login session of the first ended meanwhile", async () => {
    await connectWithOpenIdClient(app, { db: database() }, { recipient, customer, accountIds: [dana.checking.id], scopes: ['fdx:transactions:read'] });
    const other = await registerTestRecipient(database(), { name: 'Second App' });
    const oauth = await openIdClientOf(app, other);
    const started = await startAuthorization(oauth, customer, other, 'openid fdx:accountdetailed:read');
    await database().query("DELETE FROM oauth_store WHERE model = 'Session'");
    const approved = await approveAsCustomer(customer, started.uid, { accountIds: [dana.checking.id], scopes: ['fdx:accountdetailed:read'], days: 5 });
    expect(approved.statusCode, approved.body).toBe(200);
    const callback = await followToApp(customer, approved.json<{ redirectTo: string }>().redirectTo);
    const tokens = await client.authorizationCodeGrant(
      oauth.config,
      callback,
      { pkceCodeVerifier: started.codeVerifier, expectedState: started.state },
      undefined,
      { DPoP: oauth.dpop },
    );
    expect(tokens.scope).toBe('fdx:accountdetailed:read');
  });

  it('shows no consent page for an app staff disabled meanwhile', async () => {
    const other = await registerTestRecipient(database(), { name: 'Disabled Meanwhile' });
    const started = await startAuthorization(await openIdClientOf(app, other), customer, other, 'openid fdx:transactions:read');
    expect((await dana.browser.get(`/api/v1/connect/requests/${started.uid}`)).statusCode).toBe(200);
    await database().query('UPDATE data_recipients SET enabled = false WHERE id = $1', [other.id]);
    expect((await dana.browser.get(`/api/v1/connect/requests/${started.uid}`)).statusCode).toBe(404);
    const approved = await dana.browser.request({
      method: 'POST',
      url: `/api/v1/connect/requests/${started.uid}/approve`,
      headers: { 'idempotency-key': crypto.randomUUID() },
      payload: { accountIds: [dana.checking.id], scopes: ['fdx:transactions:read'], days: 30 },
    });
    expect(approved.statusCode).toBe(404);
  });

  it("answers a broken authorization request with the bank's own plain page, echoing nothing of it", async () => {
    const answer = await dana.browser.get('/oauth/auth?client_id=%3Cscript%3Ealert(1)%3C%2Fscript%3E&response_type=code');
    expect(answer.statusCode).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.body).toContain('Strongroom Demo Bank');
    expect(answer.body).not.toContain('<script>');
    expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
    expect(answer.headers['cache-control']).toBe('no-store');
  });
});

/** A port nothing listens on now, for a server whose public address must be known before it starts. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describeEachDatabase('Connecting an app with openid-client over a real socket (issue 38)', (database) => {
  let port = 0;
  beforeAll(async () => {
    port = await freePort();
  });
  const clock = new TestClock();
  let app: FastifyInstance;
  const kit = paymentKit(
    testAppSuite(
      database,
      (built) => ({ app } = built),
      (db) => ({
        environment: { ...environment, PUBLIC_URL: `http://127.0.0.1:${port}` },
        dependencies: { clock },
        beforeReady: (built) => void built.register(probeRoutes(db, clock, port)),
      }),
    ),
  );

  it('completes the flow with openid-client using its own fetch', async () => {
    await app.listen({ host: '127.0.0.1', port });
    const dana = await kit.customer();
    const recipient = await registerTestRecipient(database());
    const connected = await connectWithOpenIdClient(
      app,
      { db: database() },
      {
        recipient,
        customer: { browser: dana.browser, answerStepUp: (challengeId) => kit.verifyLatestCode(dana, challengeId) },
        accountIds: [dana.checking.id],
        scopes: ['fdx:transactions:read'],
        fetch: (url, options) => fetch(url, options as RequestInit),
      },
    );
    expect(connected.issuer).toBe(`http://127.0.0.1:${port}`);
    const read = await client.fetchProtectedResource(
      connected.config,
      connected.tokens.access_token,
      new URL(`http://127.0.0.1:${port}/fdx-probe/accounts`),
      'GET',
      undefined,
      undefined,
      {
        DPoP: connected.dpop,
      },
    );
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ consentId: connected.consentId, scopes: ['fdx:transactions:read'] });
  });
});
