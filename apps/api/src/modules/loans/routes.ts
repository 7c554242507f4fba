import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  loanApplicationRequestSchema,
  loanDetailResponseSchema,
  loanListResponseSchema,
  loanOfferResponseSchema,
  loanRepaymentRequestSchema,
  loanRepaymentResponseSchema,
  loanResponseSchema,
} from '@strongroom/contracts/loans.ts';
import type { Config } from '../../config.ts';
import { refuseWhenFrozen } from '../../platform/account-freeze.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { moneyRateLimit } from '../../platform/customer-rate-limits.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { customerActorOf } from '../../platform/request-actor.ts';
import { idempotencyKeyOf } from '../../platform/request-headers.ts';
import { findCustomerById } from '../customers/service.ts';
import { scheduleCsv, schedulePdf } from './documents.ts';
import { earlyRepaymentRefusalAnswer, repayEarly } from './early-repayment.ts';
import { acceptLoanOffer, declineLoanOffer } from './offers.ts';
import { applyForLoan, customerLoanDetail, customerLoans, type LoanDependencies } from './service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 422, 429);

/**
 * The status of a loans service's answer, fresh or replayed from its idempotency key: the route's
 * success status or one of `errors` (the service types it as a number).
 */
type AnswerStatus<Success extends 200 | 201> = Success | keyof typeof errors;

/** The app a plugin of these routes registers on, with the zod type provider. */
type RouteApp = Parameters<FastifyPluginAsyncZod>[0];

type LoanRouteDependencies = LoanDependencies & { config: Pick<Config, 'bankTimeZone' | 'bankName' | 'moneyRateLimitPerMinute'> };

/** Applying, repaying, and answering an offer: each under the money rate limit, each idempotent where money moves. */
function loanMoneyRoutes(app: RouteApp, dependencies: LoanRouteDependencies): void {
  const { db } = dependencies;
  const loanRateLimit = moneyRateLimit(dependencies.config.moneyRateLimitPerMinute);
  // Applying, repaying and accepting move money (a loan is money the bank would pay out; accepting
  // pays money in): a frozen customer does none of them, as they move none.
  const movesMoney = { config: { rateLimit: loanRateLimit }, preHandler: refuseWhenFrozen(db) };
  app.post(
    '/loans',
    {
      ...movesMoney,
      schema: {
        tags: ['loans'],
        description: 'Header Idempotency-Key required.',
        body: loanApplicationRequestSchema,
        response: { 201: loanResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const answer = await applyForLoan(dependencies, customerActorOf(request), request.body, idempotencyKeyOf(request));
      return reply.code(answer.status as AnswerStatus<201>).send(answer.body as z.infer<typeof loanResponseSchema>);
    },
  );

  app.post(
    '/loans/:id/repayments',
    {
      ...movesMoney,
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
      const answer = await repayEarly(dependencies, customerActorOf(request), request.params.id, request.body, idempotencyKeyOf(request));
      const http = answer.outcome === 'refused' ? earlyRepaymentRefusalAnswer(answer.code) : answer;
      return reply.code(http.status as AnswerStatus<201>).send(http.body as z.infer<typeof loanRepaymentResponseSchema>);
    },
  );

  app.post(
    '/loans/:id/accept',
    {
      ...movesMoney,
      schema: {
        tags: ['loans'],
        description:
          'Header Idempotency-Key required. Accepts a loan offer and pays it into checking (status active); a repeated key answers the same and pays once. 409 offer_expired after the offer window; 409 already_decided when already answered.',
        params: idParams,
        response: { 200: loanOfferResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const answer = await acceptLoanOffer(dependencies, customerActorOf(request), request.params.id, idempotencyKeyOf(request));
      return reply.code(answer.status as AnswerStatus<200>).send(answer.body as z.infer<typeof loanOfferResponseSchema>);
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
    async (request) => declineLoanOffer(dependencies, customerActorOf(request), request.params.id),
  );
}

/** The customer's loans, one loan, and its schedule as CSV or PDF. */
function loanReadRoutes(app: RouteApp, dependencies: LoanRouteDependencies): void {
  const { db } = dependencies;
  app.get('/loans', { schema: { tags: ['loans'], response: { 200: loanListResponseSchema, ...errors } } }, async (request) =>
    customerLoans(db, customerIdOf(request)),
  );

  app.get('/loans/:id', { schema: { tags: ['loans'], params: idParams, response: { 200: loanDetailResponseSchema, ...errors } } }, async (request) =>
    customerLoanDetail(db, customerIdOf(request), request.params.id),
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
}

/** The customer's loans (docs/product.md section 6 "Loans"). Someone else's loan answers 404 on every route, like a missing one. */
export function loanRoutes(dependencies: LoanRouteDependencies): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, dependencies.db);
    loanMoneyRoutes(app, dependencies);
    loanReadRoutes(app, dependencies);
  };
}
