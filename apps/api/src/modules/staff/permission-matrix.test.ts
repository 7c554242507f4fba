import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { roleHas, staffRoles, type StaffPermission } from '@strongroom/contracts/staff.ts';
import type { Config } from '../../config.ts';
import { buildTestApp } from '../../test/app.ts';
import { TestBrowser } from '../../test/client.ts';
import { insertBareCustomer } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { staffBrowser } from '../../test/staff.ts';

/**
 * Every staff route and the permission it needs (PRODUCT.md section 6), written out: the test
 * below fails when a staff route exists that this table does not name, so a new route cannot
 * ship without its line here. `signed-in` routes are open to every staff member; sign-in and
 * sign-out need no session at all.
 */
const routePermissions: Record<string, StaffPermission | 'signed-in' | 'public'> = {
  'POST /api/v1/staff/auth/login': 'public',
  'POST /api/v1/staff/auth/logout': 'public',
  'GET /api/v1/staff/me': 'signed-in',
  'POST /api/v1/staff/me/password': 'signed-in',
  'GET /api/v1/staff/members': 'staff.manage',
  'POST /api/v1/staff/members': 'staff.manage',
  'POST /api/v1/staff/members/{id}/disable': 'staff.manage',
  'POST /api/v1/staff/members/{id}/enable': 'staff.manage',
  'POST /api/v1/staff/members/{id}/role': 'staff.manage',
  'POST /api/v1/staff/members/{id}/reset-second-factor': 'staff.manage',
  'GET /api/v1/staff/identity-reviews': 'identity.decide',
  'GET /api/v1/staff/identity-reviews/{id}': 'identity.decide',
  'GET /api/v1/staff/identity-reviews/{id}/document': 'identity.decide',
  'GET /api/v1/staff/identity-reviews/{id}/profile-photo': 'identity.decide',
  'POST /api/v1/staff/identity-reviews/{id}/id-number': 'identity.decide',
  'POST /api/v1/staff/identity-reviews/{id}/decision': 'identity.decide',
  'GET /api/v1/staff/held-transfers': 'transfers.review',
  'GET /api/v1/staff/held-transfers/{id}': 'transfers.review',
  'POST /api/v1/staff/held-transfers/{id}/decision': 'transfers.review',
  'GET /api/v1/staff/messages': 'messages.reply',
  'POST /api/v1/staff/messages/{id}/reply': 'messages.reply',
  'GET /api/v1/staff/payments': 'payments.settle',
  'GET /api/v1/staff/payments/ach-file': 'payments.settle',
  'GET /api/v1/staff/customers': 'customers.read',
  'GET /api/v1/staff/customers/{id}': 'customers.read',
  'POST /api/v1/staff/customers/{id}/freeze': 'customers.freeze',
  'POST /api/v1/staff/customers/{id}/unfreeze': 'customers.freeze',
  'POST /api/v1/staff/customers/{id}/sessions/end-all': 'customers.freeze',
  'POST /api/v1/staff/customers/{id}/sessions/{sessionId}/end': 'customers.freeze',
  'GET /api/v1/staff/settings': 'signed-in',
  'PUT /api/v1/staff/settings': 'settings.edit',
  'GET /api/v1/staff/audit': 'audit.read',
  'GET /api/v1/staff/audit.csv': 'audit.read',
  'GET /api/v1/staff/cards': 'cards.decide',
  'POST /api/v1/staff/cards/{id}/decision': 'cards.decide',
  'POST /api/v1/staff/card-simulator/authorizations': 'payments.settle',
  'POST /api/v1/staff/card-simulator/authorizations/{id}/clear': 'payments.settle',
  'POST /api/v1/staff/card-simulator/authorizations/{id}/reverse': 'payments.settle',
  'GET /api/v1/staff/card-simulator/authorizations': 'payments.settle',
  'GET /api/v1/staff/loans': 'loans.decide',
  'POST /api/v1/staff/loans/{id}/decision': 'loans.decide',
};

const unknownId = '00000000-0000-4000-8000-0000000000aa';

function concreteUrl(path: string): string {
  return path.replace(/\{[^}]+\}/g, unknownId);
}

describeEachDatabase('every staff route checks its permission, both ways', (database) => {
  let app: FastifyInstance;
  let config: Config;
  let staffRoutes: string[];
  beforeAll(async () => {
    ({ app, config } = await buildTestApp(database()));
    const document = app.swagger() as { paths: Record<string, Record<string, unknown>> };
    staffRoutes = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/v1/staff/'))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
  });

  it('names every staff route the server has, and no route it lacks', () => {
    expect(staffRoutes).toEqual(Object.keys(routePermissions).sort());
  });

  it('a customer session is unauthenticated on every staff route that needs a session', async () => {
    const customer = await new TestBrowser(app).signInAs(database(), await insertBareCustomer(database()));
    for (const [route, permission] of Object.entries(routePermissions)) {
      if (permission === 'public') continue;
      const [method = 'GET', path = ''] = route.split(' ');
      const response = await customer.request({ method, url: concreteUrl(path), ...(method === 'GET' ? {} : { payload: {} }) });
      expect(response.statusCode, route).toBe(401);
    }
  });

  it('a staff session is unauthenticated on every customer route that needs a session', async () => {
    const document = app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const customerRoutes = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/v1/') && !path.startsWith('/api/v1/staff/') && !path.startsWith('/api/v1/dev/'))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => [method.toUpperCase(), concreteUrl(path)] as const));
    const { browser: staff } = await staffBrowser(app, database(), config, 'admin');
    let guarded = 0;
    for (const [method, url] of customerRoutes) {
      const payload = method === 'GET' ? {} : { payload: {} };
      // A route that answers 401 to nobody at all needs a customer session: a staff session must not open it.
      const anonymous = await app.inject({ method, url, ...payload });
      if (anonymous.statusCode !== 401) continue;
      guarded += 1;
      const response = await staff.request({ method, url, ...payload });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
    expect(guarded).toBeGreaterThanOrEqual(15);
  });

  it.each(staffRoles)('role %s: a route it may use does not answer 403; every other answers 403 forbidden, audited', async (role) => {
    const { browser, member } = await staffBrowser(app, database(), config, role);
    let refused = 0;
    for (const [route, permission] of Object.entries(routePermissions)) {
      if (permission === 'public') continue;
      const [method = 'GET', path = ''] = route.split(' ');
      // An empty body: a permitted route may answer 400 (validation) or 404 (the unknown id), never 403 or 401.
      const response = await browser.request({ method, url: concreteUrl(path), ...(method === 'GET' ? {} : { payload: {} }) });
      const allowed = permission === 'signed-in' || roleHas(role, permission);
      if (allowed) {
        expect([401, 403], `${role} ${route}: ${response.body}`).not.toContain(response.statusCode);
      } else {
        refused += 1;
        expect(response.statusCode, `${role} ${route}`).toBe(403);
        expect(response.json().error.code).toBe('forbidden');
      }
    }
    const [audited] = await database().query<{ count: number }>(
      "SELECT count(*)::integer AS count FROM audit_log WHERE action = 'staff.permission_denied' AND actor_id = $1 AND outcome = 'denied'",
      [member.id],
    );
    expect(audited?.count).toBe(refused);
  });
});
