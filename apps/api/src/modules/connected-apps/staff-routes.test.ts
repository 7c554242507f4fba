import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { beforeAll, expect, it } from 'vitest';
import type { DataRecipient, DataScope } from '@strongroom/contracts/connected-apps.ts';
import type { Config } from '../../config.ts';
import type { TestBrowser } from '../../test/client.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentKit, type PayingCustomer } from '../../test/payments.ts';
import { staffBrowser } from '../../test/staff.ts';
import { testAppSuite } from '../../test/suite.ts';
import { attachGrant, insertConsent } from './consents-repository.ts';
import { upsertRecipient } from './recipients-repository.ts';
import { grantTestAccess, registerTestRecipient } from './test-kit.ts';

const dayMs = 24 * 60 * 60 * 1_000;
const everyScope: DataScope[] = ['fdx:accountdetailed:read', 'fdx:transactions:read', 'fdx:statements:read', 'fdx:customercontact:read'];

/** A fresh public key as an app would publish it. */
async function publicKey(kid: string, alg: 'ES256' | 'EdDSA' | 'PS256' = 'ES256'): Promise<JWK> {
  const { publicKey: key } = await generateKeyPair(alg, { extractable: true });
  return { ...(await exportJWK(key)), kid, use: 'sig', alg };
}

interface AuditRow {
  action: string;
  actor_id: string;
  subject: string;
  outcome: string;
  details: Record<string, string | number | boolean | null>;
}

describeEachDatabase('data recipients in the back office (issue 38 item 2)', (database) => {
  let app: FastifyInstance;
  let config: Config;
  let admin: TestBrowser;
  let adminId: string;
  let key: JWK;
  const kit = paymentKit(testAppSuite(database, (built) => ({ app, config } = built)));

  beforeAll(async () => {
    const signedIn = await staffBrowser(app, database(), config, 'admin');
    admin = signedIn.browser;
    adminId = signedIn.member.id;
    key = await publicKey('key-1');
  });

  /** A valid registration, with what a test overrides. */
  const registration = (overrides: Record<string, unknown> = {}) => ({
    name: `Pennywise ${randomUUID().slice(0, 8)}`,
    logoUrl: 'https://pennywise.example/logo.png',
    contactEmail: 'developers@pennywise.example',
    redirectUris: ['https://pennywise.example/callback'],
    allowedScopes: ['fdx:transactions:read', 'fdx:accountdetailed:read'],
    jwks: { keys: [key] },
    rateLimitPerMinute: 60,
    reason: 'Partner agreement signed',
    ...overrides,
  });
  const register = async (overrides: Record<string, unknown> = {}): Promise<DataRecipient> => {
    const created = await admin.post('/api/v1/staff/data-recipients', registration(overrides));
    expect(created.statusCode, created.body).toBe(201);
    return created.json<{ recipient: DataRecipient }>().recipient;
  };
  const recipientCount = async () => Number((await database().query<{ count: string }>('SELECT count(*)::text AS count FROM data_recipients'))[0]?.count);
  const auditOf = (subject: string) =>
    database().query<AuditRow>(
      "SELECT action, actor_id, subject, outcome, details FROM audit_log WHERE subject = $1 AND action LIKE 'data_recipient.%' ORDER BY id",
      [subject],
    );
  const auditCount = async () =>
    Number((await database().query<{ count: string }>("SELECT count(*)::text AS count FROM audit_log WHERE action LIKE 'data_recipient.%'"))[0]?.count);

  /** A consent in force as the consent page leaves one, with its grant and a token in the authorization server's store. */
  async function consent(who: PayingCustomer, recipientId: string, scopes: DataScope[]): Promise<{ id: string; grantId: string }> {
    const id = randomUUID();
    const grantId = `grant-${randomUUID()}`;
    const inserted = await insertConsent(database(), {
      id,
      customerId: who.id,
      recipientId,
      scopes,
      accountIds: [who.checking.id],
      expiresAt: new Date(Date.now() + 90 * dayMs),
    });
    expect(inserted?.id).toBe(id);
    await attachGrant(database(), id, grantId);
    await database().query(`INSERT INTO oauth_store (model, id, payload, grant_id) VALUES ('Grant', $1, '{}', NULL), ('AccessToken', $2, '{}', $1)`, [
      grantId,
      `token-${randomUUID()}`,
    ]);
    return { id, grantId };
  }
  const consentState = async (consentId: string) =>
    (
      await database().query<{ scopes: string[]; revoked_by: string | null }>('SELECT scopes, revoked_by FROM connected_app_consents WHERE id = $1', [
        consentId,
      ])
    )[0];
  const storedForGrant = async (grantId: string) =>
    (await database().query<{ model: string }>('SELECT model FROM oauth_store WHERE grant_id = $1 OR id = $1 ORDER BY model', [grantId])).map(
      (row) => row.model,
    );

  it('an administrator registers an app (201, a client id made by the bank), reads it, lists it and changes it; each write is audited with the reason and key ids only', async () => {
    const created = await register({ allowedScopes: ['fdx:transactions:read', 'fdx:accountdetailed:read', 'fdx:transactions:read'] });
    expect(created.clientId).toMatch(/^app_[A-Za-z0-9_-]{22}$/);
    expect(created).toMatchObject({
      logoUrl: 'https://pennywise.example/logo.png',
      contactEmail: 'developers@pennywise.example',
      redirectUris: ['https://pennywise.example/callback'],
      // Each once, in the contract's order.
      allowedScopes: ['fdx:accountdetailed:read', 'fdx:transactions:read'],
      jwks: { keys: [key] },
      rateLimitPerMinute: 60,
      enabled: true,
      activeConsents: 0,
    });
    const other = await register();
    expect(other.clientId).not.toBe(created.clientId);

    const read = await admin.get(`/api/v1/staff/data-recipients/${created.id}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().recipient).toEqual(created);
    const listed = (await admin.get('/api/v1/staff/data-recipients')).json<{ items: DataRecipient[] }>().items;
    expect(listed.find((item) => item.id === created.id)).toEqual(created);
    expect(listed.map((item) => item.name.toLowerCase())).toEqual([...listed.map((item) => item.name.toLowerCase())].sort());

    const secondKey = await publicKey('key-2', 'EdDSA');
    const changed = await admin.put(
      `/api/v1/staff/data-recipients/${created.id}`,
      registration({
        name: `${created.name} Budget`,
        logoUrl: null,
        redirectUris: ['https://pennywise.example/callback', 'http://localhost:4000/cb'],
        jwks: { keys: [key, secondKey] },
        rateLimitPerMinute: undefined,
        reason: 'The app added a key and a local address',
      }),
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().recipient).toMatchObject({
      id: created.id,
      clientId: created.clientId,
      name: `${created.name} Budget`,
      logoUrl: null,
      redirectUris: ['https://pennywise.example/callback', 'http://localhost:4000/cb'],
      jwks: { keys: [key, secondKey] },
      rateLimitPerMinute: 120,
      enabled: true,
    });

    const entries = await auditOf(created.id);
    expect(entries.map((entry) => [entry.action, entry.actor_id, entry.outcome, entry.details.reason])).toEqual([
      ['data_recipient.created', adminId, 'success', 'Partner agreement signed'],
      ['data_recipient.updated', adminId, 'success', 'The app added a key and a local address'],
    ]);
    expect(entries[0]?.details).toMatchObject({
      name: created.name,
      clientId: created.clientId,
      keys: 'key-1:EC',
      allowedScopes: 'fdx:accountdetailed:read fdx:transactions:read',
    });
    expect(entries[1]?.details).toMatchObject({ 'before.keys': 'key-1:EC', 'after.keys': 'key-1:EC key-2:OKP', 'after.rateLimitPerMinute': 120 });
    // Key ids, never the keys themselves.
    expect(JSON.stringify(entries)).not.toContain(String(key.x));
    expect(JSON.stringify(entries)).not.toContain(String(secondKey.x));
  });

  it.each([
    ['a redirect address over plain http', { redirectUris: ['http://pennywise.example/callback'] }, 'redirectUris.0'],
    ['a redirect address with a fragment', { redirectUris: ['https://pennywise.example/callback#top'] }, 'redirectUris.0'],
    ['a redirect address given twice', { redirectUris: ['https://pennywise.example/a', 'https://pennywise.example/a'] }, 'redirectUris.1'],
    ['no redirect address', { redirectUris: [] }, 'redirectUris'],
    ['an unknown scope', { allowedScopes: ['fdx:investments:read'] }, 'allowedScopes.0'],
    ['no scope', { allowedScopes: [] }, 'allowedScopes'],
    ['a key with its private part', { jwks: { keys: [{ ...{ kty: 'EC', crv: 'P-256', x: 'a', y: 'b' }, d: 'private' }] } }, 'jwks.keys.0'],
    ['a key that is not a point on the curve', { jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'AAAA', y: 'AAAA', kid: 'k' }] } }, 'jwks.keys.0'],
    ['a key whose alg is not its type', { jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'AAAA', y: 'AAAA', alg: 'EdDSA' }] } }, 'jwks.keys.0'],
    ['no key', { jwks: { keys: [] } }, 'jwks.keys'],
    ['a logo over plain http', { logoUrl: 'http://pennywise.example/logo.png' }, 'logoUrl'],
    ['a contact that is not an email address', { contactEmail: 'developers' }, 'contactEmail'],
    ['no reason', { reason: '' }, 'reason'],
    ['a reason too short', { reason: 'ok' }, 'reason'],
    ['a rate limit of zero', { rateLimitPerMinute: 0 }, 'rateLimitPerMinute'],
  ])('%s is refused with 400 and a message for the field; nothing is written or audited', async (_name, overrides, field) => {
    const [recipients, audits] = [await recipientCount(), await auditCount()];
    const refused = await admin.post('/api/v1/staff/data-recipients', registration(overrides));
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.code).toBe('validation_failed');
    expect(Object.keys(refused.json<{ error: { fields: Record<string, string> } }>().error.fields)).toContain(field);
    expect(refused.json().error.fields[field]).toEqual(expect.any(String));
    expect([await recipientCount(), await auditCount()]).toEqual([recipients, audits]);
  });

  it('two keys need ids of their own; the same rules hold on a change, which writes nothing when refused', async () => {
    const second = await publicKey('key-1');
    const sameKid = await admin.post('/api/v1/staff/data-recipients', registration({ jwks: { keys: [key, second] } }));
    expect(sameKid.statusCode).toBe(400);
    expect(sameKid.json().error.fields['jwks.keys.1.kid']).toBe('another key has this id (kid)');
    const created = await register();
    const refused = await admin.put(`/api/v1/staff/data-recipients/${created.id}`, registration({ name: 'Changed', redirectUris: ['ftp://x.example'] }));
    expect(refused.statusCode).toBe(400);
    expect((await admin.get(`/api/v1/staff/data-recipients/${created.id}`)).json().recipient).toEqual(created);
    expect((await auditOf(created.id)).map((entry) => entry.action)).toEqual(['data_recipient.created']);
  });

  it('a name another app has (whatever its case) is refused with 409 conflict, on a registration and on a change', async () => {
    const first = await register();
    const second = await register();
    const before = await recipientCount();
    const duplicate = await admin.post('/api/v1/staff/data-recipients', registration({ name: first.name.toUpperCase() }));
    expect(duplicate.statusCode, duplicate.body).toBe(409);
    expect(duplicate.json().error.code).toBe('conflict');
    expect(await recipientCount()).toBe(before);
    const renamed = await admin.put(`/api/v1/staff/data-recipients/${second.id}`, registration({ name: first.name }));
    expect(renamed.statusCode).toBe(409);
    // An app keeps its own name through a change.
    expect((await admin.put(`/api/v1/staff/data-recipients/${first.id}`, registration({ name: first.name }))).statusCode).toBe(200);
  });

  it('shows only the public members of a stored key (an app seeded with extra members still lists)', async () => {
    const id = randomUUID();
    await upsertRecipient(database(), {
      id,
      clientId: `seeded-${id.slice(0, 8)}`,
      name: `Seeded ${id.slice(0, 8)}`,
      logoUrl: null,
      contactEmail: 'dev@seeded.example',
      redirectUris: ['http://localhost:3000/callback'],
      allowedScopes: ['fdx:transactions:read'],
      jwks: { keys: [{ ...key, ext: true, key_ops: ['verify'] }] },
      rateLimitPerMinute: 30,
      createdBy: null,
    });
    const read = await admin.get(`/api/v1/staff/data-recipients/${id}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().recipient.jwks).toEqual({ keys: [key] });
    expect((await admin.get('/api/v1/staff/data-recipients')).statusCode).toBe(200);
  });

  it('an unknown or malformed id answers 404 on every route', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      expect((await admin.get(`/api/v1/staff/data-recipients/${id}`)).statusCode).toBe(404);
      const put = await admin.put(`/api/v1/staff/data-recipients/${id}`, registration());
      expect(put.statusCode).toBe(404);
      expect(put.json().error.code).toBe('not_found');
      expect((await admin.post(`/api/v1/staff/data-recipients/${id}/disable`, { reason: 'Stop it' })).statusCode).toBe(404);
      expect((await admin.post(`/api/v1/staff/data-recipients/${id}/enable`, { reason: 'Start it' })).statusCode).toBe(404);
    }
  });

  it("disabling an app ends every one of its consents and tokens at once, audited with the reason and the count; other apps' consents stay; enabling brings none back", async () => {
    const [dana, erin] = [await kit.customer(), await kit.customer()];
    const pennywise = await register();
    const taxPal = await register();
    const danaConsent = await consent(dana, pennywise.id, ['fdx:transactions:read']);
    const erinConsent = await consent(erin, pennywise.id, ['fdx:accountdetailed:read', 'fdx:transactions:read']);
    const untouched = await consent(dana, taxPal.id, ['fdx:transactions:read']);
    // A token not yet tied to a consent (a code being exchanged) goes with the app too.
    await database().query(`INSERT INTO oauth_store (model, id, payload) VALUES ('AuthorizationCode', $1, $2::jsonb)`, [
      `code-${randomUUID()}`,
      JSON.stringify({ clientId: pennywise.clientId }),
    ]);
    expect((await admin.get(`/api/v1/staff/data-recipients/${pennywise.id}`)).json().recipient.activeConsents).toBe(2);

    const noReason = await admin.post(`/api/v1/staff/data-recipients/${pennywise.id}/disable`, { reason: '' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.fields.reason).toEqual(expect.any(String));
    expect((await consentState(danaConsent.id))?.revoked_by).toBeNull();

    const disabled = await admin.post(`/api/v1/staff/data-recipients/${pennywise.id}/disable`, { reason: 'The app leaked data' });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json().recipient).toMatchObject({ id: pennywise.id, enabled: false, activeConsents: 0 });
    for (const ended of [danaConsent, erinConsent]) {
      expect((await consentState(ended.id))?.revoked_by).toBe('recipient_disabled');
      expect(await storedForGrant(ended.grantId)).toEqual([]);
    }
    expect((await database().query("SELECT 1 FROM oauth_store WHERE payload->>'clientId' = $1", [pennywise.clientId])).length).toBe(0);
    expect((await consentState(untouched.id))?.revoked_by).toBeNull();
    expect(await storedForGrant(untouched.grantId)).toEqual(['AccessToken', 'Grant']);

    const again = await admin.post(`/api/v1/staff/data-recipients/${pennywise.id}/disable`, { reason: 'Twice' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('conflict');

    const enabled = await admin.post(`/api/v1/staff/data-recipients/${pennywise.id}/enable`, { reason: 'Fixed and audited' });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json().recipient).toMatchObject({ enabled: true, activeConsents: 0 });
    expect((await consentState(danaConsent.id))?.revoked_by).toBe('recipient_disabled');
    expect((await admin.post(`/api/v1/staff/data-recipients/${pennywise.id}/enable`, { reason: 'Twice' })).statusCode).toBe(409);

    const entries = await auditOf(pennywise.id);
    expect(entries.map((entry) => [entry.action, entry.actor_id, entry.details.reason])).toEqual([
      ['data_recipient.created', adminId, 'Partner agreement signed'],
      ['data_recipient.disabled', adminId, 'The app leaked data'],
      ['data_recipient.enabled', adminId, 'Fixed and audited'],
    ]);
    expect(entries[1]?.details.consentsEnded).toBe(2);
    const perConsent = await database().query<AuditRow>(
      "SELECT action, actor_id, subject, outcome, details FROM audit_log WHERE action = 'data_recipient.consent_ended' AND subject = ANY($1::text[]) ORDER BY subject",
      [[danaConsent.id, erinConsent.id]],
    );
    expect(perConsent.map((entry) => [entry.subject, entry.details.customerId, entry.details.recipientId])).toEqual(
      [
        [danaConsent.id, dana.id, pennywise.id],
        [erinConsent.id, erin.id, pennywise.id],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
  });

  it('taking a kind of data away narrows the consents in force at once, and ends those left with none', async () => {
    const dana = await kit.customer();
    const budget = await register({ allowedScopes: everyScope });
    const wide = await consent(dana, budget.id, ['fdx:transactions:read', 'fdx:statements:read']);
    const statementsOnly = await consent(dana, budget.id, ['fdx:statements:read']);
    const unaffected = await consent(dana, budget.id, ['fdx:transactions:read']);

    const changed = await admin.put(
      `/api/v1/staff/data-recipients/${budget.id}`,
      registration({
        name: budget.name,
        allowedScopes: ['fdx:accountdetailed:read', 'fdx:transactions:read'],
        reason: 'Statements are not part of the agreement',
      }),
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().recipient).toMatchObject({ allowedScopes: ['fdx:accountdetailed:read', 'fdx:transactions:read'], activeConsents: 2 });
    expect(await consentState(wide.id)).toEqual({ scopes: ['fdx:transactions:read'], revoked_by: null });
    expect(await consentState(statementsOnly.id)).toEqual({ scopes: ['fdx:statements:read'], revoked_by: 'staff' });
    expect(await storedForGrant(statementsOnly.grantId)).toEqual([]);
    expect(await consentState(unaffected.id)).toEqual({ scopes: ['fdx:transactions:read'], revoked_by: null });
    expect(await storedForGrant(wide.grantId)).toEqual(['AccessToken', 'Grant']);

    const [, updated] = await auditOf(budget.id);
    expect(updated?.details).toMatchObject({ consentsNarrowed: 1, consentsEnded: 1, reason: 'Statements are not part of the agreement' });
    expect((await auditOf(statementsOnly.id)).map((entry) => [entry.action, entry.details.because])).toEqual([
      ['data_recipient.consent_ended', 'no data left allowed'],
    ]);
  });

  it("with real DPoP-bound tokens: a cluster taken away is refused on the app's next request (403), and disabling refuses every request (401)", async () => {
    const dana = await kit.customer();
    const recipient = await registerTestRecipient(database(), { name: `Real Token App ${randomUUID().slice(0, 8)}` });
    const access = await grantTestAccess(
      app,
      { db: database() },
      {
        customerId: dana.id,
        recipient,
        scopes: ['fdx:accountdetailed:read', 'fdx:transactions:read'],
        accountIds: [dana.checking.id],
      },
    );
    const transactions = `/fdx/v6/accounts/${dana.checking.id}/transactions`;
    expect((await access.fdx('/fdx/v6/accounts')).statusCode).toBe(200);
    expect((await access.fdx(transactions)).statusCode).toBe(200);

    const stored = (await admin.get(`/api/v1/staff/data-recipients/${recipient.id}`)).json<{ recipient: DataRecipient }>().recipient;
    expect(stored.activeConsents).toBe(1);
    const narrowed = await admin.put(
      `/api/v1/staff/data-recipients/${recipient.id}`,
      registration({
        name: stored.name,
        redirectUris: stored.redirectUris,
        jwks: stored.jwks,
        allowedScopes: ['fdx:accountdetailed:read', 'fdx:statements:read'],
        reason: 'Transactions are not in the agreement',
      }),
    );
    expect(narrowed.statusCode, narrowed.body).toBe(200);
    const refused = await access.fdx(transactions);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.headers['www-authenticate']).toContain('insufficient_scope');
    expect((await access.fdx('/fdx/v6/accounts')).statusCode).toBe(200);

    expect((await admin.post(`/api/v1/staff/data-recipients/${recipient.id}/disable`, { reason: 'Contract ended' })).statusCode).toBe(200);
    const ended = await access.fdx('/fdx/v6/accounts');
    expect(ended.statusCode, ended.body).toBe(401);
    expect(ended.headers['www-authenticate']).toContain('invalid_token');
  });

  it('support, compliance, operations and finance may not read or change apps: 403 forbidden, audited, and nothing is written', async () => {
    const existing = await register();
    const before = await recipientCount();
    for (const role of ['support', 'compliance', 'operations', 'finance'] as const) {
      const { browser, member } = await staffBrowser(app, database(), config, role);
      const attempts = [
        await browser.get('/api/v1/staff/data-recipients'),
        await browser.get(`/api/v1/staff/data-recipients/${existing.id}`),
        await browser.post('/api/v1/staff/data-recipients', registration({ name: 'Forbidden App' })),
        await browser.put(`/api/v1/staff/data-recipients/${existing.id}`, registration({ name: 'Forbidden Rename' })),
        await browser.post(`/api/v1/staff/data-recipients/${existing.id}/disable`, { reason: 'Not mine to do' }),
        await browser.post(`/api/v1/staff/data-recipients/${existing.id}/enable`, { reason: 'Not mine to do' }),
      ];
      expect(attempts.map((attempt) => attempt.statusCode)).toEqual([403, 403, 403, 403, 403, 403]);
      expect(attempts[2]?.json().error.code).toBe('forbidden');
      const denied = await database().query<{ details: { permission: string } }>(
        "SELECT details FROM audit_log WHERE actor_id = $1 AND action = 'staff.permission_denied'",
        [member.id],
      );
      expect(denied.map((row) => row.details.permission)).toEqual(Array(6).fill('connected_apps.manage'));
    }
    expect(await recipientCount()).toBe(before);
    expect((await admin.get(`/api/v1/staff/data-recipients/${existing.id}`)).json().recipient).toEqual(existing);
    // A customer's session does not open the back office.
    const customer = await kit.customer();
    expect((await customer.browser.get('/api/v1/staff/data-recipients')).statusCode).toBe(401);
  });
});
