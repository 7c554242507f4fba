import type { FastifyRequest } from 'fastify';

/** Over HTTPS the session cookie takes the `__Host-` prefix: no Domain, Path=/, Secure (decision 019). */
export function sessionCookieName(request: FastifyRequest): string {
  return request.protocol === 'https' ? '__Host-session' : 'session';
}

/** A staff session has its own cookie (D16): a customer's cookie never opens a staff route, nor the reverse. */
export function staffSessionCookieName(request: FastifyRequest): string {
  return request.protocol === 'https' ? '__Host-staff_session' : 'staff_session';
}

export function sessionCookieNameFor(request: FastifyRequest, realm: 'customer' | 'staff'): string {
  return realm === 'staff' ? staffSessionCookieName(request) : sessionCookieName(request);
}

/** Staff routes live under this prefix; the CSRF check reads the staff cookie there. */
export const staffApiPrefix = '/api/v1/staff/';

/**
 * The realm of a route as the router matched it (`request.routeOptions.url`), never of the URL as
 * sent: the router decodes `/api/v1/%73taff/...` to a staff route, which a test of the raw URL
 * would take for a customer's (issue 30, item 3).
 */
export function realmOfRoute(route: string): 'customer' | 'staff' {
  return route.startsWith(staffApiPrefix) ? 'staff' : 'customer';
}

/** The long-lived cookie that tells a browser the customer signed in from before (no Secure without HTTPS). */
export function deviceCookieName(request: FastifyRequest): string {
  return request.protocol === 'https' ? '__Host-device' : 'device';
}

/**
 * The primary's WAL position after the customer's last write, so that their next statement, history
 * page or export is read from a replica only once it has replayed that write (platform/read-your-writes.ts).
 */
export function writePositionCookieName(request: FastifyRequest): string {
  return request.protocol === 'https' ? '__Host-write_position' : 'write_position';
}
