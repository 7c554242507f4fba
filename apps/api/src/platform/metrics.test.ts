import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test/databases.ts';
import { testAppSuite } from '../test/suite.ts';
import { insertJob } from './jobs/job-repository.ts';

const metricsToken = 'metrics-token-for-tests-0123456789';

describeEachDatabase('Prometheus metrics', (database) => {
  let app: FastifyInstance;
  testAppSuite(database, (built) => ({ app } = built), { environment: { METRICS_TOKEN: metricsToken } });

  it('counts requests by route pattern, times them and reports the job queue depth on loopback', async () => {
    await app.inject({ method: 'GET', url: '/api/v1/health' });
    await insertJob(database(), { kind: 'metrics-probe', runAt: new Date(Date.now() + 3_600_000) });
    const response = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(/http_requests_total\{method="GET",route="\/api\/v1\/health",status="200"\} \d+/);
    expect(response.body).toContain('http_request_duration_seconds_bucket');
    expect(response.body).toContain('http_errors_total');
    expect(response.body).toMatch(/job_queue_depth [1-9]/);
  });

  it("reports this process's open live-event streams", async () => {
    const scrape = async () => (await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).body;
    expect(await scrape()).toMatch(/^live_event_subscribers 0$/m);
    const stop = app.services.liveEvents.subscribe('a-customer', () => undefined);
    expect(await scrape()).toMatch(/^live_event_subscribers 1$/m);
    stop();
  });

  it('answers 404 to anyone not on loopback without the token', async () => {
    const response = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('http_requests_total');
    const wrongToken = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9', headers: { authorization: 'Bearer wrong' } });
    expect(wrongToken.statusCode).toBe(404);
  });

  it('answers anyone who presents the token', async () => {
    const response = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9', headers: { authorization: `Bearer ${metricsToken}` } });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('http_requests_total');
  });
});
