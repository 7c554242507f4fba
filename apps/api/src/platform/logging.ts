import { randomUUID } from 'node:crypto';
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';
import { fromTrustedProxy, type TrustProxy } from './trusted-proxies.ts';

/**
 * Logs are structured (pino) and never hold a password, a code, a token, a session id or a card
 * number (ASVS 16.2.5). Bodies are not logged at all; headers only by name; URLs have their
 * secrets masked because some links carry a token in the path (email verification, reset).
 */
const secretPathPrefixes = ['/verification/', '/resetpassword/', '/api/v1/auth/verification/', '/api/v1/auth/password-reset/'];
/** request_uri: a pushed authorization request's one-time reference (docs/connected-apps.md). */
const secretQueryKeys = /^(token|code|otp|password|secret|key|session|pan|card.*|request_uri)$/i;
/**
 * What people search for is personal data: a name, an email or an account number typed into the
 * history search (`GET /transactions?q=`), the staff customer search (`GET /staff/customers?q=`) or
 * the audit filters (`GET /staff/audit?actor=&subject=`, and its CSV). Masked by name on every
 * path, not only on those routes, so that a path spelt another way (percent-encoded, a trailing
 * slash) that the router still matches cannot carry the term into the log.
 */
const searchQueryKeys = /^(q|actor|subject)$/i;
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
      `${encodeURIComponent(key)}=${secretQueryKeys.test(key) || searchQueryKeys.test(key) ? '[redacted]' : encodeURIComponent(value.replace(cardNumberLike, '[redacted]'))}`,
  );
  return `${path}?${masked.join('&')}`;
}

const requestIdPattern = /^[A-Za-z0-9._-]{8,64}$/;

/** What Fastify hands `genReqId`: the raw request, before it works out the client's address. */
interface RawRequest {
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string };
}

/**
 * Fastify's `genReqId`. A well-formed `X-Request-Id` is kept for tracing only when the socket's
 * peer is a proxy the operator trusts (TRUST_PROXY, decision 020): a proxy writes it and passes it
 * on, while any other client could write what the logs and the audit rows call its request, to
 * hide among or impersonate others' (issue 30, item 12; decision 049). Anything else gets a fresh id.
 */
export function requestIdFor(trustProxy: TrustProxy | false): (request: RawRequest) => string {
  return (request) => {
    const incoming = request.headers['x-request-id'];
    const believed = typeof incoming === 'string' && requestIdPattern.test(incoming) && fromTrustedProxy(trustProxy, request.socket.remoteAddress);
    return believed ? incoming : randomUUID();
  };
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
