import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '@strongroom/contracts/errors.ts';
import {
  loanApplicationRequestSchema,
  loanDetailResponseSchema,
  loanListResponseSchema,
  loanOfferResponseSchema,
  loanRepaymentRequestSchema,
  loanRepaymentResponseSchema,
  loanResponseSchema,
} from '@strongroom/contracts/loans.ts';
import { idempotencyKeyHeader } from '@strongroom/contracts/payments.ts';
import type { Config } from '../../config.ts';
import { refuseWhenFrozen } from '../../platform/account-freeze.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { moneyRateLimit } from '../../platform/customer-rate-limits.ts';
import { idempotencyKeyFrom } from '../../platform/idempotency.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { findCustomerById } from '../customers/service.ts';
import { scheduleCsv, schedulePdf } from './documents.ts';
import { earlyRepaymentRefusalAnswer, repayEarly } from './early-repayment.ts';
import { acceptLoanOffer, declineLoanOffer } from './offers.ts';
import { applyForLoan, customerLoanDetail, customerLoans, type LoanDependencies } from './service.ts';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  422: errorResponseSchema,
  429: errorResponseSchema,
};

/** The customer's loans (docs/product.md section 6 "Loans"). Someone else's loan answers 404 on every route, like a missing one. */
export function loanRoutes(
  dependencies: LoanDependencies & { config: Pick<Config, 'bankTimeZone' | 'bankName' | 'moneyRateLimitPerMinute'> },
): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireCustomer(app, db);
    const loanRateLimit = moneyRateLimit(dependencies.config.moneyRateLimitPerMinute);
    const meta = (request: { ip: string; headers: Record<string, string | string[] | undefined>; id: string }) => ({
      ip: request.ip,
      userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
      requestId: request.id,
    });

    app.post(
      '/loans',
      {
        config: { rateLimit: loanRateLimit },
        // A loan is money the bank would pay out: a frozen customer applies for none, as they move none.
        preHandler: refuseWhenFrozen(db),
        schema: {
          tags: ['loans'],
          description: 'Header Idempotency-Key required.',
          body: loanApplicationRequestSchema,
          response: { 201: loanResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const answer = await applyForLoan(
          dependencies,
          { customerId: customerIdOf(request), ...meta(request) },
          request.body,
          idempotencyKeyFrom(request.headers[idempotencyKeyHeader]),
        );
        return reply.code(answer.status).send(answer.body as z.infer<typeof loanResponseSchema>);
      },
    );

    app.get('/loans', { schema: { tags: ['loans'], response: { 200: loanListResponseSchema, ...errors } } }, async (request) =>
      customerLoans(db, customerIdOf(request)),
    );

    app.get('/loans/:id', { schema: { tags: ['loans'], params: idParams, response: { 200: loanDetailResponseSchema, ...errors } } }, async (request) =>
      customerLoanDetail(db, customerIdOf(request), request.params.id),
    );

    app.post(
      '/loans/:id/repayments',
      {
        config: { rateLimit: loanRateLimit },
        preHandler: refuseWhenFrozen(db),
        schema: {
          tags: ['loans'],
          description:
            'Header Idempotency-Key required. Pays the late amount first while an instalment is late, the rest principal early; more than is owed answers 422 loan_repayment_too_large.',
          params: idParams,
          body: loanRepaymentRequestSchema,
          response: { 201: loanRepaymentResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const answer = await repayEarly(
          dependencies,
          { customerId: customerIdOf(request), ...meta(request) },
          request.params.id,
          request.body,
          idempotencyKeyFrom(request.headers[idempotencyKeyHeader]),
        );
        const http = answer.outcome === 'refused' ? earlyRepaymentRefusalAnswer(answer.code) : answer;
        return reply.code(http.status).send(http.body as z.infer<typeof loanRepaymentResponseSchema>);
      },
    );

    app.post(
      '/loans/:id/accept',
      {
        config: { rateLimit: loanRateLimit },
        // Accepting pays money in: a frozen customer receives none, as they move none.
        preHandler: refuseWhenFrozen(db),
        schema: {
          tags: ['loans'],
          description:
            'Header Idempotency-Key required. Accepts a loan offer and pays it into checking (status active); a repeated key answers the same and pays once. 409 offer_expired after the offer window; 409 already_decided when already answered.',
          params: idParams,
          response: { 200: loanOfferResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const answer = await acceptLoanOffer(
          dependencies,
          { customerId: customerIdOf(request), ...meta(request) },
          request.params.id,
          idempotencyKeyFrom(request.headers[idempotencyKeyHeader]),
        );
        return reply.code(answer.status).send(answer.body as z.infer<typeof loanOfferResponseSchema>);
      },
    );

    app.post(
      '/loans/:id/decline',
      {
        config: { rateLimit: loanRateLimit },
        schema: {
          tags: ['loans'],
          description:
            'Declines a loan offer (status declined); nothing is paid. 409 offer_expired after the offer window; 409 already_decided when already answered.',
          params: idParams,
          response: { 200: loanOfferResponseSchema, ...errors },
        },
      },
      async (request) => declineLoanOffer(dependencies, { customerId: customerIdOf(request), ...meta(request) }, request.params.id),
    );

    const file = { 200: z.unknown().describe('The schedule file'), ...errors };
    app.get('/loans/:id/schedule.csv', { schema: { tags: ['loans'], params: idParams, response: file } }, async (request, reply) => {
      const detail = await customerLoanDetail(db, customerIdOf(request), request.params.id);
      return reply
        .type('text/csv; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="loan-schedule-${detail.loan.id}.csv"`)
        .send(scheduleCsv(detail));
    });

    app.get('/loans/:id/schedule.pdf', { schema: { tags: ['loans'], params: idParams, response: file } }, async (request, reply) => {
      const customerId = customerIdOf(request);
      const detail = await customerLoanDetail(db, customerId, request.params.id);
      const customer = await findCustomerById(db, customerId);
      const pdf = await schedulePdf(detail, {
        bankName: dependencies.config.bankName,
        customerName: customer ? `${customer.first_name} ${customer.last_name}` : '',
        generatedAt: new Date(),
      });
      return reply
        .type('application/pdf')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="loan-schedule-${detail.loan.id}.pdf"`)
        .send(pdf);
    });
  };
}
