import type { FastifyInstance } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { ResponseSerializationError, validatorCompiler } from 'fastify-type-provider-zod';
import { ZodType } from 'zod';

/**
 * Every answer is checked against its contract's schema and keeps only the fields the schema names
 * (nothing a handler added by mistake leaves the server), then written as JSON. The schema is read
 * forward, as a request's is (`safeParse`), not backward (`safeEncode`, the type provider's own
 * compiler): the contracts have no codecs, so both give the same answer, and reading backward
 * runs every field with checks twice (a first pass without them, then with them). Measured with
 * `bench:http`'s reads: zod's share of the API's CPU (decision 081).
 */
export const responseSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema, method, url }) => {
  if (!(schema instanceof ZodType)) throw new Error(`the answer of ${method} ${url} has no zod schema`);
  return (data: unknown) => {
    const result = schema.safeParse(data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};

/** Requests validated by their contract's zod schemas (the type provider's compiler), answers by the compiler above. */
export function checkRequestsAndAnswersByContract(app: FastifyInstance): void {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
}
