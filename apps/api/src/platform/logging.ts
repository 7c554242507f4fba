import { randomUUID } from 'node:crypto';
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

/**
 * Logs are structured (pino) and never hold a password, a code, a token, a session id or a card
 * number (ASVS 16.2.5). Bodies are not logged at all; headers only by name; URLs have their
 * secrets masked because some links carry a token in the path (email verification, reset).
 */
const secretPathPrefixes = ['/verification/', '/resetpassword/', '/api/v1/auth/verification/', '/api/v1/auth/password-reset/'];
const secretQueryKeys = /^(token|code|otp|password|secret|key|session|pan|card.*)$/i;
/** A long run of token-like characters anywhere in a path is masked too. */
const tokenLikeSegment = /[A-Za-z0-9_-]{32,}/g;
/** Thirteen to nineteen digits, possibly spaced: the shape of a card number. */
const cardNumberLike = /\b(?:\d[ -]?){12,18}\d\b/g;

export function maskUrl(url: string): string {
  const [pathPart = '', query] = url.split('?', 2);
  let path = pathPart;
  for (const prefix of secretPathPrefixes) {
    if (path.startsWith(prefix)) path = `${prefix}[redacted]`;
  }
  path = path.replace(tokenLikeSegment, '[redacted]').replace(cardNumberLike, '[redacted]');
  if (query === undefined) return path;
  const params = new URLSearchParams(query);
  const masked = [...params.entries()].map(
    ([key, value]) =>
      `${encodeURIComponent(key)}=${secretQueryKeys.test(key) ? '[redacted]' : encodeURIComponent(value.replace(cardNumberLike, '[redacted]'))}`,
  );
  return `${path}?${masked.join('&')}`;
}

const requestIdPattern = /^[A-Za-z0-9._-]{8,64}$/;

/** A well-formed `X-Request-Id` from a proxy is kept for tracing; anything else gets a fresh id. */
export function requestIdFor(request: { headers: Record<string, string | string[] | undefined> }): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && requestIdPattern.test(incoming) ? incoming : randomUUID();
}

export function loggerOptions(config: Pick<Config, 'logLevel'>): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["x-csrf-token"]',
        'res.headers["set-cookie"]',
        '*.password',
        '*.confirmPassword',
        '*.code',
        '*.token',
        '*.cardNumber',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: maskUrl(request.url),
          remoteAddress: request.ip,
        };
      },
    },
  };
}

/**
 * One line per request, when it is answered: its id, method, masked URL, address, status and time
 * ("request completed", or "request errored" with the error). Fastify's default writes a second
 * line when the request arrives, which doubled the logging work of every request for nothing a
 * bank reads: measured with bench:http, request logging was a fifth of the API's CPU per request
 * (docs/decisions/045). The arrival line is kept at debug level, for tracing a request that hangs.
 */
export class OneLinePerRequest extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'requestId' });
  }

  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
