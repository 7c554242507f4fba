import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWK } from 'jose';
import * as client from 'openid-client';
import Provider from 'oidc-provider';
import { dataScopes, type DataScope } from '@strongroom/contracts/connected-apps.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { sha256 } from '../../platform/crypto.ts';
import type { TestBrowser } from '../../test/client.ts';
import { attachGrant, insertConsent } from './consents-repository.ts';
import { oauthStoreAdapter } from './oauth/adapter.ts';
import { accessTokenSeconds, fdxResourceOf } from './oauth/configuration.ts';

/**
 * Connected apps for tests of every part (docs/connected-apps.md, "Tests"): a registered app with
 * its own key pair, a consent with a DPoP-bound access token made through the provider's own models,
 * and (connectWithOpenIdClient, below) the whole flow run by openid-client. No browser.
 */

export interface TestRecipient {
  id: string;
  clientId: string;
  redirectUri: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

/** Inserts an enabled data recipient with a fresh ES256 key pair (defaults: every data scope, redirect https://app.example/callback, 120/min). */
export async function registerTestRecipient(
  db: Queryable,
  overrides: { scopes?: DataScope[]; rateLimitPerMinute?: number; name?: string; enabled?: boolean; redirectUri?: string } = {},
): Promise<TestRecipient> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = randomUUID();
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const privateJwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' };
  const id = randomUUID();
  const clientId = `test-app-${id.slice(0, 8)}`;
  const redirectUri = overrides.redirectUri ?? 'https://app.example/callback';
  await db.query(
    `INSERT INTO data_recipients (id, client_id, name, contact_email, redirect_uris, allowed_scopes, jwks, rate_limit_per_minute, enabled)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      id,
      clientId,
      overrides.name ?? 'Test Budget App',
      'developers@app.example',
      [redirectUri],
      overrides.scopes ?? [...dataScopes],
      JSON.stringify({ keys: [publicJwk] }),
      overrides.rateLimitPerMinute ?? 120,
      overrides.enabled ?? true,
    ],
  );
  return { id, clientId, redirectUri, privateJwk, publicJwk };
}

export interface TestAccess {
  consentId: string;
  grantId: string;
  accessToken: string;
  /** A fresh, valid DPoP proof of this access's key for `method` and `path` (override members of its payload to spoil it). */
  proof(method: string, path: string, claims?: Record<string, unknown>): Promise<string>;
  /** An inject of a resource request with `Authorization: DPoP <token>` and a fresh, valid DPoP proof (override: proof: false | a given proof). */
  fdx(path: string, options?: { method?: string; proof?: false | string; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
}

/** The issuer of the app under test, as its discovery document says (the tests' config may set PUBLIC_URL). */
export async function issuerOf(app: FastifyInstance): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
  if (response.statusCode !== 200) throw new Error(`discovery answered ${response.statusCode}`);
  return (response.json() as { issuer: string }).issuer;
}

/**
 * A provider over the same store, for the kit to make grants and tokens with: it signs nothing
 * (opaque tokens), so its throwaway key never leaves the test.
 */
async function storeProvider(db: Database, issuer: string): Promise<Provider> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-kit', alg: 'ES256', use: 'sig' };
  return new Provider(issuer, {
    adapter: oauthStoreAdapter(db),
    jwks: { keys: [jwk] },
    features: { devInteractions: { enabled: false } },
  });
}

export async function dpopProof(
  key: { privateKey: CryptoKey; publicJwk: JWK },
  method: string,
  url: string,
  accessToken?: string,
  claims: Record<string, unknown> = {},
): Promise<string> {
  const ath = accessToken ? sha256(accessToken).toString('base64url') : undefined;
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ htm: method, htu: url, jti: randomUUID(), iat, ...(ath ? { ath } : {}), ...claims })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.publicJwk })
    .sign(key.privateKey);
}

/**
 * A consent in force and a DPoP-bound access token for it, made through the provider's own models
 * (Grant, AccessToken) as the token endpoint would: the resource API's tests need no browser.
 */
export async function grantTestAccess(
  app: FastifyInstance,
  dependencies: { db: Database },
  grant: {
    customerId: string;
    recipient: TestRecipient;
    scopes: DataScope[];
    accountIds: string[];
    days?: number;
    /** When the consent is given (default: now); with a TestClock, its now. */ now?: Date;
  },
): Promise<TestAccess> {
  const { db } = dependencies;
  const issuer = await issuerOf(app);
  const fdxResource = fdxResourceOf(issuer);
  const days = grant.days ?? 90;
  const consentId = randomUUID();
  const consent = await insertConsent(db, {
    id: consentId,
    customerId: grant.customerId,
    recipientId: grant.recipient.id,
    scopes: grant.scopes,
    accountIds: grant.accountIds,
    expiresAt: new Date((grant.now ?? new Date()).getTime() + days * 86_400_000),
  });
  if (!consent) throw new Error('grantTestAccess: the accounts are not open accounts of this customer');
  const provider = await storeProvider(db, issuer);
  const accountId = `test-subject-${grant.customerId}`;
  const providerGrant = new provider.Grant({ accountId, clientId: grant.recipient.clientId, expiresIn: days * 86_400 });
  providerGrant.addOIDCScope('openid');
  providerGrant.addResourceScope(fdxResource, grant.scopes.join(' '));
  const grantId = await providerGrant.save();
  await attachGrant(db, consentId, grantId);

  const dpopKeys = await generateKeyPair('ES256', { extractable: true });
  const dpopPublicJwk = await exportJWK(dpopKeys.publicKey);
  const key = { privateKey: dpopKeys.privateKey, publicJwk: dpopPublicJwk };
  const token = new provider.AccessToken({
    accountId,
    clientId: grant.recipient.clientId,
    grantId,
    gty: 'authorization_code',
    scope: grant.scopes.join(' '),
    aud: fdxResource,
    jkt: await calculateJwkThumbprint(dpopPublicJwk),
    expiresIn: accessTokenSeconds,
  });
  const accessToken = await token.save();

  const proof = (method: string, path: string, claims?: Record<string, unknown>) =>
    dpopProof(key, method, `${issuer}${path.split('?')[0]}`, accessToken, claims);
  return {
    consentId,
    grantId,
    accessToken,
    proof,
    async fdx(path, options = {}) {
      const method = options.method ?? 'GET';
      const given = options.proof === undefined ? await proof(method, path) : options.proof;
      return app.inject({
        method: method as 'GET',
        url: path,
        headers: { authorization: `DPoP ${accessToken}`, ...(given === false ? {} : { dpop: given }), ...options.headers },
      });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The whole flow with openid-client, a certified relying-party library nobody here wrote.

/** openid-client's transport through app.inject: the real HTTP exchanges, without a socket. */
export function injectFetch(app: FastifyInstance): client.CustomFetch {
  return async (url, options) => {
    const target = new URL(url);
    const body =
      options.body === undefined || options.body === null ? undefined : typeof options.body === 'string' ? options.body : String(options.body as unknown);
    const response = await app.inject({
      method: options.method as 'GET',
      url: `${target.pathname}${target.search}`,
      headers: { ...options.headers, host: target.host },
      ...(body === undefined ? {} : { payload: body }),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) headers.append(name, String(item));
    }
    const empty = response.statusCode === 204 || response.statusCode === 304;
    return new Response(empty ? null : new Uint8Array(response.rawPayload), { status: response.statusCode, headers });
  };
}

/** The app's OAuth client as openid-client makes it: discovery (RFC 8414), private_key_jwt with the recipient's key, a DPoP key of its own. */
export async function openIdClientOf(app: FastifyInstance, recipient: TestRecipient, options: { fetch?: client.CustomFetch } = {}) {
  const issuer = await issuerOf(app);
  const privateKey = (await importJWK(recipient.privateJwk, 'ES256')) as CryptoKey;
  const fetch = options.fetch ?? injectFetch(app);
  const config = await client.discovery(
    new URL(issuer),
    recipient.clientId,
    { use_mtls_endpoint_aliases: false },
    client.PrivateKeyJwt({ key: privateKey, kid: recipient.privateJwk.kid }),
    {
      algorithm: 'oauth2',
      execute: [client.allowInsecureRequests],
      [client.customFetch]: fetch,
    },
  );
  const dpopKeys = await client.randomDPoPKeyPair('ES256');
  return { issuer, config, dpop: client.getDPoPHandle(config, dpopKeys), dpopKeys };
}

export type OpenIdClient = Awaited<ReturnType<typeof openIdClientOf>>;

/** openid-client's error with the server's own words in its message (an OAuth error code and description). */
export function explained(error: unknown): never {
  if (error instanceof client.ResponseBodyError) throw new Error(`${error.message}: ${error.error} (${error.error_description ?? ''})`, { cause: error });
  throw error;
}

/** The signed-in customer's browser, and how they answer a step-up (the payment kit's verifyLatestCode). */
export interface ConsentingCustomer {
  browser: TestBrowser;
  answerStepUp(challengeId: string): Promise<void>;
}

/** Steps 1 and 2: a pushed authorization request (PKCE S256, DPoP-bound), then the browser at the authorization endpoint, sent on to the consent page. */
export async function startAuthorization(oauth: OpenIdClient, customer: ConsentingCustomer, recipient: TestRecipient, scope: string) {
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const authorizationUrl = await client
    .buildAuthorizationUrlWithPAR(
      oauth.config,
      {
        redirect_uri: recipient.redirectUri,
        scope,
        state,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      },
      { DPoP: oauth.dpop },
    )
    .catch(explained);
  const atAuthorization = await customer.browser.get(`${authorizationUrl.pathname}${authorizationUrl.search}`);
  const location = String(atAuthorization.headers.location ?? '');
  const uid = /^\/connect\/([A-Za-z0-9_-]+)$/.exec(location)?.[1];
  if (atAuthorization.statusCode !== 303 || !uid)
    throw new Error(`the authorization endpoint answered ${atAuthorization.statusCode} ${location} ${atAuthorization.body}`);
  return { uid, codeVerifier, state };
}

/** Step 3: the customer approves on the consent page's API, answering the step-up; the answer is where the browser goes next. */
export async function approveAsCustomer(
  customer: ConsentingCustomer,
  uid: string,
  approval: { accountIds: string[]; scopes: DataScope[]; days: number },
  key: string = randomUUID(),
) {
  const url = `/api/v1/connect/requests/${uid}/approve`;
  const first = await customer.browser.request({ method: 'POST', url, payload: approval, headers: { 'idempotency-key': key } });
  if (first.statusCode !== 403) throw new Error(`approve without a step-up answered ${first.statusCode} ${first.body}`);
  const challengeId = first.json<{ error: { challengeId: string } }>().error.challengeId;
  await customer.answerStepUp(challengeId);
  return customer.browser.request({ method: 'POST', url, payload: approval, headers: { 'idempotency-key': key, 'x-step-up': challengeId } });
}

/** Step 4: the browser back at the provider, which sends it to the app's redirect URI with the code (or an error). */
export async function followToApp(customer: ConsentingCustomer, redirectTo: string): Promise<URL> {
  const target = new URL(redirectTo);
  const resumed = await customer.browser.get(`${target.pathname}${target.search}`);
  const location = resumed.headers.location;
  if (resumed.statusCode !== 303 || typeof location !== 'string') throw new Error(`resuming answered ${resumed.statusCode} ${resumed.body}`);
  return new URL(location);
}

export interface ConnectedApp extends OpenIdClient {
  tokens: client.TokenEndpointResponse;
  /** The consent the customer gave. */
  consentId: string;
}

/**
 * Runs the whole flow with openid-client (discovery, PAR, PKCE, private_key_jwt, DPoP) against
 * app.inject, the customer approving through POST /api/v1/connect/requests/{uid}/approve with a
 * step-up, the code exchanged at the token endpoint: the real thing without a browser.
 * `approval` defaults to every scope asked for, the given accounts, 90 days.
 */
export async function connectWithOpenIdClient(
  app: FastifyInstance,
  dependencies: { db: Queryable },
  flow: {
    recipient: TestRecipient;
    customer: ConsentingCustomer;
    accountIds: string[];
    scopes: DataScope[];
    approvedScopes?: DataScope[];
    days?: number;
    fetch?: client.CustomFetch;
  },
): Promise<ConnectedApp> {
  const oauth = await openIdClientOf(app, flow.recipient, flow.fetch ? { fetch: flow.fetch } : {});
  const started = await startAuthorization(oauth, flow.customer, flow.recipient, ['openid', ...flow.scopes].join(' '));
  const approved = await approveAsCustomer(flow.customer, started.uid, {
    accountIds: flow.accountIds,
    scopes: flow.approvedScopes ?? flow.scopes,
    days: flow.days ?? 90,
  });
  if (approved.statusCode !== 200) throw new Error(`approve answered ${approved.statusCode} ${approved.body}`);
  const callback = await followToApp(flow.customer, approved.json<{ redirectTo: string }>().redirectTo);
  const tokens = await client
    .authorizationCodeGrant(oauth.config, callback, { pkceCodeVerifier: started.codeVerifier, expectedState: started.state }, undefined, { DPoP: oauth.dpop })
    .catch(explained);
  const [consent] = await dependencies.db.query<{ id: string }>(
    `SELECT c.id FROM connected_app_consents c WHERE c.recipient_id = $1 ORDER BY c.created_at DESC, c.id LIMIT 1`,
    [flow.recipient.id],
  );
  if (!consent) throw new Error('no consent was recorded');
  return { ...oauth, tokens, consentId: consent.id };
}
