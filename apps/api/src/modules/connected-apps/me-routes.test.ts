import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import type { DataScope } from '@strongroom/contracts/connected-apps.ts';
import type { Config } from '../../config.ts';
import { TestClock } from '../../db/clock.ts';
import { recordAudit } from '../../platform/audit.ts';
import { TestBrowser } from '../../test/client.ts';
import { buildTestApp } from '../../test/app.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentKit, type PayingCustomer } from '../../test/payments.ts';
import { testAppSuite } from '../../test/suite.ts';
import { attachGrant, insertConsent } from './consents-repository.ts';
import { upsertRecipient } from './recipients-repository.ts';
import { grantTestAccess, registerTestRecipient } from './test-kit.ts';

const dayMs = 24 * 60 * 60 * 1_000;

interface Listed {
  consentId: string;
  app: { id: string; name: string; logoUrl: string | null };
  scopes: string[];
  accounts: { id: string; name: string; maskedNumber: string }[];
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
}

describeEachDatabase('Connected apps under Settings (issue 38)', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const clock = new TestClock();
  const kit = paymentKit(testAppSuite(database, (built) => ({ app, config } = built), { dependencies: { clock } }));

  /** A data recipient as staff register one (the recipients part tests that form). */
  async function recipient(name: string, logoUrl: string | null = null): Promise<string> {
    const row = await upsertRecipient(database(), {
      id: randomUUID(),
      clientId: `test-${randomUUID().slice(0, 8)}`,
      name,
      logoUrl,
      contactEmail: 'developers@app.example',
      redirectUris: ['https://app.example/callback'],
      allowedScopes: ['fdx:accountdetailed:read', 'fdx:transactions:read', 'fdx:statements:read', 'fdx:customercontact:read'],
      jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uE2Gd3bM', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' }] },
      rateLimitPerMinute: 120,
      createdBy: null,
    });
    return row.id;
  }

  /**
   * A consent in force as the consent page leaves one: its row, its accounts, and the authorization
   * server's grant with a token of it in oauth_store.
   */
  async function consent(
    who: PayingCustomer,
    recipientId: string,
    scopes: DataScope[],
    accountIds: string[],
    days = 90,
  ): Promise<{ id: string; grantId: string }> {
    const id = randomUUID();
    const grantId = `grant-${randomUUID()}`;
    const inserted = await insertConsent(database(), {
      id,
      customerId: who.id,
      recipientId,
      scopes,
      accountIds,
      expiresAt: new Date(clock.now().getTime() + days * dayMs),
    });
    expect(inserted?.id).toBe(id);
    await attachGrant(database(), id, grantId);
    await database().query(`INSERT INTO oauth_store (model, id, payload, grant_id) VALUES ('Grant', $1, '{}', NULL), ('AccessToken', $2, '{}', $1)`, [
      grantId,
      `token-${randomUUID()}`,
    ]);
    return { id, grantId };
  }

  const list = async (who: PayingCustomer): Promise<Listed[]> => {
    const response = await who.browser.get('/api/v1/me/connected-apps');
    expect(response.statusCode, response.body).toBe(200);
    return response.json().items;
  };
  const revoke = (who: PayingCustomer, consentId: string) => who.browser.request({ method: 'DELETE', url: `/api/v1/me/connected-apps/${consentId}` });
  const storedForGrant = async (grantId: string) =>
    (await database().query<{ model: string }>('SELECT model FROM oauth_store WHERE grant_id = $1 OR id = $1 ORDER BY model', [grantId])).map(
      (row) => row.model,
    );
  const auditOf = (consentId: string) =>
    database().query<{ action: string; actor_type: string; actor_id: string; details: Record<string, unknown> }>(
      'SELECT action, actor_type, actor_id, details FROM audit_log WHERE subject = $1 ORDER BY id',
      [consentId],
    );
  const accountName = async (accountId: string) =>
    (await database().query<{ name: string }>('SELECT name FROM customer_accounts WHERE id = $1', [accountId]))[0]?.name ?? '';

  it('lists only the consents in force of the signed-in customer, newest first, with the app, the clusters in order and the accounts masked', async () => {
    const dana = await kit.customer();
    const erin = await kit.customer();
    const pennywise = await recipient('Pennywise', 'https://app.example/logo.png');
    const taxPal = await recipient('TaxPal');
    const older = await consent(dana, pennywise, ['fdx:transactions:read', 'fdx:accountdetailed:read'], [dana.checking.id], 30);
    clock.advance(1_000);
    const newer = await consent(dana, taxPal, ['fdx:customercontact:read', 'fdx:statements:read'], [dana.savings.id, dana.checking.id], 300);
    clock.advance(1_000);
    const ended = await consent(dana, taxPal, ['fdx:statements:read'], [dana.checking.id]);
    expect((await revoke(dana, ended.id)).statusCode).toBe(204);
    const shortLived = await consent(dana, pennywise, ['fdx:transactions:read'], [dana.savings.id], 1);
    // One still being given (no grant yet) is not an app the customer has connected.
    await insertConsent(database(), {
      id: randomUUID(),
      customerId: dana.id,
      recipientId: pennywise,
      scopes: ['fdx:transactions:read'],
      accountIds: [dana.checking.id],
      expiresAt: new Date(clock.now().getTime() + dayMs),
    });
    await consent(erin, pennywise, ['fdx:transactions:read'], [erin.checking.id]);

    const items = await list(dana);
    expect(items.map((item) => item.consentId)).toEqual([shortLived.id, newer.id, older.id]);
    const [, taxPalItem, pennywiseItem] = items;
    expect(taxPalItem?.app).toEqual({ id: taxPal, name: 'TaxPal', logoUrl: null });
    expect(taxPalItem?.scopes).toEqual(['fdx:statements:read', 'fdx:customercontact:read']);
    const checkingName = await accountName(dana.checking.id);
    const savingsName = await accountName(dana.savings.id);
    expect(taxPalItem?.accounts).toEqual(
      expect.arrayContaining([
        { id: dana.checking.id, name: checkingName, maskedNumber: `${checkingName} ••${dana.checking.number.slice(-4)}` },
        { id: dana.savings.id, name: savingsName, maskedNumber: `${savingsName} ••${dana.savings.number.slice(-4)}` },
      ]),
    );
    expect(taxPalItem?.accounts).toHaveLength(2);
    expect(JSON.stringify(items)).not.toContain(dana.checking.number);
    expect(pennywiseItem).toMatchObject({
      app: { id: pennywise, name: 'Pennywise', logoUrl: 'https://app.example/logo.png' },
      scopes: ['fdx:accountdetailed:read', 'fdx:transactions:read'],
      lastUsedAt: null,
    });
    expect(Date.parse(pennywiseItem?.expiresAt ?? '') - Date.parse(pennywiseItem?.createdAt ?? '')).toBeGreaterThan(29 * dayMs);

    // A day later the one-day consent has expired: it is no longer listed.
    clock.advance(dayMs + 1_000);
    expect((await list(dana)).map((item) => item.consentId)).toEqual([newer.id, older.id]);
    expect((await list(erin)).map((item) => item.app.name)).toEqual(['Pennywise']);
  });

  it('revokes a consent at once: the consent ends, the authorization server forgets its grant and tokens, and it is audited', async () => {
    const dana = await kit.customer();
    const pennywise = await recipient('Pennywise');
    const given = await consent(dana, pennywise, ['fdx:transactions:read'], [dana.checking.id]);
    const kept = await consent(dana, pennywise, ['fdx:statements:read'], [dana.savings.id]);
    expect(await storedForGrant(given.grantId)).toEqual(['AccessToken', 'Grant']);

    const response = await revoke(dana, given.id);
    expect(response.statusCode, response.body).toBe(204);
    const [row] = await database().query<{ revoked_at: Date | null; revoked_by: string | null }>(
      'SELECT revoked_at, revoked_by FROM connected_app_consents WHERE id = $1',
      [given.id],
    );
    expect(row?.revoked_by).toBe('customer');
    expect(row?.revoked_at).toBeInstanceOf(Date);
    expect(await storedForGrant(given.grantId)).toEqual([]);
    expect(await storedForGrant(kept.grantId)).toEqual(['AccessToken', 'Grant']);
    expect((await list(dana)).map((item) => item.consentId)).toEqual([kept.id]);

    const audit = await auditOf(given.id);
    expect(audit).toEqual([
      {
        action: 'connected_app.revoked',
        actor_type: 'customer',
        actor_id: dana.id,
        details: { recipientId: pennywise, appName: 'Pennywise', scopes: 'fdx:transactions:read' },
      },
    ]);
  });

  it("answers another customer's consent, an unknown or malformed id, and one already revoked or expired with the same 404, and writes nothing", async () => {
    const dana = await kit.customer();
    const mallory = await kit.customer();
    const pennywise = await recipient('Pennywise');
    const danas = await consent(dana, pennywise, ['fdx:transactions:read'], [dana.checking.id]);
    const brief = await consent(dana, pennywise, ['fdx:transactions:read'], [dana.checking.id], 1);
    clock.advance(dayMs + 1_000);

    const answers = [];
    answers.push(await revoke(mallory, danas.id));
    answers.push(await revoke(dana, randomUUID()));
    answers.push(await revoke(dana, 'not-a-consent-id'));
    answers.push(await revoke(dana, brief.id));
    expect((await revoke(dana, danas.id)).statusCode).toBe(204);
    answers.push(await revoke(dana, danas.id));
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(404);
      expect(answer.json().error).toMatchObject({ code: 'not_found', message: 'No such connected app' });
    }
    expect((await auditOf(danas.id)).map((entry) => entry.actor_id)).toEqual([dana.id]);
    expect(await auditOf(brief.id)).toEqual([]);
    // Mallory's attempt left Dana's consent alone until Dana ended it herself.
    expect(await storedForGrant(danas.grantId)).toEqual([]);
    expect(await storedForGrant(brief.grantId)).toEqual(['AccessToken', 'Grant']);
  });

  it("stops the app's very next request once the customer revokes, with a real DPoP-bound token", async () => {
    const dana = await kit.customer();
    const pennywise = await registerTestRecipient(database(), { name: 'Pennywise' });
    const access = await grantTestAccess(
      app,
      { db: database() },
      {
        customerId: dana.id,
        recipient: pennywise,
        scopes: ['fdx:accountdetailed:read'],
        accountIds: [dana.checking.id],
      },
    );
    const before = await access.fdx('/fdx/v6/accounts');
    expect(before.statusCode, before.body).toBe(200);
    expect((await list(dana)).map((item) => [item.consentId, item.app.name])).toEqual([[access.consentId, 'Pennywise']]);

    expect((await revoke(dana, access.consentId)).statusCode).toBe(204);
    const after = await access.fdx('/fdx/v6/accounts');
    expect(after.statusCode, after.body).toBe(401);
    expect(String(after.headers['www-authenticate'])).toContain('error="invalid_token"');
    expect(await list(dana)).toEqual([]);
  });

  it('ends the access in every process: a second server that read with the token refuses its next request after the first one revoked', async () => {
    // Processes of one bank share its secrets (the keys are sealed with ENCRYPTION_KEY) and its database, nothing else.
    const secrets = { SESSION_SECRET: config.secrets.sessionSecret.toString('base64'), ENCRYPTION_KEY: config.secrets.encryptionKey.toString('base64') };
    const second = await buildTestApp(database(), { environment: secrets, dependencies: { clock } });
    try {
      const erin = await kit.customer();
      const budget = await registerTestRecipient(database(), { name: 'Two servers' });
      const access = await grantTestAccess(
        app,
        { db: database() },
        { customerId: erin.id, recipient: budget, scopes: ['fdx:transactions:read'], accountIds: [erin.checking.id] },
      );
      const readThroughSecond = async () =>
        second.app.inject({
          method: 'GET',
          url: '/fdx/v6/accounts',
          headers: { authorization: `DPoP ${access.accessToken}`, dpop: await access.proof('GET', '/fdx/v6/accounts') },
        });
      const before = await readThroughSecond();
      expect(before.statusCode, before.body).toBe(200);
      expect((await revoke(erin, access.consentId)).statusCode).toBe(204);
      const after = await readThroughSecond();
      expect(after.statusCode, after.body).toBe(401);
      expect(String(after.headers['www-authenticate'])).toContain('error="invalid_token"');
    } finally {
      await second.app.close();
    }
  });

  it('refuses a caller who is not signed in', async () => {
    const stranger = new TestBrowser(app);
    expect((await stranger.get('/api/v1/me/connected-apps')).statusCode).toBe(401);
    expect((await stranger.request({ method: 'DELETE', url: `/api/v1/me/connected-apps/${randomUUID()}` })).statusCode).toBe(401);
  });

  it('shows consenting, refusing and revoking on the security timeline as connected-app events in plain words', async () => {
    const dana = await kit.customer();
    const pennywise = await recipient('Pennywise');
    const given = await consent(dana, pennywise, ['fdx:transactions:read'], [dana.checking.id]);
    const customer = { actorType: 'customer' as const, actorId: dana.id, outcome: 'success' as const };
    await recordAudit(database(), {
      ...customer,
      action: 'connected_app.refused',
      subject: pennywise,
      details: { recipientId: pennywise, appName: 'Pennywise' },
    });
    await recordAudit(database(), {
      ...customer,
      action: 'connected_app.consented',
      subject: given.id,
      details: { recipientId: pennywise, appName: 'Pennywise' },
    });
    expect((await revoke(dana, given.id)).statusCode).toBe(204);

    const response = await dana.browser.get('/api/v1/me/security-events');
    expect(response.statusCode, response.body).toBe(200);
    const events: { action: string; kind: string; title: string }[] = response.json().items;
    expect(events.filter((event) => event.action.startsWith('connected_app.')).map(({ action, kind, title }) => ({ action, kind, title }))).toEqual([
      { action: 'connected_app.revoked', kind: 'connected_app', title: "You ended an app's access: it can no longer see your data" },
      { action: 'connected_app.consented', kind: 'connected_app', title: 'You let an app see your data' },
      { action: 'connected_app.refused', kind: 'connected_app', title: 'You said no to an app that asked to see your data' },
    ]);
  });
});
