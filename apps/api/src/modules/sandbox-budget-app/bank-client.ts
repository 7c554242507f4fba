import * as client from 'openid-client';
import { dataScopes } from '@strongroom/contracts/connected-apps.ts';
import { isLoopbackHost, type Config } from '../../config.ts';
import type { BudgetAppKey } from './app-key.ts';
import { budgetApp, budgetAppRedirectUri } from './seed.ts';
import type { Connection, PendingConnection } from './sessions.ts';

/**
 * Pennywise's side of the flow (docs/connected-apps.md, "The sandbox's app"), with openid-client, a
 * certified relying-party library nobody here wrote: the bank's metadata by discovery, the app's own
 * key for private_key_jwt, a pushed authorization request with PKCE S256, a fresh DPoP key per
 * connection, and the code exchanged for DPoP-bound tokens. It talks to the bank over HTTP at the
 * bank's public address, as any outside app would.
 */
export interface BankClient {
  /** A new connection: what to remember, and where to send the browser (the bank's authorization endpoint, with the pushed request's uri). */
  start(): Promise<{ pending: PendingConnection; authorizationUrl: URL }>;
  /** The bank's answer at the callback, exchanged for tokens; throws client.AuthorizationResponseError when the customer said no. */
  finish(pending: PendingConnection, callbackUrl: URL): Promise<Connection>;
  /** A GET of the FDX resource API with the connection's token and a DPoP proof. */
  read(connection: Connection, path: string): Promise<Response>;
  /** New tokens from the refresh token (the access token lives minutes); throws when the bank refuses it. */
  refresh(connection: Connection): Promise<Connection>;
}

export interface BankClientOptions {
  config: Pick<Config, 'publicUrl'>;
  key: () => Promise<BudgetAppKey>;
  /** Only for tests that have no listening server: how requests reach the bank. */
  fetch?: client.CustomFetch;
}

/** Plain http is allowed only when the bank itself is on this machine (a sandbox on loopback). */
export function allowsPlainHttp(publicUrl: string): boolean {
  const url = new URL(publicUrl);
  return url.protocol === 'http:' && isLoopbackHost(url.hostname.replace(/^\[|\]$/g, ''));
}

export function createBankClient(options: BankClientOptions): BankClient {
  const issuer = new URL(options.config.publicUrl);
  let discovered: Promise<client.Configuration> | undefined;

  function configuration(): Promise<client.Configuration> {
    discovered ??= (async () => {
      const key = await options.key();
      return client.discovery(
        issuer,
        budgetApp.clientId,
        { token_endpoint_auth_method: 'private_key_jwt' },
        client.PrivateKeyJwt({ key: key.privateKey, kid: key.kid }),
        {
          // The bank is an OAuth 2.0 authorization server: its metadata is at /.well-known/oauth-authorization-server.
          algorithm: 'oauth2',
          execute: allowsPlainHttp(options.config.publicUrl) ? [client.allowInsecureRequests] : [],
          ...(options.fetch ? { [client.customFetch]: options.fetch } : {}),
        },
      );
    })();
    // A failed discovery (the bank still starting) is tried again on the next request.
    discovered.catch(() => {
      discovered = undefined;
    });
    return discovered;
  }

  /**
   * The four data clusters. No offline_access: the bank gives every app a refresh token that lives
   * as long as the consent (docs/connected-apps.md, "Authorization server").
   */
  const requestedScope = dataScopes.join(' ');

  function connectionFrom(tokens: client.TokenEndpointResponse, dpopKeys: client.CryptoKeyPair, previous?: Connection): Connection {
    return {
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token ?? previous?.refreshToken,
      dpopKeys,
      scopes: tokens.scope ? tokens.scope.split(' ').filter(Boolean) : (previous?.scopes ?? []),
    };
  }

  return {
    async start() {
      const settings = await configuration();
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const dpopKeys = await client.randomDPoPKeyPair('ES256');
      const authorizationUrl = await client.buildAuthorizationUrlWithPAR(
        settings,
        {
          redirect_uri: budgetAppRedirectUri(options.config),
          scope: requestedScope,
          code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
          code_challenge_method: 'S256',
          state,
        },
        { DPoP: client.getDPoPHandle(settings, dpopKeys) },
      );
      return { pending: { state, codeVerifier, dpopKeys }, authorizationUrl };
    },

    async finish(pending, callbackUrl) {
      const settings = await configuration();
      const tokens = await client.authorizationCodeGrant(
        settings,
        callbackUrl,
        { pkceCodeVerifier: pending.codeVerifier, expectedState: pending.state },
        undefined,
        { DPoP: client.getDPoPHandle(settings, pending.dpopKeys) },
      );
      return connectionFrom(tokens, pending.dpopKeys);
    },

    async read(connection, path) {
      const settings = await configuration();
      return client.fetchProtectedResource(settings, connection.accessToken, new URL(path, issuer), 'GET', undefined, undefined, {
        DPoP: client.getDPoPHandle(settings, connection.dpopKeys),
      });
    },

    async refresh(connection) {
      if (!connection.refreshToken) throw new Error('this connection has no refresh token');
      const settings = await configuration();
      const tokens = await client.refreshTokenGrant(settings, connection.refreshToken, undefined, {
        DPoP: client.getDPoPHandle(settings, connection.dpopKeys),
      });
      return connectionFrom(tokens, connection.dpopKeys, connection);
    },
  };
}
