import type { FastifyRequest } from 'fastify';

/** Over HTTPS the session cookie takes the `__Host-` prefix: no Domain, Path=/, Secure (decision 019). */
export function sessionCookieName(request: FastifyRequest): string {
  return request.protocol === 'https' ? '__Host-session' : 'session';
}

/** The long-lived cookie that tells a browser the customer signed in from before (no Secure without HTTPS). */
export function deviceCookieName(request: FastifyRequest): string {
  return request.protocol === 'https' ? '__Host-device' : 'device';
}
