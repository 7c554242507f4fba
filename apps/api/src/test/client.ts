import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Database } from '../db/database.ts';
import { createSession } from '../platform/session.ts';

/**
 * Calls the app as one browser would: its cookies kept between calls, and the CSRF header sent
 * with every unsafe method, as the web client does.
 */
let nextAddress = 1;

export class TestBrowser {
  readonly cookies: Record<string, string> = {};
  /** Each browser comes from its own documentation-range address, so per-IP limits apply per browser. */
  readonly ip = `198.51.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;
  constructor(private readonly app: FastifyInstance) {}

  async request(options: InjectOptions & { method: string; url: string }) {
    const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(options.method.toUpperCase());
    const response = await this.app.inject({
      remoteAddress: this.ip,
      ...options,
      cookies: { ...this.cookies, ...(options.cookies as Record<string, string> | undefined) },
      headers: { ...(unsafe && this.csrfFor(options.url) ? { 'x-csrf-token': this.csrfFor(options.url) } : {}), ...options.headers },
    });
    for (const cookie of response.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const cleared = cookie.value === '' || cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() < Date.now());
      if (cleared) delete this.cookies[cookie.name];
      else this.cookies[cookie.name] = cookie.value;
    }
    return response;
  }

  /** Staff routes check the staff session's token, every other route the customer's (D16). */
  private csrfFor(url: string): string | undefined {
    return url.startsWith('/api/v1/staff/') ? this.cookies.staff_csrf : this.cookies.csrf;
  }

  get(url: string) {
    return this.request({ method: 'GET', url });
  }

  post(url: string, payload?: object) {
    return this.request({ method: 'POST', url, payload: payload ?? {} });
  }

  put(url: string, payload?: object) {
    return this.request({ method: 'PUT', url, payload: payload ?? {} });
  }

  /** Signs this browser in as `customerId` without going through the login form. */
  async signInAs(db: Database, customerId: string): Promise<this> {
    const { sessionId } = await createSession(db, { realm: 'customer', subjectId: customerId });
    this.cookies.session = sessionId;
    this.cookies.csrf = this.app.csrfTokenFor(sessionId);
    return this;
  }

  /** Signs this browser in to the back office as `staffId` without the sign-in form (no TOTP). */
  async signInAsStaff(db: Database, staffId: string): Promise<this> {
    const { sessionId } = await createSession(db, { realm: 'staff', subjectId: staffId });
    this.cookies.staff_session = sessionId;
    this.cookies.staff_csrf = this.app.csrfTokenFor(sessionId);
    return this;
  }
}

/** The newest outbox message to an address; its text holds links and codes. */
export async function lastMessageTo(db: Database, to: string): Promise<{ subject: string; text: string } | undefined> {
  const [row] = await db.query<{ subject: string; text_body: string }>(
    'SELECT subject, text_body FROM outbox_messages WHERE lower(to_address) = lower($1) ORDER BY sequence DESC LIMIT 1',
    [to],
  );
  return row && { subject: row.subject, text: row.text_body };
}

export function tokenFromLink(text: string, path: string): string {
  const match = new RegExp(`${path}/([A-Za-z0-9_-]+)`).exec(text);
  if (!match?.[1]) throw new Error(`no ${path} link in: ${text}`);
  return match[1];
}
