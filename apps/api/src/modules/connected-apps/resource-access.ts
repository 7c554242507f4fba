import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from 'jose';
import { dataScopeSchema, type DataScope } from '@strongroom/contracts/connected-apps.ts';
import { findConsentInForceByGrant, touchConsent } from './consents-repository.ts';
import type { ConnectedAppsDependencies } from './dependencies.ts';
import { findRecipient } from './recipients-repository.ts';
import { fdxResourceOf } from './oauth/configuration.ts';

/**
 * The resource API's check of every request (docs/connected-apps.md, "Resource access"): a
 * DPoP-bound access token (RFC 9449) with a fresh proof of its key, the token found in the
 * authorization server's store, and the consent behind it read on EVERY request, so a revocation
 * or an expiry is seen on the very next one, in every process.
 */
export interface FdxAccess {
  consentId: string;
  customerId: string;
  recipientId: string;
  clientId: string;
  /** What this token may read: the token's scopes that the consent still holds. */
  scopes: readonly DataScope[];
  /** The consented accounts (ids of customer_accounts). */
  accountIds: readonly string[];
  rateLimitPerMinute: number;
}

/** The proof algorithms accepted (FAPI 2.0: PS256, ES256, EdDSA), as the WWW-Authenticate `algs` lists them. */
export const dpopAlgorithms = ['ES256', 'PS256', 'EdDSA'] as const;
/** How old (or how far in the future) a proof's iat may be: RFC 9449 leaves it to the server; 5 minutes. */
export const dpopProofWindowSeconds = 300;

function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, '')}"`;
}

/** 401 or 403, with the WWW-Authenticate value RFC 6750 (section 3) and RFC 9449 (section 7.1) give. */
export class OAuthResourceError extends Error {
  constructor(
    readonly status: 401 | 403,
    readonly error: 'invalid_token' | 'invalid_dpop_proof' | 'insufficient_scope' | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'OAuthResourceError';
  }

  wwwAuthenticate(): string {
    const parameters = this.error ? [`error=${quoted(this.error)}`, `error_description=${quoted(this.message)}`] : [];
    return `DPoP ${[...parameters, `algs=${quoted(dpopAlgorithms.join(' '))}`].join(', ')}`;
  }
}

function invalidToken(message: string): OAuthResourceError {
  return new OAuthResourceError(401, 'invalid_token', message);
}

function invalidProof(message: string): OAuthResourceError {
  return new OAuthResourceError(401, 'invalid_dpop_proof', message);
}

/** The token of `Authorization: DPoP <token>`; a Bearer use of a DPoP-bound token is refused (RFC 9449 section 7.2). */
function tokenOf(request: FastifyRequest): string {
  const authorization = request.headers.authorization;
  if (!authorization) throw new OAuthResourceError(401, undefined, 'an access token is required');
  const match = /^(\S+) +([A-Za-z0-9\-._~+/]+=*)$/.exec(authorization);
  if (!match?.[1] || !match[2]) throw invalidToken('the Authorization header is malformed');
  if (match[1].toLowerCase() !== 'dpop') throw invalidToken('the access token is DPoP-bound: use the DPoP scheme with a proof');
  return match[2];
}

function sha256Base64url(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

function withoutQuery(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return undefined;
  }
}

/** RFC 9449 section 4.3: the proof's form, signature, method, URL, age and token hash. Answers the key's thumbprint and the proof's jti. */
async function checkProof(dependencies: ConnectedAppsDependencies, request: FastifyRequest, token: string): Promise<{ jkt: string; jti: string }> {
  const header = request.headers.dpop;
  if (header === undefined) throw invalidProof('a DPoP proof is required');
  if (typeof header !== 'string' || header.includes(',')) throw invalidProof('exactly one DPoP proof is required');
  let jwk: JWK;
  let payload: Record<string, unknown>;
  try {
    const protectedHeader = decodeProtectedHeader(header);
    if (protectedHeader.typ !== 'dpop+jwt') throw new Error('typ');
    if (!dpopAlgorithms.includes(protectedHeader.alg as (typeof dpopAlgorithms)[number])) throw new Error('alg');
    jwk = protectedHeader.jwk as JWK;
    if (!jwk || typeof jwk !== 'object' || 'd' in jwk || 'k' in jwk) throw new Error('jwk');
    const key = await importJWK(jwk, protectedHeader.alg);
    ({ payload } = await jwtVerify(header, key, { typ: 'dpop+jwt', algorithms: [...dpopAlgorithms] }));
  } catch {
    throw invalidProof('the DPoP proof is not a valid signed proof');
  }
  const now = Math.floor(Date.now() / 1000);
  if (typeof payload.iat !== 'number' || Math.abs(now - payload.iat) > dpopProofWindowSeconds)
    throw invalidProof('the DPoP proof is too old or from the future');
  if (typeof payload.jti !== 'string' || payload.jti.length < 8 || payload.jti.length > 200) throw invalidProof('the DPoP proof has no valid jti');
  if (payload.htm !== request.method) throw invalidProof('the DPoP proof is for another method');
  const path = request.url.split('?')[0] ?? request.url;
  const expected = withoutQuery(`${dependencies.config.publicUrl}${path}`);
  if (typeof payload.htu !== 'string' || withoutQuery(payload.htu) !== expected) throw invalidProof('the DPoP proof is for another URL');
  if (payload.ath !== sha256Base64url(token)) throw invalidProof('the DPoP proof is for another access token');
  return { jkt: await calculateJwkThumbprint(jwk), jti: payload.jti };
}

/**
 * A proof is good once (RFC 9449 section 11.1): its jti (hashed with the key's thumbprint) is kept
 * until it would be too old anyway, in the database, so a proof replayed to another process fails too.
 */
async function recordProof(dependencies: ConnectedAppsDependencies, proof: { jkt: string; jti: string }): Promise<void> {
  const hash = createHash('sha256').update(`${proof.jkt}:${proof.jti}`).digest();
  const expiresAt = new Date(Date.now() + 2 * dpopProofWindowSeconds * 1000);
  const inserted = await dependencies.db.query(
    'INSERT INTO dpop_proofs_seen (jti_hash, expires_at) VALUES ($1, $2) ON CONFLICT (jti_hash) DO NOTHING RETURNING jti_hash',
    [hash, expiresAt],
  );
  if (inserted.length === 0) throw invalidProof('the DPoP proof was already used');
  // Marks too old to matter are deleted by a recurring job (sweeps.ts), not on the request path.
}

/**
 * Checks `Authorization: DPoP <token>` and its `DPoP` proof, finds the token in oauth_store through
 * the provider (not expired), the consent in force behind its grant and that its app is enabled,
 * and marks the consent used. Throws OAuthResourceError otherwise.
 */
export async function resolveFdxAccess(dependencies: ConnectedAppsDependencies, request: FastifyRequest): Promise<FdxAccess> {
  const token = tokenOf(request);
  const proof = await checkProof(dependencies, request, token);
  await recordProof(dependencies, proof);
  const provider = await dependencies.authorizationServer.provider();
  const accessToken = await provider.AccessToken.find(token);
  if (!accessToken || accessToken.isExpired) throw invalidToken('the access token is unknown, expired or revoked');
  if (!accessToken.jkt || accessToken.jkt !== proof.jkt) throw invalidToken('the access token is not bound to this DPoP key');
  const audiences = Array.isArray(accessToken.aud) ? accessToken.aud : [accessToken.aud];
  if (!audiences.includes(fdxResourceOf(dependencies.config.publicUrl))) throw invalidToken('the access token is not for this API');
  const now = dependencies.clock.now();
  const consent = await findConsentInForceByGrant(dependencies.db, accessToken.grantId, now);
  if (!consent) throw invalidToken('the customer consent behind this token is no longer in force');
  const recipient = await findRecipient(dependencies.db, consent.recipient_id);
  if (!recipient?.enabled || recipient.client_id !== accessToken.clientId) throw invalidToken('the app behind this token is disabled');
  const tokenScopes = new Set((accessToken.scope ?? '').split(' '));
  const scopes = consent.scopes.filter((scope) => tokenScopes.has(scope) && dataScopeSchema.safeParse(scope).success);
  await touchConsent(dependencies.db, consent.id, now);
  return {
    consentId: consent.id,
    customerId: consent.customer_id,
    recipientId: consent.recipient_id,
    clientId: recipient.client_id,
    scopes,
    accountIds: consent.account_ids,
    rateLimitPerMinute: recipient.rate_limit_per_minute,
  };
}

/** Throws OAuthResourceError(403, 'insufficient_scope') unless the access has `scope`. */
export function requireScope(access: FdxAccess, scope: DataScope): void {
  if (!access.scopes.includes(scope)) throw new OAuthResourceError(403, 'insufficient_scope', `this app was not given ${scope}`);
}
