import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type Provider from 'oidc-provider';
import type { Config } from '../../../config.ts';
import type { Clock } from '../../../db/clock.ts';
import type { Database } from '../../../db/database.ts';
import type { ConnectedAppsDependencies } from '../dependencies.ts';
import { providerConfiguration } from './configuration.ts';
import { loadSigningKeys, signingKeysFingerprint } from './keys.ts';

export interface AuthorizationServer {
  /** The issuer identifier: the bank's public URL (no path). */
  readonly issuer: string;
  /** The oidc-provider instance, built once on first use (keys are read from the database then). */
  provider(): Promise<Provider>;
}

/** How often a process looks whether another rotated the keys (a cheap query on their ids). */
const keyCheckMilliseconds = 60_000;

interface Built {
  provider: Provider;
  callback: (req: IncomingMessage, res: ServerResponse) => void;
  fingerprint: string;
  checkedAt: number;
}

/**
 * The authorization server (docs/connected-apps.md, "Authorization server"): oidc-provider, with
 * everything it keeps in the database (oauth/adapter.ts), so any number of processes serve it. A
 * process builds its provider on first use; when a rotation (ops rotate-oauth-keys) changed the
 * keys, it builds it again within a minute, so no process goes on signing with a retired key.
 */
export function createAuthorizationServer(dependencies: { db: Database; config: Config; clock: Clock }): AuthorizationServer {
  let building: Promise<Built> | undefined;

  async function build(): Promise<Built> {
    const keys = await loadSigningKeys(dependencies.db, dependencies.config.secrets.encryptionKey);
    // Loaded on first use, not with the server: oidc-provider 9 prints a warning on Node 20 (it
    // supports Node 22 and later), and a server that serves no app should start without it.
    const { default: OidcProvider, errors } = await import('oidc-provider');
    const provider = new OidcProvider(dependencies.config.publicUrl, providerConfiguration(dependencies, keys, errors));
    // X-Forwarded-* only from the proxies the bank trusts (config TRUST_PROXY).
    provider.proxy = dependencies.config.trustProxy !== false;
    return { provider, callback: provider.callback(), fingerprint: keys.fingerprint, checkedAt: Date.now() };
  }

  async function current(): Promise<Built> {
    building ??= build();
    let built: Built;
    try {
      built = await building;
    } catch (error) {
      building = undefined;
      throw error;
    }
    if (Date.now() - built.checkedAt < keyCheckMilliseconds) return built;
    built.checkedAt = Date.now();
    if ((await signingKeysFingerprint(dependencies.db)) !== built.fingerprint) {
      const next = build();
      building = next;
      return next;
    }
    return built;
  }

  const server: AuthorizationServer = { issuer: dependencies.config.publicUrl, provider: async () => (await current()).provider };
  callbacks.set(server, async () => (await current()).callback);
  return server;
}

/** The provider's request handler of each server, made once with it (Koa's callback() composes its middleware). */
const callbacks = new WeakMap<AuthorizationServer, () => Promise<(req: IncomingMessage, res: ServerResponse) => void>>();

function callbackOf(server: AuthorizationServer): Promise<(req: IncomingMessage, res: ServerResponse) => void> {
  const callback = callbacks.get(server);
  return callback ? callback() : server.provider().then((provider) => provider.callback());
}

/**
 * Hands the request to the provider (a Koa app) as Node gave it: Fastify's reply is hijacked, so
 * the provider writes the answer. The bank's security headers were already set on the raw response
 * by the platform's onRequest hook; no-store is added for every answer.
 */
async function handOver(server: AuthorizationServer, request: FastifyRequest, reply: FastifyReply, url?: string): Promise<void> {
  const callback = await callbackOf(server);
  reply.hijack();
  reply.raw.setHeader('cache-control', 'no-store');
  if (url) request.raw.url = url;
  // The provider writes its endpoints' addresses (and checks DPoP proofs' htu, client assertions'
  // aud) from the request's host: it is always the issuer's, whatever host the request named.
  const issuerHost = new URL(server.issuer).host;
  request.raw.headers.host = issuerHost;
  if (request.raw.headers['x-forwarded-host'] !== undefined) request.raw.headers['x-forwarded-host'] = issuerHost;
  await new Promise<void>((resolve) => {
    reply.raw.once('finish', resolve);
    reply.raw.once('close', resolve);
    callback(request.raw, reply.raw);
  });
}

/** `/oauth/*`, `/.well-known/oauth-authorization-server` and `/.well-known/openid-configuration`, at the root. */
export function authorizationServerRoutes(dependencies: ConnectedAppsDependencies) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const server = dependencies.authorizationServer;
    // The provider reads form bodies itself: in this plugin (encapsulated), Fastify leaves the
    // request stream unread, whatever its type.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    // The provider's endpoints answer GET and POST only (no CORS: no app runs in a browser).
    // In the bank's OpenAPI document by name only (the authorization sweep finds the wildcard route
    // there): the discovery document describes these endpoints and what they answer.
    const schema = {
      description: 'The OAuth 2.0 authorization server (FAPI 2.0): see /.well-known/oauth-authorization-server',
      response: { 200: z.unknown() },
    };
    app.route({ method: ['GET', 'POST'], url: '/oauth/*', schema, handler: (request, reply) => handOver(server, request, reply) });
    app.get('/.well-known/openid-configuration', { schema }, (request, reply) => handOver(server, request, reply));
    // RFC 8414: the same metadata, at the OAuth name.
    app.get('/.well-known/oauth-authorization-server', { schema }, (request, reply) => handOver(server, request, reply, '/.well-known/openid-configuration'));
  };
}
