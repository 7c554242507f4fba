import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type Clock } from '../../db/clock.ts';
import type { Database } from '../../db/database.ts';
import { testConfig } from '../../test/app.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentKit, type PayingCustomer } from '../../test/payments.ts';
import { testAppSuite } from '../../test/suite.ts';
import { revokeConsent } from './consents-repository.ts';
import type { ConnectedAppsDependencies } from './dependencies.ts';
import { createAuthorizationServer } from './oauth/server.ts';
import { OAuthResourceError, requireScope, resolveFdxAccess } from './resource-access.ts';
import { grantTestAccess, registerTestRecipient, type TestAccess, type TestRecipient } from './test-kit.ts';

/** The app under test and the probe below share these: the same issuer and the same sealed keys. */
const environment = {
  PUBLIC_URL: 'http://bank.test',
  SESSION_SECRET: Buffer.alloc(32, 7).toString('base64'),
  ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
};

/**
 * A resource route of the tests' own, so the access check is tested apart from the FDX routes:
 * it answers what resolveFdxAccess found, or the refusal as the FDX routes give it.
 */
function probeRoutes(db: Database, clock: Clock) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const config = await testConfig(environment);
    const dependencies = { db, config, clock, authorizationServer: createAuthorizationServer({ db, config, clock }) } as ConnectedAppsDependencies;
    const handler = async (request: FastifyRequest<{ Querystring: { scope?: string } }>, reply: FastifyReply) => {
      try {
        const access = await resolveFdxAccess(dependencies, request);
        if (request.query.scope) requireScope(access, request.query.scope as 'fdx:statements:read');
        return access;
      } catch (error) {
        if (!(error instanceof OAuthResourceError)) throw error;
        return reply
          .code(error.status)
          .header('www-authenticate', error.wwwAuthenticate())
          .send({ error: error.error ?? null });
      }
    };
    app.get('/fdx-probe/accounts', handler);
    app.post('/fdx-probe/accounts', handler);
  };
}

describeEachDatabase('The resource API access check (issue 38)', (database) => {
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
  let recipient: TestRecipient;
  beforeAll(async () => {
    dana = await kit.customer();
    recipient = await registerTestRecipient(database());
  });

  function access(scopes: Parameters<typeof grantTestAccess>[2]['scopes'] = ['fdx:accountdetailed:read', 'fdx:transactions:read']): Promise<TestAccess> {
    return grantTestAccess(app, { db: database() }, { customerId: dana.id, recipient, scopes, accountIds: [dana.checking.id] });
  }

  function expectRefused(response: { statusCode: number; headers: Record<string, unknown> }, status: number, error: string) {
    expect(response.statusCode).toBe(status);
    expect(response.headers['www-authenticate']).toMatch(new RegExp(`^DPoP error="${error}", error_description="[^"]+", algs="ES256 PS256 EdDSA"$`));
  }

  it('lets a DPoP-bound token with a fresh proof through, with what the consent holds, and marks the consent used', async () => {
    const granted = await access();
    const response = await granted.fdx('/fdx-probe/accounts?limit=5');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      consentId: granted.consentId,
      customerId: dana.id,
      recipientId: recipient.id,
      clientId: recipient.clientId,
      scopes: ['fdx:accountdetailed:read', 'fdx:transactions:read'],
      accountIds: [dana.checking.id],
      rateLimitPerMinute: 120,
    });
    const [row] = await database().query<{ last_used_at: Date | null }>('SELECT last_used_at FROM connected_app_consents WHERE id = $1', [granted.consentId]);
    expect(row?.last_used_at).not.toBeNull();
  });

  it('asks for credentials without an error code when there are none', async () => {
    const response = await app.inject({ method: 'GET', url: '/fdx-probe/accounts' });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('DPoP algs="ES256 PS256 EdDSA"');
  });

  it('refuses the token used as a Bearer token, or without its proof', async () => {
    const granted = await access();
    const bearer = await app.inject({ method: 'GET', url: '/fdx-probe/accounts', headers: { authorization: `Bearer ${granted.accessToken}` } });
    expectRefused(bearer, 401, 'invalid_token');
    expectRefused(await granted.fdx('/fdx-probe/accounts', { proof: false }), 401, 'invalid_dpop_proof');
  });

  it('refuses a proof used twice, or made for another URL, method or token', async () => {
    const granted = await access();
    const proof = await granted.proof('GET', '/fdx-probe/accounts');
    expect((await granted.fdx('/fdx-probe/accounts', { proof })).statusCode).toBe(200);
    expectRefused(await granted.fdx('/fdx-probe/accounts', { proof }), 401, 'invalid_dpop_proof');
    expectRefused(await granted.fdx('/fdx-probe/accounts', { proof: await granted.proof('GET', '/fdx-probe/other') }), 401, 'invalid_dpop_proof');
    expectRefused(
      await granted.fdx('/fdx-probe/accounts', { method: 'POST', proof: await granted.proof('GET', '/fdx-probe/accounts') }),
      401,
      'invalid_dpop_proof',
    );
    expectRefused(
      await granted.fdx('/fdx-probe/accounts', { proof: await granted.proof('GET', '/fdx-probe/accounts', { ath: 'not-this-token' }) }),
      401,
      'invalid_dpop_proof',
    );
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    expectRefused(
      await granted.fdx('/fdx-probe/accounts', { proof: await granted.proof('GET', '/fdx-probe/accounts', { iat: tenMinutesAgo }) }),
      401,
      'invalid_dpop_proof',
    );
  });

  it("refuses a proof of another key than the token's", async () => {
    const granted = await access();
    const other = await access();
    const response = await granted.fdx('/fdx-probe/accounts', {
      headers: { authorization: `DPoP ${other.accessToken}` },
      proof: await granted.proof('GET', '/fdx-probe/accounts', {
        ath: (await import('../../platform/crypto.ts')).sha256(other.accessToken).toString('base64url'),
      }),
    });
    expectRefused(response, 401, 'invalid_token');
  });

  it('refuses an expired token', async () => {
    const granted = await access();
    await database().query(
      `UPDATE oauth_store SET expires_at = now() - interval '1 second', payload = jsonb_set(payload, '{exp}', to_jsonb(extract(epoch FROM now())::bigint - 1))
       WHERE model = 'AccessToken' AND grant_id = $1`,
      [granted.grantId],
    );
    expectRefused(await granted.fdx('/fdx-probe/accounts'), 401, 'invalid_token');
  });

  it('refuses a token of a revoked consent on the very next request', async () => {
    const granted = await access();
    expect((await granted.fdx('/fdx-probe/accounts')).statusCode).toBe(200);
    expect(await revokeConsent(database(), { consentId: granted.consentId, customerId: dana.id, by: 'customer', now: clock.now() })).toBeDefined();
    expectRefused(await granted.fdx('/fdx-probe/accounts'), 401, 'invalid_token');
  });

  it('refuses a token of an expired consent, even while the token lives', async () => {
    const granted = await access();
    await database().query(
      `UPDATE connected_app_consents SET created_at = $2::timestamptz - interval '2 days', expires_at = $2::timestamptz - interval '1 second' WHERE id = $1`,
      [granted.consentId, clock.now()],
    );
    expectRefused(await granted.fdx('/fdx-probe/accounts'), 401, 'invalid_token');
  });

  it('refuses a token of a disabled app', async () => {
    const other = await registerTestRecipient(database());
    const granted = await grantTestAccess(
      app,
      { db: database() },
      { customerId: dana.id, recipient: other, scopes: ['fdx:transactions:read'], accountIds: [dana.checking.id] },
    );
    expect((await granted.fdx('/fdx-probe/accounts')).statusCode).toBe(200);
    await database().query('UPDATE data_recipients SET enabled = false WHERE id = $1', [other.id]);
    expectRefused(await granted.fdx('/fdx-probe/accounts'), 401, 'invalid_token');
  });

  it('answers 403 insufficient_scope for data the consent does not cover', async () => {
    const granted = await access(['fdx:transactions:read']);
    expectRefused(await granted.fdx('/fdx-probe/accounts?scope=fdx:statements:read'), 403, 'insufficient_scope');
    expect((await granted.fdx('/fdx-probe/accounts?scope=fdx:transactions:read')).statusCode).toBe(200);
  });
});

describe('OAuthResourceError', () => {
  it('quotes nothing it should not: quotes and backslashes are left out of the header', () => {
    expect(new OAuthResourceError(401, 'invalid_token', 'a "quoted" \\ message').wwwAuthenticate()).toBe(
      'DPoP error="invalid_token", error_description="a quoted  message", algs="ES256 PS256 EdDSA"',
    );
  });
});
