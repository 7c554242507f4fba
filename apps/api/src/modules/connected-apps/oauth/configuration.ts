import { createHmac, hkdfSync } from 'node:crypto';
import type { ClientInstance, Configuration, errors, KoaContextWithOIDC, ResourceServerInfo } from 'oidc-provider';
import { dataScopes } from '@strongroom/contracts/connected-apps.ts';
import type { Config } from '../../../config.ts';
import type { Clock } from '../../../db/clock.ts';
import type { Database } from '../../../db/database.ts';
import { findConsentInForceByGrant } from '../consents-repository.ts';
import { findRecipientByClientId } from '../recipients-repository.ts';
import { oauthStoreAdapter } from './adapter.ts';
import type { SigningKeys } from './keys.ts';

/** Access tokens live 5 minutes: a stolen one is soon useless, and the consent is read on every use anyway. */
export const accessTokenSeconds = 300;
export const authorizationCodeSeconds = 60;
export const interactionSeconds = 10 * 60;
/** ID tokens (only `sub`) are read once by the app when it gets its tokens. */
export const idTokenSeconds = 300;

/** The FDX resource API is the one resource server: every access token is for it. */
export function fdxResourceOf(issuer: string): string {
  return `${issuer}/fdx/v6`;
}

function derivedKey(root: Buffer, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', root, Buffer.alloc(0), `strongroom ${label}`, 32));
}

/**
 * The subject an app knows a customer by: an HMAC of the customer id under a key of the bank's,
 * per app (OpenID Connect's pairwise idea, without its sector identifier rules), so two apps cannot
 * match their users by it, and no app learns the bank's own customer id. The provider only ever
 * sees this value; the consent row holds the customer id.
 */
export function pairwiseSubject(config: Config, customerId: string, clientId: string): string {
  return createHmac('sha256', derivedKey(config.secrets.sessionSecret, 'oauth pairwise subject')).update(`${clientId}:${customerId}`).digest('base64url');
}

function secondsLeft(exp: number | undefined, fallback: number): number {
  if (exp === undefined) return fallback;
  return Math.max(1, exp - Math.floor(Date.now() / 1000));
}

/** Every endpoint under /oauth, so none collides with the bank's own paths. */
const routes = {
  authorization: '/oauth/auth',
  pushed_authorization_request: '/oauth/par',
  token: '/oauth/token',
  jwks: '/oauth/jwks',
  revocation: '/oauth/revoke',
  userinfo: '/oauth/me',
  introspection: '/oauth/introspect',
  end_session: '/oauth/session/end',
  registration: '/oauth/reg',
  backchannel_authentication: '/oauth/backchannel',
  code_verification: '/oauth/device',
  device_authorization: '/oauth/device/auth',
  challenge: '/oauth/challenge',
  credential: '/oauth/credential',
};

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * oidc-provider's configuration (docs/connected-apps.md, "Authorization server"): FAPI 2.0 Security
 * Profile. Each choice is explained where it is made.
 */
export function providerConfiguration(
  dependencies: { db: Database; config: Config; clock: Clock },
  keys: SigningKeys,
  oidcErrors: typeof errors,
): Configuration {
  const { db, config, clock } = dependencies;
  const issuer = config.publicUrl;
  const fdxResource = fdxResourceOf(issuer);
  const allAlgorithms = ['ES256', 'PS256', 'EdDSA'];
  return {
    adapter: oauthStoreAdapter(db),
    jwks: keys.jwks,
    // Clients are the data recipients staff registered (adapter.ts, model Client): none static.
    clients: [],
    // Confidential clients only, each proving itself with a signed JWT of its own key (FAPI 2.0 5.3.2.1).
    clientAuthMethods: ['private_key_jwt'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      id_token_signed_response_alg: 'ES256',
      token_endpoint_auth_method: 'private_key_jwt',
    },
    // No app runs in a browser: no cross-origin calls to the token endpoint.
    clientBasedCORS: () => false,
    responseTypes: ['code'],
    scopes: ['openid', 'offline_access'],
    subjectTypes: ['public'],
    // Signing and proof algorithms FAPI 2.0 allows (PS256, ES256, EdDSA); never HS256 or RS256.
    enabledJWA: {
      clientAuthSigningAlgValues: allAlgorithms,
      dPoPSigningAlgValues: allAlgorithms,
      idTokenSigningAlgValues: ['ES256', 'PS256'],
      requestObjectSigningAlgValues: allAlgorithms,
      authorizationSigningAlgValues: ['ES256', 'PS256'],
    },
    pkce: { required: () => true },
    cookies: {
      // Keys of their own, derived from the session secret under their own label.
      keys: [derivedKey(config.secrets.sessionSecret, 'oauth cookies').toString('base64url')],
      names: { session: 'oauth_session', interaction: 'oauth_interaction', resume: 'oauth_resume' },
      long: { httpOnly: true, sameSite: 'lax', signed: true },
      // Path "/": the interaction cookie must reach the consent API (/api/v1/connect/requests/{uid}),
      // which checks that the browser approving is the one that started the request. (The resume
      // cookie keeps its own path: the provider sets it after these options.)
      short: { httpOnly: true, sameSite: 'lax', signed: true, path: '/' },
    },
    routes,
    features: {
      fapi: { enabled: true, profile: '2.0' },
      // The bank's own consent page handles interactions: never the library's development pages.
      devInteractions: { enabled: false },
      // Authorization requests only by reference to a pushed one (RFC 9126, FAPI 2.0 5.3.1.2).
      pushedAuthorizationRequests: { enabled: true, requirePushedAuthorizationRequests: true },
      // Sender-constrained tokens (RFC 9449). A server nonce is optional in FAPI 2.0: replays are
      // stopped by jti instead (the provider's ReplayDetection model, shared through oauth_store).
      dPoP: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => fdxResource,
        useGrantedResource: () => true,
        // The data clusters an app may ask for are those staff allowed it (read here, per client:
        // the provider refuses any other scope with invalid_scope).
        getResourceServerInfo: async (_ctx: unknown, indicator: string, client: ClientInstance): Promise<ResourceServerInfo> => {
          if (indicator !== fdxResource) throw new oidcErrors.InvalidTarget();
          const allowed = (await findRecipientByClientId(db, client.clientId))?.allowed_scopes ?? [];
          const scope = dataScopes.filter((dataScope) => allowed.includes(dataScope)).join(' ');
          return { scope, audience: fdxResource, accessTokenTTL: accessTokenSeconds, accessTokenFormat: 'opaque' };
        },
      },
      // An app may give its refresh token back when its user leaves it (RFC 7009).
      revocation: { enabled: true },
      // Access tokens are for the FDX API only; the ID token carries the subject.
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      introspection: { enabled: false },
      registration: { enabled: false },
      claimsParameter: { enabled: false },
    },
    ttl: {
      AccessToken: (ctx: KoaContextWithOIDC | undefined) => Math.min(accessTokenSeconds, secondsLeft(ctx?.oidc?.entities.Grant?.exp, accessTokenSeconds)),
      AuthorizationCode: authorizationCodeSeconds,
      IdToken: idTokenSeconds,
      Interaction: interactionSeconds,
      // The provider's own login session only carries one consent: it is asked anew each time.
      Session: interactionSeconds,
      // A refresh token never outlives the consent: the grant expires with it (oauth/interactions.ts).
      RefreshToken: (ctx: KoaContextWithOIDC | undefined) => secondsLeft(ctx?.oidc?.entities.Grant?.exp, authorizationCodeSeconds),
      Grant: (_ctx: unknown, grant: { exp?: number }) => secondsLeft(grant.exp, authorizationCodeSeconds),
    },
    // Tokens follow the consent, not the browser's session with the provider.
    expiresWithSession: () => false,
    // Every app gets a refresh token, offline_access asked or not: the consent the customer gave
    // is for days, and the refresh token is how the app uses them.
    issueRefreshToken: (_ctx: unknown, client: ClientInstance) => client.grantTypeAllowed('refresh_token'),
    // Not rotated: FAPI 2.0 (5.3.2.1) advises against rotating sender-constrained refresh tokens.
    rotateRefreshToken: () => false,
    // Every consent is asked anew: a grant comes only from the consent just given (oauth/interactions.ts).
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    // Read at every token issue (code and refresh alike): no token for a consent revoked or expired.
    extraTokenClaims: async (_ctx: unknown, token: { grantId?: string }) => {
      if (!token.grantId || !(await findConsentInForceByGrant(db, token.grantId, clock.now()))) {
        throw new oidcErrors.InvalidGrant('the customer consent is no longer in force');
      }
      return undefined;
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/connect/${interaction.uid}` },
    findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
    renderError: (ctx: KoaContextWithOIDC, out: { error?: string }) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(config.bankName)}</title></head>
<body><main><h1>${escapeHtml(config.bankName)}</h1><p>This request to connect an app could not be completed. Go back to the app and try again.</p>
<p>Error: ${escapeHtml(String(out.error ?? 'server_error'))}</p></main></body></html>`;
    },
  };
}
