import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/databases.ts';
import { testAppSuite } from '../../test/suite.ts';

describeEachDatabase('health, readiness, settings and the OpenAPI document', (database, kind) => {
  let app: FastifyInstance;
  testAppSuite(database, (built) => ({ app } = built), { environment: { BANK_NAME: 'Test Savings Bank' } });

  it('answers liveness and readiness with the database in use', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/v1/health' })).json()).toEqual({ status: 'ok' });
    expect((await app.inject({ method: 'GET', url: '/api/v1/ready' })).json()).toEqual({ status: 'ready', database: kind });
  });

  it('answers the public bank settings with the seeded address and phone', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/settings/public' });
    expect(response.json()).toMatchObject({ bankName: 'Test Savings Bank', mode: 'sandbox', phone: expect.any(String), address: expect.any(String) });
  });

  it('publishes an OpenAPI document with a response schema on every route', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json() as { openapi: string; paths: Record<string, Record<string, { responses?: Record<string, { content?: unknown }> }>> };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/v1/health', '/api/v1/ready', '/api/v1/settings/public', '/api/v1/me', '/api/v1/dev/outbox']),
    );
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const success = Object.entries(operation.responses ?? {}).find(([status]) => status.startsWith('2'));
        expect(success?.[1].content, `${method.toUpperCase()} ${path} declares its response`).toBeDefined();
      }
    }
  });
});
