import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { billCategories } from '@strongroom/contracts/billers.ts';
import type { Config } from '../../config.ts';
import { buildTestApp, productionAppOptions } from '../../test/app.ts';
import { TestBrowser } from '../../test/client.ts';
import { insertBareCustomer } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { staffBrowser } from '../../test/staff.ts';
import { testAppSuite } from '../../test/suite.ts';
import { seedSandboxBillers } from './sandbox-seed.ts';

interface StaffBillerBody {
  id: string;
  name: string;
  category: string;
  accountNumberPattern: string;
  accountNumberExample: string;
  paymentMethod: string;
  routingNumber: string | null;
  accountNumber: string | null;
  active: boolean;
}

/** A valid ACH biller request, with what a test overrides. */
function achBiller(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Test City Water',
    category: 'water',
    accountNumberPattern: '\\d{8}',
    accountNumberExample: '12345678',
    paymentMethod: 'ach',
    routingNumber: '011000015',
    accountNumber: '4002008100',
    active: true,
    reason: 'New utility in the service area',
    ...overrides,
  };
}

describeEachDatabase('the billers directory (issue 33 item 1)', (database) => {
  let app: FastifyInstance;
  let config: Config;
  let operations: TestBrowser;
  let operationsId: string;
  let customer: TestBrowser;
  testAppSuite(database, (built) => ({ app, config } = built));

  beforeAll(async () => {
    const signedIn = await staffBrowser(app, database(), config, 'operations');
    operations = signedIn.browser;
    operationsId = signedIn.member.id;
    customer = await new TestBrowser(app).signInAs(database(), await insertBareCustomer(database()));
  });

  const create = async (body: Record<string, unknown>, as: TestBrowser = operations) => as.post('/api/v1/staff/billers', body);
  const billerCount = async () => Number((await database().query<{ count: string }>('SELECT count(*)::text AS count FROM billers'))[0]?.count);

  it('an operations member adds an ACH biller (201) and changes it (200); each write is audited with the reason, the biller before and after', async () => {
    const created = await create(achBiller());
    expect(created.statusCode, created.body).toBe(201);
    const biller = created.json<{ biller: StaffBillerBody }>().biller;
    expect(biller).toMatchObject({
      name: 'Test City Water',
      category: 'water',
      paymentMethod: 'ach',
      routingNumber: '011000015',
      accountNumber: '4002008100',
      active: true,
    });

    const changed = await operations.put(
      `/api/v1/staff/billers/${biller.id}`,
      achBiller({ name: 'Test City Water Authority', active: false, reason: 'Renamed and retired' }),
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<{ biller: StaffBillerBody }>().biller).toMatchObject({ id: biller.id, name: 'Test City Water Authority', active: false });

    const entries = await database().query<{ action: string; actor_id: string; subject: string; outcome: string; details: Record<string, string | null> }>(
      "SELECT action, actor_id, subject, outcome, details FROM audit_log WHERE action LIKE 'biller.%' AND subject = $1 ORDER BY id",
      [biller.id],
    );
    expect(entries.map((entry) => [entry.action, entry.actor_id, entry.outcome, entry.details.reason])).toEqual([
      ['biller.created', operationsId, 'success', 'New utility in the service area'],
      ['biller.updated', operationsId, 'success', 'Renamed and retired'],
    ]);
    expect(entries[0]?.details.before).toBeNull();
    expect(JSON.parse(entries[0]?.details.after ?? 'null')).toMatchObject({ name: 'Test City Water', active: true });
    expect(JSON.parse(entries[1]?.details.before ?? 'null')).toMatchObject({ name: 'Test City Water', active: true });
    expect(JSON.parse(entries[1]?.details.after ?? 'null')).toMatchObject({ name: 'Test City Water Authority', active: false });

    const staffList = (await operations.get('/api/v1/staff/billers')).json<{ items: StaffBillerBody[] }>().items;
    expect(staffList.find((item) => item.id === biller.id)).toMatchObject({ active: false, paymentMethod: 'ach' });
  });

  it("a customer sees a category's active billers by name, without how the bank pays them; inactive ones are hidden", async () => {
    const ids: Record<string, string> = {};
    for (const [name, active] of [
      ['Zeta Gas Supply', true],
      ['Alpha Gas Company', true],
      ['Middle Gas Retired', false],
    ] as const) {
      const created = await create(achBiller({ name, category: 'gas', active }));
      expect(created.statusCode, created.body).toBe(201);
      ids[name] = created.json<{ biller: StaffBillerBody }>().biller.id;
    }
    await create(achBiller({ name: 'Aardvark Internet', category: 'internet' }));

    const listed = await customer.get('/api/v1/billers?category=gas');
    expect(listed.statusCode, listed.body).toBe(200);
    const items = listed.json<{ items: Record<string, unknown>[] }>().items;
    expect(items.map((item) => item.name)).toEqual(['Alpha Gas Company', 'Zeta Gas Supply']);
    expect(items[0]).toEqual({
      id: ids['Alpha Gas Company'],
      name: 'Alpha Gas Company',
      category: 'gas',
      accountNumberPattern: '\\d{8}',
      accountNumberExample: '12345678',
    });

    const all = (await customer.get('/api/v1/billers')).json<{ items: { name: string; category: string }[] }>().items;
    expect(all.map((item) => item.name)).toContain('Aardvark Internet');
    expect(all.map((item) => item.name)).not.toContain('Middle Gas Retired');
    expect(all.map((item) => item.name)).toEqual([...all.map((item) => item.name)].sort());

    const staffList = (await operations.get('/api/v1/staff/billers')).json<{ items: StaffBillerBody[] }>().items;
    expect(staffList.find((item) => item.id === ids['Middle Gas Retired'])?.active).toBe(false);
  });

  it('an unknown category is refused with 400; a visitor without a session gets 401', async () => {
    const refused = await customer.get('/api/v1/billers?category=rent');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('validation_failed');
    const visitor = await app.inject({ method: 'GET', url: '/api/v1/billers?category=gas' });
    expect(visitor.statusCode).toBe(401);
  });

  it.each([
    ['a pattern that does not compile', { accountNumberPattern: '\\d{4' + '(' }, 'accountNumberPattern', 'the pattern is not a valid regular expression'],
    [
      'a pattern that compiles only once wrapped',
      { accountNumberPattern: '1)(2', accountNumberExample: '12' },
      'accountNumberPattern',
      'the pattern is not a valid regular expression',
    ],
    ['an example that does not match', { accountNumberExample: '1234' }, 'accountNumberExample', 'the example does not match the pattern'],
    ['an example matching only part of the pattern', { accountNumberExample: 'X12345678' }, 'accountNumberExample', 'the example does not match the pattern'],
    ['an ACH biller without a routing number', { routingNumber: null }, 'routingNumber', "enter the biller's 9-digit routing number"],
    ['an ACH biller without an account number', { accountNumber: null }, 'accountNumber', "enter the biller's account number at its bank"],
    ['a routing number with a wrong check digit', { routingNumber: '011000016' }, 'routingNumber', 'routing number is not valid'],
    [
      'a simulator biller with a routing number',
      { paymentMethod: 'simulator', accountNumber: null },
      'routingNumber',
      'leave the routing number empty: the simulator pays this biller',
    ],
    ['no reason', { reason: 'no' }, 'reason', 'the reason needs at least 3 characters'],
  ])('%s is refused with 400 and a message for the field, and nothing is written', async (_name, overrides, field, message) => {
    const before = await billerCount();
    const refused = await create(achBiller(overrides));
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.code).toBe('validation_failed');
    expect(refused.json<{ error: { fields: Record<string, string> } }>().error.fields[field]).toBe(message);
    expect(await billerCount()).toBe(before);
  });

  it('the same rules hold on a change, and an unknown biller answers 404', async () => {
    const biller = (await create(achBiller({ name: 'Edited Electric', category: 'electricity' }))).json<{ biller: StaffBillerBody }>().biller;
    const refused = await operations.put(`/api/v1/staff/billers/${biller.id}`, achBiller({ accountNumberExample: 'abc' }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields.accountNumberExample).toBe('the example does not match the pattern');
    const missing = await operations.put('/api/v1/staff/billers/00000000-0000-4000-8000-0000000000b1', achBiller());
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('not_found');
    expect((await operations.put('/api/v1/staff/billers/not-a-uuid', achBiller())).statusCode).toBe(404);
    const simulator = await operations.put(
      `/api/v1/staff/billers/${biller.id}`,
      achBiller({ paymentMethod: 'simulator', routingNumber: null, accountNumber: null }),
    );
    expect(simulator.statusCode, simulator.body).toBe(200);
    expect(simulator.json().biller).toMatchObject({ paymentMethod: 'simulator', routingNumber: null, accountNumber: null });
  });

  it('support and compliance may not read or write billers: 403 forbidden, audited, and nothing is written', async () => {
    const before = await billerCount();
    const [existing] = (await operations.get('/api/v1/staff/billers')).json<{ items: StaffBillerBody[] }>().items;
    for (const role of ['support', 'compliance'] as const) {
      const { browser, member } = await staffBrowser(app, database(), config, role);
      expect((await browser.get('/api/v1/staff/billers')).statusCode).toBe(403);
      const refused = await create(achBiller({ name: 'Forbidden Power' }), browser);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('forbidden');
      expect((await browser.put(`/api/v1/staff/billers/${existing?.id ?? ''}`, achBiller({ name: 'Forbidden Rename' }))).statusCode).toBe(403);
      const denied = await database().query<{ details: { permission: string } }>(
        "SELECT details FROM audit_log WHERE actor_id = $1 AND action = 'staff.permission_denied'",
        [member.id],
      );
      expect(denied.map((row) => row.details.permission)).toEqual(['billers.manage', 'billers.manage', 'billers.manage']);
    }
    expect(await billerCount()).toBe(before);
    expect((await database().query("SELECT 1 FROM billers WHERE name LIKE 'Forbidden%'")).length).toBe(0);
    // A customer's session does not open the back office either.
    expect((await customer.get('/api/v1/staff/billers')).statusCode).toBe(401);
  });

  it('a fresh sandbox has billers in every one of the twelve categories, paid by the simulator; a second seeding adds none', async () => {
    await database().query('DELETE FROM billers');
    const added = await seedSandboxBillers(database(), config);
    expect(config.mode).toBe('sandbox');
    expect(added).toBeGreaterThanOrEqual(24);
    const items = (await customer.get('/api/v1/billers')).json<{ items: { category: string; accountNumberPattern: string; accountNumberExample: string }[] }>()
      .items;
    expect(new Set(items.map((item) => item.category))).toEqual(new Set(billCategories));
    for (const category of billCategories) expect(items.filter((item) => item.category === category).length).toBeGreaterThanOrEqual(2);
    for (const item of items) expect(new RegExp(`^(?:${item.accountNumberPattern})$`).test(item.accountNumberExample)).toBe(true);
    const methods = await database().query<{ payment_method: string }>('SELECT DISTINCT payment_method FROM billers');
    expect(methods.map((row) => row.payment_method)).toEqual(['simulator']);

    expect(await seedSandboxBillers(database(), config)).toBe(0);
    expect(await billerCount()).toBe(added);
  });

  it('production seeds no biller and refuses the simulator as a way to pay one', async () => {
    await database().query('DELETE FROM billers');
    const production = await buildTestApp(database(), productionAppOptions(database()));
    try {
      expect(production.config.mode).toBe('production');
      expect(await seedSandboxBillers(database(), production.config)).toBe(0);
      expect(await billerCount()).toBe(0);
      const { browser } = await staffBrowser(production.app, database(), production.config, 'admin');
      const refused = await browser.post('/api/v1/staff/billers', achBiller({ paymentMethod: 'simulator', routingNumber: null, accountNumber: null }));
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.fields.paymentMethod).toBe('the rail simulator pays billers only in the sandbox: choose ACH');
      expect((await browser.post('/api/v1/staff/billers', achBiller())).statusCode).toBe(201);
    } finally {
      await production.app.close();
    }
  });
});
