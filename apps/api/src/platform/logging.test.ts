import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../test/databases.ts';
import { buildTestApp, type LogCapture } from '../test/app.ts';
import { maskUrl } from './logging.ts';

describe('maskUrl', () => {
  it('masks tokens in link paths and secret query parameters', () => {
    expect(maskUrl('/verification/abcDEF123456789012345678901234567890')).toBe('/verification/[redacted]');
    expect(maskUrl('/resetpassword/short-token')).toBe('/resetpassword/[redacted]');
    expect(maskUrl('/api/v1/dev/outbox?to=a%40b.co&token=s3cret')).toBe('/api/v1/dev/outbox?to=a%40b.co&token=[redacted]');
    expect(maskUrl('/cards/4111111111111111')).toBe('/cards/[redacted]');
    expect(maskUrl('/savings')).toBe('/savings');
  });
});

describeEachDatabase('what the logs hold', (database) => {
  let app: FastifyInstance;
  let logs: LogCapture;
  beforeAll(async () => {
    ({ app, logs } = await buildTestApp(database()));
  });

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

  it('writes one line per request, when it is answered: its id, method, masked URL, status and time', async () => {
    const requestId = 'one-line-per-request-0001';
    await app.inject({ method: 'GET', url: `/api/v1/health?token=${'s'.repeat(12)}`, headers: { 'x-request-id': requestId } });
    const lines = logs.text
      .split('\n')
      .filter((line) => line.includes(`"requestId":"${requestId}"`))
      .map((line) => JSON.parse(line) as { msg: string; req?: { method: string; url: string }; res?: { statusCode: number }; responseTime?: number });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/api/v1/health?token=[redacted]' }, res: { statusCode: 200 } });
    expect(lines[0]?.responseTime).toBeGreaterThan(0);
  });
});
