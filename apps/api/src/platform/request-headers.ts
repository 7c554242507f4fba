import type { FastifyRequest } from 'fastify';
import { idempotencyKeyHeader, stepUpHeader } from '@strongroom/contracts/payments.ts';
import { idempotencyKeyFrom } from './idempotency.ts';

/** A header's value, the first one if it was sent more than once. */
export function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The step-up challenge a request answers (its `X-Step-Up` header), if it names one. */
export function stepUpAnswerOf(request: FastifyRequest): string | undefined {
  return firstHeader(request.headers[stepUpHeader]);
}

/** The request's Idempotency-Key, checked: a money-moving POST without a valid one is refused (400 validation_failed). */
export function idempotencyKeyOf(request: FastifyRequest): string {
  return idempotencyKeyFrom(request.headers[idempotencyKeyHeader]);
}
