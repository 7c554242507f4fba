import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import { isLoopbackRequest } from './loopback.ts';

export interface MetricsOptions {
  /** A bearer token that opens `/metrics` from anywhere; without it, loopback only. */
  token?: string;
  /** Read at scrape time, so the gauge is never stale. */
  jobQueueDepth: () => Promise<number>;
  /** Pages listening for live events on this process (each process counts its own). */
  liveEventSubscribers: () => number;
  /** Metrics made elsewhere (the payment stages) that `/metrics` answers too. */
  more?: readonly Metric[];
}

function hasToken(request: FastifyRequest, token: string | undefined): boolean {
  if (!token) return false;
  const header = request.headers.authorization ?? '';
  const expected = Buffer.from(`Bearer ${token}`);
  const actual = Buffer.from(header);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Prometheus metrics: request rate and errors (counters), latency (histogram), the job queue's
 * depth and this process's open live-event streams. `/metrics` answers only on loopback or with
 * the token; anyone else gets a plain 404.
 */
export function registerMetrics(app: FastifyInstance, options: MetricsOptions): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered', labelNames, registers: [registry] });
  const errors = new Counter({ name: 'http_errors_total', help: 'HTTP answers with status 500 or above', labelNames, registers: [registry] });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  new Gauge({
    name: 'job_queue_depth',
    help: 'Background jobs waiting to run',
    registers: [registry],
    async collect() {
      this.set(await options.jobQueueDepth());
    },
  });

  new Gauge({
    name: 'live_event_subscribers',
    help: 'Open live-event streams on this process',
    registers: [registry],
    collect() {
      this.set(options.liveEventSubscribers());
    },
  });

  for (const metric of options.more ?? []) registry.registerMetric(metric);

  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, not the URL, keeps label cardinality bounded and secrets out of metrics.
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
    requests.inc(labels);
    if (reply.statusCode >= 500) errors.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1_000);
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!isLoopbackRequest(request) && !hasToken(request, options.token)) {
      return reply.callNotFound();
    }
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
  return registry;
}
