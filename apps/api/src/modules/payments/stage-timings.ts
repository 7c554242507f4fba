import { Histogram } from 'prom-client';

/**
 * Where a money request's time goes, for `/metrics` (issue 16: per-stage timings), in the order a
 * payment passes them:
 * - `before_handler`: from its arrival to its handler: session, CSRF, rate limits, validation;
 * - `reads`: the handler's reads before the commit: the payer, its key's earlier use, the plan;
 * - `queued`: waiting for a commit group to start (commit-group.ts);
 * - `group`: its group's transaction, from BEGIN to COMMIT, retries included.
 * What follows (the answer's JSON) is the rest of http_request_duration_seconds.
 */
export const paymentStages = ['before_handler', 'reads', 'queued', 'group'] as const;
export type PaymentStage = (typeof paymentStages)[number];

export interface PaymentStageTimer {
  observe(stage: PaymentStage, seconds: number): void;
}

/** The timer, and its histogram for registerMetrics to add to the registry `/metrics` answers from. */
export function createPaymentStageTimer(): PaymentStageTimer & { metric: Histogram<'stage'> } {
  const metric = new Histogram({
    name: 'payment_stage_seconds',
    help: 'Time a money request spends in each stage: before_handler, reads, queued, group',
    labelNames: ['stage'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [],
  });
  return {
    metric,
    observe(stage, seconds) {
      metric.observe({ stage }, seconds);
    },
  };
}
