import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../test/databases.ts';
import type { LogCapture } from '../test/app.ts';
import { testAppSuite } from '../test/suite.ts';
import { maskUrl } from './logging.ts';

describe('maskUrl', () => {
  it('masks tokens in link paths and secret query parameters', () => {
    expect(maskUrl('/verification/abcDEF123456789012345678901234567890')).toBe('/verification/[redacted]');
    expect(maskUrl('/resetpassword/short-token')).toBe('/resetpassword/[redacted]');
    expect(maskUrl('/api/v1/dev/outbox?to=a%40b.co&token=s3cret')).toBe('/api/v1/dev/outbox?to=a%40b.co&token=[redacted]');
    expect(maskUrl('/cards/4111111111111111')).toBe('/cards/[redacted]');
    // A pushed authorization request's one-time reference and the code an app gets back (issue 38).
    expect(maskUrl('/oauth/auth?client_id=app_1&request_uri=urn%3Aietf%3Aparams%3Aoauth%3Arequest_uri%3Aabc')).toBe(
      '/oauth/auth?client_id=app_1&request_uri=[redacted]',
    );
    expect(maskUrl('/sandbox/budget-app/callback?code=abc&state=xyz&iss=http%3A%2F%2Flocalhost')).toBe(
      '/sandbox/budget-app/callback?code=[redacted]&state=xyz&iss=http%3A%2F%2Flocalhost',
    );
    expect(maskUrl('/savings')).toBe('/savings');
  });

  it('masks the terms of the history search, the staff customer search and the audit filters, however the name is spelt', () => {
    expect(maskUrl('/api/v1/transactions?accountId=7b0e&q=Margaret%20Hamilton&limit=20')).toBe('/api/v1/transactions?accountId=7b0e&q=[redacted]&limit=20');
    expect(maskUrl('/api/v1/staff/customers?q=4400123456')).toBe('/api/v1/staff/customers?q=[redacted]');
    expect(maskUrl('/api/v1/staff/audit.csv?actor=ada%40example.com&action=staff.&subject=c1')).toBe(
      '/api/v1/staff/audit.csv?actor=[redacted]&action=staff.&subject=[redacted]',
    );
    expect(maskUrl('/api/v1/%74ransactions?%71=ada')).toBe('/api/v1/%74ransactions?q=[redacted]');
  });
});

describeEachDatabase('what the logs hold', (database) => {
  let app: FastifyInstance;
  let logs: LogCapture;
  testAppSuite(database, (built) => ({ app, logs } = built));

  it('logs each request with its id but never a password, code, token, cookie or card number', async () => {
    const secrets = ['Tr0ub4dor&3-horse', '493817', 'session-cookie-value-0123456789abcdef', '4111111111111111'];
    await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login?code=493817',
      payload: { email: 'a@b.co', password: secrets[0], code: secrets[1], cardNumber: secrets[3] },
      headers: { cookie: `session=${secrets[2]}`, authorization: `Bearer ${secrets[2]}` },
    });
    await app.inject({ method: 'GET', url: `/verification/${'t'.repeat(43)}` });
    expect(logs.text).toContain('"requestId"');
    expect(logs.text).toContain('/api/v1/auth/login');
    for (const secret of secrets) expect(logs.text).not.toContain(secret);
    expect(logs.text).not.toContain('t'.repeat(43));
  });

  it('never writes what a customer or staff member searched for (a name, an email, an account number) into a log line', async () => {
    const terms = ['Margaret Hamilton', 'margaret.hamilton@example.com', '4400123456'];
    for (const term of terms) {
      const q = encodeURIComponent(term);
      await app.inject({ method: 'GET', url: `/api/v1/transactions?q=${q}` });
      await app.inject({ method: 'GET', url: `/api/v1/staff/customers?q=${q}` });
      await app.inject({ method: 'GET', url: `/api/v1/staff/audit?actor=${q}&subject=${q}` });
      await app.inject({ method: 'GET', url: `/api/v1/staff/audit.csv?actor=${q}` });
    }
    expect(logs.text).toContain('/api/v1/staff/customers?q=[redacted]');
    expect(logs.text).toContain('/api/v1/staff/audit?actor=[redacted]&subject=[redacted]');
    for (const term of terms) {
      expect(logs.text).not.toContain(term);
      expect(logs.text).not.toContain(encodeURIComponent(term));
    }
  });

  it('writes one line per request, when it is answered: its id, method, masked URL, status and time', async () => {
    const answer = await app.inject({ method: 'GET', url: `/api/v1/health?token=${'s'.repeat(12)}` });
    const requestId = String(answer.headers['x-request-id']);
    const lines = logs.text
      .split('\n')
      .filter((line) => line.includes(`"requestId":"${requestId}"`))
      .map((line) => JSON.parse(line) as { msg: string; req?: { method: string; url: string }; res?: { statusCode: number }; responseTime?: number });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/api/v1/health?token=[redacted]' }, res: { statusCode: 200 } });
    expect(lines[0]?.responseTime).toBeGreaterThan(0);
  });
});
