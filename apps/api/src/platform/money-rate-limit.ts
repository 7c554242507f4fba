import type { FastifyRequest } from 'fastify';
import type { RateLimitOptions } from '@fastify/rate-limit';
import { customerIdOf } from './authenticate.ts';

/**
 * The limit on requests that move money or open a loan: per signed-in customer, not per address
 * (an office behind one NAT is many customers), counted once the session is known (preHandler, after
 * requireCustomer's preValidation). The allowance is an operator's setting,
 * MONEY_RATE_LIMIT_PER_MINUTE (PRODUCT.md section 6), never below the burst of 20 a customer's app
 * may send at once.
 */
export function moneyRateLimit(perMinute: number): RateLimitOptions {
  return {
    max: perMinute,
    timeWindow: '1 minute',
    hook: 'preHandler',
    keyGenerator: (request: FastifyRequest) => `money:${customerIdOf(request)}`,
  };
}
