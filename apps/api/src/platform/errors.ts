import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorResponse } from '@strongroom/contracts/errors.ts';
import { errorStatusByCode, type ErrorCode } from '@strongroom/contracts/http.ts';

/**
 * An error the API answers on purpose. Anything else thrown is a defect: it is logged with its
 * stack and the client gets `internal_error` with the request id, never the stack.
 */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: { fields?: Record<string, string>; challengeId?: string; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = errorStatusByCode[code];
  }
}

export function notFound(message = 'Not found'): AppError {
  return new AppError('not_found', message);
}

function errorBody(request: FastifyRequest, code: ErrorCode, message: string, extra: Partial<ErrorResponse['error']> = {}): ErrorResponse {
  return { error: { code, message, ...extra, requestId: request.id } };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  if (error.details.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.details.retryAfterSeconds));
  return reply.status(error.statusCode).send(
    errorBody(request, error.code, error.message, { fields: error.details.fields, challengeId: error.details.challengeId }),
  );
}

/** `/email` -> `email`, `/items/0/name` -> `items.0.name`; the whole body is `_`. */
function fieldName(instancePath: string): string {
  const name = instancePath.replace(/^\//, '').replaceAll('/', '.');
  return name === '' ? '_' : name;
}

const statusToCode: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'service_unavailable',
};

const fastifyMessages: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty but declared as JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'This content type is not accepted',
};

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) return sendError(request, reply, error);

    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const name = fieldName(issue.instancePath);
        fields[name] ??= issue.message ?? 'is not valid';
      }
      return sendError(request, reply, new AppError('validation_failed', 'Some fields are not valid', { fields }));
    }

    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, route: request.routeOptions.url }, 'response did not match its schema');
      return sendError(request, reply, new AppError('internal_error', 'Something went wrong on our side'));
    }

    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = statusToCode[status] ?? 'bad_request';
      const message = fastifyMessages[error.code] ?? (code === 'rate_limited' ? 'Too many requests; try again later' : 'The request is not valid');
      if (code === 'rate_limited') {
        const retryAfter = reply.getHeader('retry-after');
        return sendError(request, reply, new AppError(code, message, { retryAfterSeconds: retryAfter === undefined ? undefined : Number(retryAfter) }));
      }
      return reply.status(status).send(errorBody(request, code, message));
    }

    request.log.error({ err: error }, 'unhandled error');
    return sendError(request, reply, new AppError('internal_error', 'Something went wrong on our side'));
  });
}
