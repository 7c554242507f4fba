import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test/databases.ts';
import { testAppSuite } from '../test/suite.ts';

describeEachDatabase('security headers', (database) => {
  let app: FastifyInstance;
  testAppSuite(database, (built) => ({ app } = built), { environment: { TRUST_PROXY: 'true' } });

  it('sends a CSP without inline scripts that forbids framing, plugins and base changes', async () => {
    const response = await app.inject({ method: 'GET', url: '/' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
  });

  it('sends nosniff, a referrer policy and no HSTS over plain http', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends HSTS for a year when the request came over HTTPS', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('marks every API answer no-store, errors included', async () => {
    for (const url of ['/api/v1/health', '/api/v1/settings/public', '/api/v1/no-such-route']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('marks an API answer no-store when its path is percent-encoded too, since the router decodes it to the same route', async () => {
    for (const url of ['/%61pi/v1/health', '/api/v1/%73ettings/public', '/%61pi/v1/me']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).not.toBe(404);
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
  });
});
