import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createDepositRequestSchema,
  createTransferRequestSchema,
  createWithdrawalRequestSchema,
  idempotencyKeyHeader,
  payeeCheckRequestSchema,
  payeeCheckResponseSchema,
  paymentListSchema,
  paymentResponseSchema,
  stepUpHeader,
} from '@strongroom/contracts/payments.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { moneyRateLimit } from '../../platform/customer-rate-limits.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { AppError } from '../../platform/errors.ts';
import { idempotencyKeyFrom } from '../../platform/idempotency.ts';
import type { PaymentDependencies } from './dependencies.ts';
import { checkPayee, payeeCheckLimits } from './payee-check.ts';
import type { PaymentRequest } from './plan.ts';
import { presentPayment } from './presenter.ts';
import { customerPayment, customerPaymentsWithStatus, requestPayment } from './service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 422, 429);
const heldListLimit = 100;

export function paymentRoutes(dependencies: PaymentDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireCustomer(app, db);
    // Generous: a customer's app may send a burst of payments (docs/product.md: at least 20 at once).
    const paymentRateLimit = moneyRateLimit(dependencies.config.moneyRateLimitPerMinute);

    async function handle(request: FastifyRequest, reply: FastifyReply, paymentRequest: PaymentRequest) {
      const stepUpValue = request.headers[stepUpHeader];
      dependencies.stages?.observe('before_handler', reply.elapsedTime / 1_000);
      const result = await requestPayment(
        dependencies,
        { customerId: customerIdOf(request), ip: request.ip, userAgent: request.headers['user-agent'], requestId: request.id },
        paymentRequest,
        {
          idempotencyKey: idempotencyKeyFrom(request.headers[idempotencyKeyHeader]),
          stepUpChallengeId: Array.isArray(stepUpValue) ? stepUpValue[0] : stepUpValue,
        },
      );
      if (result.outcome === 'refused') throw new AppError(result.refusal.code, result.refusal.message);
      return reply.code(201).send({ transfer: result.payment });
    }

    // A frozen customer's payment is refused by requestPayment (account_frozen), which reads the
    // freeze with the payer's other facts in one statement.
    app.post(
      '/transfers',
      {
        config: { rateLimit: paymentRateLimit },
        schema: {
          tags: ['payments'],
          description: 'Header Idempotency-Key required; X-Step-Up after a step-up.',
          body: createTransferRequestSchema,
          response: { 201: paymentResponseSchema, ...errors },
        },
      },
      (request, reply) => handle(request, reply, { endpoint: 'transfers', body: request.body }),
    );
    app.post(
      '/deposits',
      {
        config: { rateLimit: paymentRateLimit },
        schema: { tags: ['payments'], body: createDepositRequestSchema, response: { 201: paymentResponseSchema, ...errors } },
      },
      (request, reply) => handle(request, reply, { endpoint: 'deposits', body: request.body }),
    );
    app.post(
      '/withdrawals',
      {
        config: { rateLimit: paymentRateLimit },
        schema: { tags: ['payments'], body: createWithdrawalRequestSchema, response: { 201: paymentResponseSchema, ...errors } },
      },
      (request, reply) => handle(request, reply, { endpoint: 'withdrawals', body: request.body }),
    );

    // Per address before anything else (onRequest); per customer once the session is known.
    const payeeChecksOfCustomer = app.createRateLimit({ ...payeeCheckLimits.perCustomer, keyGenerator: (request) => `payee-check:${customerIdOf(request)}` });
    app.post(
      '/transfers/payee-check',
      {
        config: { rateLimit: payeeCheckLimits.perAddress },
        preHandler: async (request) => {
          const limit = await payeeChecksOfCustomer(request);
          if (!limit.isAllowed && limit.isExceeded) {
            throw new AppError('rate_limited', 'Too many name checks. Please wait before checking another.', { retryAfterSeconds: limit.ttlInSeconds });
          }
        },
        schema: { tags: ['payments'], body: payeeCheckRequestSchema, response: { 200: payeeCheckResponseSchema, ...errors } },
      },
      async (request) => checkPayee(db, request.body.accountNumber, request.body.accountName),
    );

    app.get(
      '/transfers',
      { schema: { tags: ['payments'], querystring: z.object({ status: z.enum(['in_review', 'pending']) }), response: { 200: paymentListSchema, ...errors } } },
      async (request) => {
        const rows = await customerPaymentsWithStatus(db, customerIdOf(request), request.query.status, heldListLimit);
        return { items: rows.map(presentPayment) };
      },
    );

    app.get(
      '/transfers/:id',
      { schema: { tags: ['payments'], params: z.object({ id: z.string().max(64) }), response: { 200: paymentResponseSchema, ...errors } } },
      async (request) => {
        return { transfer: presentPayment(await customerPayment(db, customerIdOf(request), request.params.id)) };
      },
    );
  };
}
