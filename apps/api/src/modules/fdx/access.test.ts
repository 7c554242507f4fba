import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { dataScopes, type DataScope } from '@strongroom/contracts/connected-apps.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentKit, type PayingCustomer } from '../../test/payments.ts';
import { testAppSuite } from '../../test/suite.ts';
import { revokeConsent } from '../connected-apps/consents-repository.ts';
import { grantTestAccess, registerTestRecipient, type TestAccess } from '../connected-apps/test-kit.ts';

/** Issue 38: what the FDX resource API refuses before it reads anything, in OAuth's and FDX's terms. */
describeEachDatabase('The FDX resource API refuses (issue 38)', (database) => {
  let app: FastifyInstance;
  const kit = paymentKit(testAppSuite(database, (built) => ({ app } = built)));

  let dana: PayingCustomer;
  const grantFor = async (scopes: DataScope[], rateLimitPerMinute = 120): Promise<TestAccess> => {
    const recipient = await registerTestRecipient(database(), { rateLimitPerMinute });
    return grantTestAccess(app, { db: database() }, { customerId: dana.id, recipient, scopes, accountIds: [dana.checking.id] });
  };
  const routes = () => ({
    'fdx:accountdetailed:read': `/fdx/v6/accounts/${dana.checking.id}`,
    'fdx:transactions:read': `/fdx/v6/accounts/${dana.checking.id}/transactions`,
    'fdx:statements:read': `/fdx/v6/accounts/${dana.checking.id}/statements`,
    'fdx:customercontact:read': `/fdx/v6/accounts/${dana.checking.id}/contact`,
  });

  beforeAll(async () => {
    dana = await kit.customer({ firstName: 'Dana', lastName: 'Demo' });
  });

  it('refuses each data cluster the consent did not give, with insufficient_scope, and lets the others through', async () => {
    for (const scope of dataScopes) {
      const access = await grantFor([scope]);
      for (const [routeScope, path] of Object.entries(routes())) {
        const response = await access.fdx(path);
        if (routeScope === scope) {
          expect(response.statusCode, `${scope} on ${path}: ${response.body}`).toBe(200);
          continue;
        }
        expect(response.statusCode, `${scope} on ${path}`).toBe(403);
        expect(response.headers['www-authenticate']).toMatch(/^DPoP error="insufficient_scope", error_description="[^"]+", algs="/);
        expect(response.json()).toEqual({ code: 602, message: 'Customer not authorized', debugMessage: expect.stringContaining(routeScope) });
        expect(response.headers['cache-control']).toBe('no-store');
      }
      // Any one cluster lists the consented accounts: every cluster needs their ids.
      expect((await access.fdx('/fdx/v6/accounts')).statusCode).toBe(200);
    }
  });

  it('refuses a request without a token, and a token without its DPoP proof', async () => {
    const access = await grantFor([...dataScopes]);
    const anonymous = await app.inject({ method: 'GET', url: '/fdx/v6/accounts' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^DPoP algs="/);
    expect(anonymous.json()).toMatchObject({ code: 602, message: 'Customer not authorized' });
    const withoutProof = await access.fdx('/fdx/v6/accounts', { proof: false });
    expect(withoutProof.statusCode).toBe(401);
    expect(withoutProof.headers['www-authenticate']).toMatch(/error="invalid_dpop_proof"/);
    const asBearer = await app.inject({ method: 'GET', url: '/fdx/v6/accounts', headers: { authorization: `Bearer ${access.accessToken}` } });
    expect(asBearer.statusCode).toBe(401);
    expect(asBearer.headers['www-authenticate']).toMatch(/error="invalid_token"/);
  });

  it('checks the token before the query: a bad query without a token is still a 401', async () => {
    const response = await app.inject({ method: 'GET', url: `/fdx/v6/accounts/${dana.checking.id}/transactions?startTime=${'x'.repeat(100)}` });
    expect(response.statusCode).toBe(401);
  });

  it('stops a revoked consent on the very next request', async () => {
    const access = await grantFor([...dataScopes]);
    expect((await access.fdx(routes()['fdx:transactions:read'])).statusCode).toBe(200);
    await revokeConsent(database(), { consentId: access.consentId, customerId: dana.id, by: 'customer', now: new Date() });
    const response = await access.fdx(routes()['fdx:transactions:read']);
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    expect(response.json()).toMatchObject({ code: 602 });
  });

  it('stops a consent once it has expired', async () => {
    const access = await grantFor([...dataScopes]);
    expect((await access.fdx('/fdx/v6/accounts')).statusCode).toBe(200);
    await database().query(`UPDATE connected_app_consents SET created_at = now() - interval '2 days', expires_at = now() - interval '1 second' WHERE id = $1`, [
      access.consentId,
    ]);
    const response = await access.fdx('/fdx/v6/accounts');
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/error="invalid_token"/);
  });

  it('holds each app to its requests a minute, over all its customers, without touching another app', async () => {
    const limited = await grantFor([...dataScopes], 3);
    const other = await grantFor([...dataScopes], 3);
    for (let request = 1; request <= 3; request += 1) expect((await limited.fdx('/fdx/v6/accounts')).statusCode).toBe(200);
    const refused = await limited.fdx('/fdx/v6/accounts');
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.json()).toMatchObject({ code: 429, message: 'Too many requests' });
    expect((await other.fdx('/fdx/v6/accounts')).statusCode).toBe(200);
  });

  it('echoes the FAPI interaction id and answers an unknown path in FDX’s shape', async () => {
    const access = await grantFor([...dataScopes]);
    const interactionId = '7d5f5a2c-3f1e-4c8a-9a57-2b8f1c0d9e61';
    const response = await access.fdx('/fdx/v6/accounts', { headers: { 'x-fapi-interaction-id': interactionId } });
    expect(response.headers['x-fapi-interaction-id']).toBe(interactionId);
    const unknown = await app.inject({ method: 'GET', url: '/fdx/v6/nothing-here' });
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { code: 404, message: 'Not found' }]);
  });
});
