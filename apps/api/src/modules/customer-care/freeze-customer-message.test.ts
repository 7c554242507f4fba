import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { freezeCustomerMessages, neutralFreezeCustomerMessage } from '@strongroom/contracts/staff-customers.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { loadMigrations, migrate } from '../../db/migrate.ts';
import { buildTestApp } from '../../test/app.ts';
import { testAppSuite } from '../../test/suite.ts';
import { TestBrowser } from '../../test/client.ts';
import { insertBareCustomer } from '../../test/customers.ts';
import { createTestDatabase, describeEachDatabase, testDatabaseKinds } from '../../test/databases.ts';
import { ownTransfer, paymentKit, type PayingCustomer } from '../../test/payments.ts';
import { staffBrowser } from '../../test/staff.ts';
import { frozenNotificationText } from './service.ts';

/**
 * Decision 053: a bank must not tip off a customer under review. The reason staff give for a
 * freeze stays with staff and the audit log; the customer reads only the message staff chose.
 * These tests look for the reason in every answer a customer can get.
 */

/** The customer's GET routes, from the server's own API document: none with a path parameter, no stream. */
async function customerReadRoutes(app: FastifyInstance): Promise<string[]> {
  const paths = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json<{ paths: Record<string, Record<string, unknown>> }>().paths;
  return Object.entries(paths)
    .filter(([path, operations]) => 'get' in operations && !path.includes('{'))
    .map(([path]) => path)
    .filter((path) => !/^\/api\/v1\/(staff|dev)\//.test(path) && path !== '/api/v1/events');
}

/** Every text a customer can read: each GET answer, the data export's files, and a refused payment. */
async function everythingTheCustomerReads(app: FastifyInstance, browser: TestBrowser, who: PayingCustomer): Promise<Map<string, string>> {
  const read = new Map<string, string>();
  for (const path of await customerReadRoutes(app)) {
    const response = await browser.get(path);
    if (path === '/api/v1/me/export') {
      expect(response.statusCode, response.body).toBe(200);
      for (const [name, bytes] of Object.entries(unzipSync(response.rawPayload))) read.set(`${path} ${name}`, Buffer.from(bytes).toString('utf8'));
    } else {
      read.set(path, response.body);
    }
  }
  const refused = await browser.request({
    method: 'POST',
    url: '/api/v1/transfers',
    payload: ownTransfer(who.checking.id, who.savings.id, 100, 'x'),
    headers: { 'idempotency-key': randomUUID() },
  });
  read.set('POST /api/v1/transfers', refused.body);
  return read;
}

function expectNowhere(read: Map<string, string>, secret: string): void {
  for (const [where, text] of read) expect(text, `${where} shows the internal reason`).not.toContain(secret);
}

describeEachDatabase('what a frozen customer reads of a freeze', (database) => {
  let app: FastifyInstance;
  let config: Config;
  let admin: TestBrowser;
  const kit = paymentKit(testAppSuite(database, (built) => ({ app, config } = built), { environment: { RAIL_SPEED: 'instant' } }));

  beforeAll(async () => {
    admin = (await staffBrowser(app, database(), config, 'admin')).browser;
  });

  async function signedInAgain(who: PayingCustomer): Promise<TestBrowser> {
    return new TestBrowser(app).signInAs(database(), who.id);
  }

  it('a staff freeze: no customer route, export or refusal shows the internal reason; the banner and notification say the chosen message', async () => {
    const dana = await kit.customer({ fundCents: 10_000n });
    const reason = 'Checking source of funds: SAR draft 7781';
    const customerMessage = freezeCustomerMessages[2].text;
    const frozen = await admin.post(`/api/v1/staff/customers/${dana.id}/freeze`, { reason, customerMessage });
    expect(frozen.statusCode, frozen.body).toBe(200);

    const browser = await signedInAgain(dana);
    const read = await everythingTheCustomerReads(app, browser, dana);
    expect(read.size).toBeGreaterThan(15);
    expectNowhere(read, reason);
    expectNowhere(read, 'SAR draft');
    expect(JSON.parse(read.get('/api/v1/me') ?? '{}').frozen).toEqual({ message: customerMessage, since: expect.any(String) });
    expect(JSON.parse(read.get('/api/v1/notifications') ?? '{}').items[0]).toMatchObject({
      kind: 'account_frozen',
      text: frozenNotificationText(customerMessage),
    });
    expect(JSON.parse(read.get('POST /api/v1/transfers') ?? '{}').error.code).toBe('account_frozen');

    // Staff read both, and so does the audit log.
    const staffPage = (await admin.get(`/api/v1/staff/customers/${dana.id}`)).json();
    expect(staffPage.freeze).toMatchObject({ frozen: true, reason, customerMessage });
    const audit = (await admin.get(`/api/v1/staff/audit?action=customer.freeze&subject=${dana.id}`)).body;
    expect(audit).toContain(reason);
    expect(audit).toContain(customerMessage);
  });

  it('a freeze written without a message (the old way) says the neutral message, never its reason', async () => {
    const dana = await kit.customer();
    const [staff] = await database().query<{ id: string }>('SELECT id FROM staff LIMIT 1');
    const reason = 'Law enforcement request 2291';
    await database().query('INSERT INTO customer_freezes (customer_id, frozen_by, reason) VALUES ($1, $2, $3)', [dana.id, staff?.id, reason]);

    const read = await everythingTheCustomerReads(app, await signedInAgain(dana), dana);
    expectNowhere(read, reason);
    expect(JSON.parse(read.get('/api/v1/me') ?? '{}').frozen).toEqual({ message: neutralFreezeCustomerMessage, since: expect.any(String) });
    expect((await admin.get(`/api/v1/staff/customers/${dana.id}`)).json().freeze).toMatchObject({ reason, customerMessage: neutralFreezeCustomerMessage });
  });
});

describe.each(testDatabaseKinds)('migration 0030 on freezes made before it (%s)', (kind) => {
  /** The version of the migration that adds customer_freezes.customer_message. */
  const customerMessageMigration = 30;
  const oldNotificationText = (reason: string) =>
    `We have frozen your account: you can sign in and see everything, but no money can move until we lift the freeze. Reason: ${reason}`;

  async function oldStaffFreeze(db: Database, staffId: string, reason: string, lifted: boolean): Promise<string> {
    const customerId = await insertBareCustomer(db);
    await db.query(
      `INSERT INTO customer_freezes (customer_id, frozen_by, reason, unfrozen_at, unfrozen_by, unfreeze_reason)
       VALUES ($1, $2, $3, CASE WHEN $4 THEN now() END, CASE WHEN $4 THEN $2::uuid END, CASE WHEN $4 THEN 'Checked and cleared' END)`,
      [customerId, staffId, reason, lifted],
    );
    await db.query(`INSERT INTO notifications (customer_id, kind, name, text) VALUES ($1, 'account_frozen', 'Your account is frozen', $2)`, [
      customerId,
      oldNotificationText(reason),
    ]);
    return customerId;
  }

  it("gives every earlier staff freeze the neutral message, rewrites its notification, and keeps a customer's own report as theirs", async () => {
    const { db, dispose } = await createTestDatabase(kind, { migrated: false });
    let app: FastifyInstance | undefined;
    try {
      const migrations = await loadMigrations();
      await migrate(
        db,
        migrations.filter((migration) => migration.version < customerMessageMigration),
      );
      const [staff] = await db.query<{ id: string }>(
        `INSERT INTO staff (email, email_normalized, password_hash, role, totp_secret_encrypted)
         VALUES ('admin@bank.test', 'admin@bank.test', 'x', 'admin', '\\x00') RETURNING id`,
      );
      if (!staff) throw new Error('no staff row');
      const openReason = 'Checking source of funds, SAR 4411';
      const open = await oldStaffFreeze(db, staff.id, openReason, false);
      const liftedReason = 'Suspected mule account';
      const lifted = await oldStaffFreeze(db, staff.id, liftedReason, true);
      const reporter = await insertBareCustomer(db);
      const report = `"This wasn't me" reported by the account holder about: Signed in, 2026-11-20 10:00 UTC (event 42).`;
      await db.query('INSERT INTO customer_freezes (customer_id, frozen_by, frozen_by_customer, reason) VALUES ($1, NULL, true, $2)', [reporter, report]);
      // Another notification that merely starts alike is left alone.
      await db.query(`INSERT INTO notifications (customer_id, kind, name, text) VALUES ($1, 'account_unfrozen', 'Lifted', 'We have lifted the freeze.')`, [
        open,
      ]);

      await migrate(db, migrations);

      const freezes = await db.query<{ customer_id: string; reason: string; customer_message: string }>(
        'SELECT customer_id, reason, customer_message FROM customer_freezes',
      );
      expect(new Map(freezes.map((row) => [row.customer_id, [row.reason, row.customer_message]]))).toEqual(
        new Map([
          [open, [openReason, neutralFreezeCustomerMessage]],
          [lifted, [liftedReason, neutralFreezeCustomerMessage]],
          [reporter, [report, report]],
        ]),
      );
      const notifications = await db.query<{ customer_id: string; kind: string; text: string }>(
        'SELECT customer_id, kind, text FROM notifications ORDER BY kind',
      );
      expect(notifications).toEqual(
        expect.arrayContaining([
          { customer_id: open, kind: 'account_frozen', text: frozenNotificationText(neutralFreezeCustomerMessage) },
          { customer_id: lifted, kind: 'account_frozen', text: frozenNotificationText(neutralFreezeCustomerMessage) },
          { customer_id: open, kind: 'account_unfrozen', text: 'We have lifted the freeze.' },
        ]),
      );

      // The customer of the open freeze signs in: neither /me nor the notifications show the reason.
      ({ app } = await buildTestApp(db));
      const browser = await new TestBrowser(app).signInAs(db, open);
      const me = await browser.get('/api/v1/me');
      expect(me.statusCode, me.body).toBe(200);
      expect(me.json().frozen).toEqual({ message: neutralFreezeCustomerMessage, since: expect.any(String) });
      const listed = await browser.get('/api/v1/notifications');
      expect(listed.statusCode, listed.body).toBe(200);
      for (const body of [me.body, listed.body]) {
        expect(body).not.toContain(openReason);
        expect(body).not.toContain('SAR');
      }
      const ownReport = await new TestBrowser(app).signInAs(db, reporter);
      expect((await ownReport.get('/api/v1/me')).json().frozen.message).toBe(report);
    } finally {
      await app?.close();
      await dispose();
    }
  }, 180_000);
});
