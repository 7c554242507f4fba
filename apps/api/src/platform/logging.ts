import { randomUUID } from 'node:crypto';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
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
