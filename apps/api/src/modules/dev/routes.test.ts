import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { outboxListSchema } from '@strongroom/contracts/outbox.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { testAppSuite } from '../../test/suite.ts';

describeEachDatabase('GET /api/v1/dev/outbox', (database) => {
  let app: FastifyInstance;
  testAppSuite(database, (built) => ({ app } = built));
  beforeAll(async () => {
    await app.services.mailer.send({ to: 'first@example.com', subject: 'One', text: 'Hello one' });
    await app.services.mailer.send({ to: 'second@example.com', subject: 'Two', text: 'Hello two' });
    await app.services.sms.send({ to: '+12025550101', text: 'Your code is 4821' });
  });

  it('lists what was sent to one address, in the contract shape', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/dev/outbox?to=first%40example.com' });
    expect(response.statusCode).toBe(200);
    const body = outboxListSchema.parse(response.json());
    expect(body.items).toHaveLength(1);
    expect(body.items[0]).toMatchObject({ channel: 'email', to: 'first@example.com', subject: 'One', text: 'Hello one' });
  });

  it('finds SMS by E.164 number', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/dev/outbox?to=%2B12025550101' });
    expect(response.json().items[0]).toMatchObject({ channel: 'sms', text: 'Your code is 4821' });
  });

  it('lists everything newest first without a filter', async () => {
    const body = outboxListSchema.parse((await app.inject({ method: 'GET', url: '/api/v1/dev/outbox' })).json());
    expect(body.items.map((item) => item.to)).toEqual(['+12025550101', 'second@example.com', 'first@example.com']);
  });

  it('rejects a limit out of range', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/dev/outbox?limit=5000' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('validation_failed');
  });
});
