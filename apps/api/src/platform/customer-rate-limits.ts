import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimitOptions } from '@fastify/rate-limit';
import { customerIdOf } from './authenticate.ts';
import { AppError } from './errors.ts';

/**
 * A limit on a signed-in customer's own allowance: counted per customer, not per address (an
 * office behind one NAT is many customers; one customer on a phone changes address), once the
 * session is known (preHandler, after requireCustomer's preValidation). Routes before a session
 * (sign-in, sign-up, codes, the contact form) keep the plugin's default key, the client's address.
 */
export function perCustomerRateLimit(limit: { max: number; timeWindow: string }): RateLimitOptions {
  return {
    ...limit,
    hook: 'preHandler',
    keyGenerator: (request: FastifyRequest) => `customer:${customerIdOf(request)}`,
  };
}

/**
 * A preHandler that allows a signed-in customer `limit.max` tries of one action (`name`) in
 * `limit.timeWindow`, counted per customer whatever their address, and refuses the next with 429
 * `rate_limited`, `message` and the seconds to wait. It runs after requireCustomer (preValidation),
 * which knows who asks; `app` is the plugin the routes are registered in.
 */
export function perCustomerTries(
  app: Pick<FastifyInstance, 'createRateLimit'>,
  name: string,
  limit: { max: number; timeWindow: string },
  message: string,
): (request: FastifyRequest) => Promise<void> {
  const check = app.createRateLimit({ ...limit, keyGenerator: (request) => `${name}:${customerIdOf(request)}` });
  return async (request) => {
    const state = await check(request);
    if (!state.isAllowed && state.isExceeded) throw new AppError('rate_limited', message, { retryAfterSeconds: state.ttlInSeconds });
  };
}

/** The group that makes every money route one allowance (the store scopes counters by group). */
export const moneyRateLimitGroup = 'money';

/**
 * The limit on requests that move money or open a loan: one allowance per signed-in customer
 * shared by transfers, deposits, withdrawals and loan applications ("money requests per customer
 * per minute"), so adding a money route does not add to what a customer may send. The allowance is
 * an operator's setting, MONEY_RATE_LIMIT_PER_MINUTE (docs/product.md section 6), never below the burst
 * of 20 a customer's app may send at once. See docs/decisions/042-rate-limits-in-the-database.md.
 */
export function moneyRateLimit(perMinute: number): RateLimitOptions {
  return {
    max: perMinute,
    timeWindow: '1 minute',
    hook: 'preHandler',
    groupId: moneyRateLimitGroup,
    keyGenerator: (request: FastifyRequest) => `money:${customerIdOf(request)}`,
  };
}
