import { randomBytes, randomUUID } from 'node:crypto';
import { importJWK, type JWK } from 'jose';
import type { z } from 'zod';
import { dataScopes, type DataRecipient, type createDataRecipientSchema } from '@strongroom/contracts/connected-apps.ts';
import type { Queryable } from '../../db/database.ts';
import { recordAudits, type AuditEntry } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { auditEntryOf, type StaffActor } from '../../platform/request-actor.ts';
import { consentIdsInForceOf, revokeConsent } from './consents-repository.ts';
import type { ConnectedAppsDependencies } from './dependencies.ts';
import {
  findRecipientWithConsents,
  insertRecipient,
  listRecipients,
  lockRecipient,
  narrowConsentsInForce,
  recipientIdNamed,
  setRecipientEnabled,
  updateRecipient,
  type RecipientFields,
  type RecipientListRow,
  type RecipientRow,
} from './recipients-repository.ts';

/**
 * Data recipients in the back office (issue 38 item 2; docs/connected-apps.md, "Data recipients"):
 * staff register an app, change it, disable and enable it, each time with a reason, each change in
 * the audit log.
 */
type Dependencies = Pick<ConnectedAppsDependencies, 'db' | 'clock'>;
export type ParsedRecipientRequest = z.output<typeof createDataRecipientSchema>;

/** What a recipient may make in a minute when staff do not say. */
export const defaultRateLimitPerMinute = 120;

/** The OAuth client id the bank gives a new app: `app_` and 128 random bits, URL-safe. */
export function newClientId(): string {
  return `app_${randomBytes(16).toString('base64url')}`;
}

/** The members a public JWK may show (the contract's publicJwkSchema): anything else stored stays out of the answer. */
const publicMembers = ['kty', 'kid', 'use', 'alg', 'crv', 'x', 'y', 'n', 'e'] as const;

function publicKeyOf(jwk: JWK): DataRecipient['jwks']['keys'][number] {
  return Object.fromEntries(
    publicMembers.filter((member) => jwk[member] !== undefined).map((member) => [member, jwk[member]]),
  ) as DataRecipient['jwks']['keys'][number];
}

function present(row: RecipientListRow): DataRecipient {
  return {
    id: row.id,
    clientId: row.client_id,
    name: row.name,
    logoUrl: row.logo_url,
    contactEmail: row.contact_email,
    redirectUris: row.redirect_uris,
    allowedScopes: row.allowed_scopes,
    jwks: { keys: row.jwks.keys.map(publicKeyOf) },
    rateLimitPerMinute: row.rate_limit_per_minute,
    enabled: row.enabled,
    activeConsents: row.active_consents,
    createdAt: row.created_at.toISOString(),
  };
}

/** The signing algorithm a key is for: FAPI 2.0 allows PS256, ES256 and EdDSA (docs/connected-apps.md). */
function algorithmOf(jwk: JWK): 'ES256' | 'PS256' | 'EdDSA' | undefined {
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') return 'ES256';
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'EdDSA';
  if (jwk.kty === 'RSA' && jwk.crv === undefined) return 'PS256';
  return undefined;
}

/** Why a public key cannot check the app's signatures, or undefined when it can. */
async function keyProblem(jwk: JWK): Promise<string | undefined> {
  const algorithm = algorithmOf(jwk);
  if (!algorithm) return 'use an EC key on P-256, an OKP key on Ed25519 or an RSA key';
  if (jwk.alg !== undefined && jwk.alg !== algorithm) return `this key signs with ${algorithm}, not ${jwk.alg}`;
  // FAPI 2.0 section 5.4.1: RSA keys of at least 2048 bits.
  if (jwk.kty === 'RSA' && Buffer.from(jwk.n ?? '', 'base64url').length < 256) return 'an RSA key needs at least 2048 bits';
  try {
    await importJWK(jwk, algorithm);
    return undefined;
  } catch {
    return 'this is not a valid public key';
  }
}

/**
 * The rules beyond the schema, each answered for its field: every redirect address once, every key
 * a working public key for an algorithm FAPI 2.0 allows, and each key's id (kid) its own.
 */
export async function recipientFieldErrors(request: ParsedRecipientRequest): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  request.redirectUris.forEach((uri, index) => {
    if (request.redirectUris.indexOf(uri) !== index) fields[`redirectUris.${index}`] ??= 'this redirect address is already in the list';
  });
  const keys = request.jwks.keys as JWK[];
  for (const [index, jwk] of keys.entries()) {
    const problem = await keyProblem(jwk);
    if (problem) fields[`jwks.keys.${index}`] = problem;
    else if (keys.length > 1 && !jwk.kid) fields[`jwks.keys.${index}.kid`] = 'give each key an id (kid) when there are several';
    else if (jwk.kid && keys.findIndex((other) => other.kid === jwk.kid) !== index) fields[`jwks.keys.${index}.kid`] = 'another key has this id (kid)';
  }
  return fields;
}

async function fieldsOf(db: Queryable, request: ParsedRecipientRequest, exceptId: string | null): Promise<RecipientFields> {
  const errors = await recipientFieldErrors(request);
  if (Object.keys(errors).length > 0) throw new AppError('validation_failed', 'Some fields are not valid', { fields: errors });
  if (await recipientIdNamed(db, request.name, exceptId)) throw new AppError('conflict', 'Another connected app already has this name');
  return {
    name: request.name,
    logoUrl: request.logoUrl ?? null,
    contactEmail: request.contactEmail,
    redirectUris: request.redirectUris,
    // Kept in the contract's order, each once: the consent page lists them so.
    allowedScopes: dataScopes.filter((scope) => request.allowedScopes.includes(scope)),
    jwks: { keys: request.jwks.keys as JWK[] },
    rateLimitPerMinute: request.rateLimitPerMinute ?? defaultRateLimitPerMinute,
  };
}

/** An app's facts as an audit entry records them: plain values, its keys by id and type only. */
function forAudit(row: RecipientRow): Record<string, string | number | boolean> {
  return {
    name: row.name,
    clientId: row.client_id,
    contactEmail: row.contact_email,
    logoUrl: row.logo_url ?? '',
    redirectUris: row.redirect_uris.join(' '),
    allowedScopes: row.allowed_scopes.join(' '),
    keys: row.jwks.keys.map((key) => `${key.kid ?? '(no kid)'}:${key.kty}`).join(' '),
    rateLimitPerMinute: row.rate_limit_per_minute,
    enabled: row.enabled,
  };
}

function prefixed(prefix: string, values: Record<string, string | number | boolean>): Record<string, string | number | boolean> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [`${prefix}.${key}`, value]));
}

/** Ends the consents with these ids (staff's doing), each with an audit entry naming its customer. */
async function endConsents(
  tx: Queryable,
  actor: StaffActor,
  recipient: RecipientRow,
  consentIds: readonly string[],
  by: 'staff' | 'recipient_disabled',
  now: Date,
): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  for (const consentId of consentIds) {
    const ended = await revokeConsent(tx, { consentId, by, now });
    if (!ended) continue;
    entries.push(
      auditEntryOf(actor, {
        action: 'data_recipient.consent_ended',
        subject: consentId,
        outcome: 'success',
        details: { recipientId: recipient.id, customerId: ended.customer_id, because: by === 'recipient_disabled' ? 'app disabled' : 'no data left allowed' },
      }),
    );
  }
  // Every token, code and pushed request the authorization server still keeps for the app (those
  // of consents not yet given included) goes with a disabled app: nothing it held works again.
  if (by === 'recipient_disabled') await tx.query("DELETE FROM oauth_store WHERE payload->>'clientId' = $1", [recipient.client_id]);
  return entries;
}

/** `GET /staff/data-recipients`: every app by name, with its consents in force. */
export async function staffRecipients(dependencies: Dependencies): Promise<DataRecipient[]> {
  return (await listRecipients(dependencies.db, dependencies.clock.now())).map(present);
}

/** `GET /staff/data-recipients/{id}`; undefined for an unknown id. */
export async function staffRecipient(dependencies: Dependencies, id: string): Promise<DataRecipient | undefined> {
  const row = await findRecipientWithConsents(dependencies.db, id, dependencies.clock.now());
  return row && present(row);
}

/** `POST /staff/data-recipients`: a new app, enabled, with a client id the bank makes; audited with the reason. */
export async function createRecipient(dependencies: Dependencies, request: ParsedRecipientRequest, actor: StaffActor): Promise<DataRecipient> {
  const id = randomUUID();
  await dependencies.db.transaction(async (tx) => {
    const fields = await fieldsOf(tx, request, null);
    const created = await insertRecipient(tx, { ...fields, id, clientId: newClientId(), createdBy: actor.staffId });
    await recordAudits(tx, [
      auditEntryOf(actor, { action: 'data_recipient.created', subject: id, outcome: 'success', details: { reason: request.reason, ...forAudit(created) } }),
    ]);
  });
  const created = await staffRecipient(dependencies, id);
  if (!created) throw new Error(`data recipient ${id} not found after its creation`);
  return created;
}

/**
 * `PUT /staff/data-recipients/{id}`: every field again, with a reason. A redirect address or a
 * scope taken away counts from the next authorization; consents already given are narrowed at
 * once to the data the app is still allowed (docs/connected-apps.md, "Data recipients"): staff who
 * take a cluster away mean the app should stop reading it, and a consent left with none is ended.
 */
export async function replaceRecipient(
  dependencies: Dependencies,
  id: string,
  request: ParsedRecipientRequest,
  actor: StaffActor,
): Promise<DataRecipient | undefined> {
  const now = dependencies.clock.now();
  const found = await dependencies.db.transaction(async (tx) => {
    const before = await lockRecipient(tx, id);
    if (!before) return false;
    const fields = await fieldsOf(tx, request, id);
    const after = await updateRecipient(tx, id, fields);
    if (!after) return false;
    const { narrowed, emptied } = await narrowConsentsInForce(tx, id, after.allowed_scopes, now);
    const ended = await endConsents(tx, actor, after, emptied, 'staff', now);
    await recordAudits(tx, [
      auditEntryOf(actor, {
        action: 'data_recipient.updated',
        subject: id,
        outcome: 'success',
        details: {
          reason: request.reason,
          ...prefixed('before', forAudit(before)),
          ...prefixed('after', forAudit(after)),
          consentsNarrowed: narrowed.length,
          consentsEnded: ended.length,
        },
      }),
      ...ended,
    ]);
    return true;
  });
  return found ? staffRecipient(dependencies, id) : undefined;
}

/**
 * `POST /staff/data-recipients/{id}/disable|enable`: 409 when the app already is so. Disabling ends
 * every consent of the app in force, and its tokens, in the same transaction: its customers lose
 * access on the app's very next request. Enabling brings no consent back: customers connect again.
 */
export async function setRecipientStatus(
  dependencies: Dependencies,
  id: string,
  enabled: boolean,
  reason: string,
  actor: StaffActor,
): Promise<DataRecipient | undefined> {
  const now = dependencies.clock.now();
  const found = await dependencies.db.transaction(async (tx) => {
    const before = await lockRecipient(tx, id);
    if (!before) return false;
    if (before.enabled === enabled) throw new AppError('conflict', enabled ? 'This app is already enabled' : 'This app is already disabled');
    const after = await setRecipientEnabled(tx, id, enabled);
    if (!after) return false;
    const ended = enabled ? [] : await endConsents(tx, actor, after, await consentIdsInForceOf(tx, id, now), 'recipient_disabled', now);
    await recordAudits(tx, [
      auditEntryOf(actor, {
        action: enabled ? 'data_recipient.enabled' : 'data_recipient.disabled',
        subject: id,
        outcome: 'success',
        details: enabled
          ? { reason, name: after.name, clientId: after.client_id }
          : { reason, name: after.name, clientId: after.client_id, consentsEnded: ended.length },
      }),
      ...ended,
    ]);
    return true;
  });
  return found ? staffRecipient(dependencies, id) : undefined;
}
