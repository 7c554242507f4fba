import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const oneYearSeconds = 31_536_000;

const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "manifest-src 'self'",
  "worker-src 'self'",
].join(';');

/**
 * The security headers of every answer (ASVS 3.4), written out rather than assembled by a plugin
 * at request time, because some answers never reach a plugin: a URL the router cannot decode, or
 * a request line Node cannot parse, is answered before any hook runs (errors.ts), and must carry
 * the same headers. A CSP without inline scripts, no framing, no sniffing, no referrer (reset and
 * verification links carry tokens), and the cross-origin isolation headers.
 */
export const securityHeaders: Readonly<Record<string, string>> = {
  'content-security-policy': contentSecurityPolicy,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  // The legacy XSS auditor did more harm than good; 0 turns it off in the browsers that had one.
  'x-xss-protection': '0',
};

function isPrivatePath(path: string | undefined): boolean {
  return path !== undefined && (path.startsWith('/api/') || path.startsWith('/internal/') || path === '/metrics');
}

/**
 * An answer of the API, the ops door or the metrics, however the client spelled its path: the
 * router decodes `/%61pi/v1/me` to the route `/api/v1/me`, whose answer is just as private, so the
 * route it matched counts as well as the URL (issue 30, item 3). The URL still counts for a path
 * no API route matched, which the web app's catch-all takes.
 */
function isPrivateRequest(request: FastifyRequest): boolean {
  return isPrivatePath(request.url) || isPrivatePath(request.routeOptions.url);
}

/**
 * Every header an answer to this URL carries beside the fixed ones: HSTS only over HTTPS (on plain
 * http it is meaningless), `no-store` on every API answer (14.3.2).
 */
export function headersFor(url: string, overHttps: boolean, privateAnswer = isPrivatePath(url)): Record<string, string> {
  return {
    ...securityHeaders,
    ...(overHttps ? { 'strict-transport-security': `max-age=${oneYearSeconds}; includeSubDomains` } : {}),
    ...(privateAnswer ? { 'cache-control': 'no-store' } : {}),
  };
}

/**
 * Written on the raw response, as helmet does: they then also go out with answers that a handler
 * streams by hand (server-sent events), where Fastify's own header list is never flushed.
 */
export function applySecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  const headers = headersFor(request.url, request.protocol === 'https', isPrivateRequest(request));
  for (const [name, value] of Object.entries(headers)) reply.raw.setHeader(name, value);
}

/** Set first thing on every request, so an answer from any later hook or handler carries them. */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    applySecurityHeaders(request, reply);
  });
  // No handler may make an API answer cacheable.
  app.addHook('onSend', async (request, reply, payload) => {
    if (isPrivateRequest(request)) reply.header('cache-control', 'no-store');
    return payload;
  });
}
