import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorResponse } from '@strongroom/contracts/errors.ts';
import { errorStatusByCode, type ErrorCode } from '@strongroom/contracts/http.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { applySecurityHeaders, headersFor } from './security-headers.ts';

const internalErrorMessage = 'Something went wrong on our side';
const unavailableMessage = 'The bank is briefly unavailable. Nothing was lost; please try again in a moment.';
/** What a client waits before trying again while the database is away. */
export const unavailableRetryAfterSeconds = 2;

/**
 * An error the API answers on purpose. Anything else thrown is a defect: it is logged with its
 * stack and the client gets `internal_error` with the request id, never the stack.
 */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: {
      fields?: Record<string, string>;
      challengeId?: string;
      /** With `step_up_required`: how the customer may answer, best first. */
      methods?: ('passkey' | 'totp' | 'sms')[];
      retryAfterSeconds?: number;
    } = {},
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
  return reply
    .status(error.statusCode)
    .send(
      errorBody(request, error.code, error.message, { fields: error.details.fields, challengeId: error.details.challengeId, methods: error.details.methods }),
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
      return sendError(request, reply, new AppError('internal_error', internalErrorMessage));
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

    // The database is away (stopped, restarting, unreachable): not a defect, and the pool
    // reconnects by itself. A payment whose COMMIT was cut has an unknown outcome; its
    // Idempotency-Key gives the true answer on a replay (platform/idempotency.ts).
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ code: (error as { code?: unknown }).code, reason: error.message }, 'database unavailable');
      return sendError(request, reply, new AppError('service_unavailable', unavailableMessage, { retryAfterSeconds: unavailableRetryAfterSeconds }));
    }

    request.log.error({ err: error }, 'unhandled error');
    return sendError(request, reply, new AppError('internal_error', internalErrorMessage));
  });
}

/** Errors the router meets before any hook runs; see answerFrameworkError. */
const frameworkErrorAnswers: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_BAD_URL: { code: 'bad_request', message: 'The address is not valid' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'bad_request', message: 'The address is too long' },
};

/**
 * Fastify's `frameworkErrors`: a URL that cannot be decoded (`/transactions/%ZZ`) is answered by
 * the router before any hook or error handler runs, so this answer sets by itself what the hooks
 * would: the error shape with the request id, the security headers and `no-store`.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const answer = frameworkErrorAnswers[error.code];
  if (!answer) request.log.error({ err: error }, 'framework error');
  const { code, message } = answer ?? { code: 'internal_error' as const, message: internalErrorMessage };
  applySecurityHeaders(request, reply);
  void reply
    .status(errorStatusByCode[code])
    .header('x-request-id', request.id)
    .header('content-type', 'application/json; charset=utf-8')
    .send(JSON.stringify(errorBody(request, code, message)));
}

const clientErrorMessages: Record<string, string> = {
  HPE_HEADER_OVERFLOW: 'The request headers are too large',
  ERR_HTTP_REQUEST_TIMEOUT: 'The request took too long to arrive',
};

/**
 * Fastify's `clientErrorHandler`: bytes Node cannot parse as HTTP never become a request, so the
 * answer is written on the socket by hand, with the same shape, a new request id (also in the log
 * line) and the same headers as every other error. 400 for all of them: the client is at fault.
 */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const requestId = randomUUID();
  const message = clientErrorMessages[error.code ?? ''] ?? 'The request is not valid HTTP';
  this.log.debug({ requestId, code: error.code }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify({ error: { code: 'bad_request', message, requestId } } satisfies ErrorResponse);
    const headers = {
      ...headersFor('/api/', 'encrypted' in socket && socket.encrypted === true),
      'cache-control': 'no-store',
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'x-request-id': requestId,
      connection: 'close',
    };
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`HTTP/1.1 400 Bad Request\r\n${head}\r\n${body}`);
  }
  socket.destroy(error);
}

/**
 * While the server shuts down (SIGTERM), requests that still arrive on open connections are
 * answered 503 in the error shape, through the hooks like any other answer, instead of Fastify's
 * own `return503OnClosing` body, which carries neither the shape nor the headers.
 */
export function answerWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    throw new AppError('service_unavailable', 'The server is restarting; try again in a moment');
  });
}
