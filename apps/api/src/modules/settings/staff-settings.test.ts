import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { buildTestApp } from '../../test/app.ts';
import { testAppSuite } from '../../test/suite.ts';
import { TestBrowser } from '../../test/client.ts';
import { insertBareCustomer } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { staffBrowser } from '../../test/staff.ts';

const newSettings = { address: '1 New Vault Road, Springfield, IL 62702, USA', phone: '+1 (202) 555-0199', supportEmail: 'help@strongroom.example' };

describeEachDatabase('bank settings in the back office', (database) => {
  let app: FastifyInstance;
  let config: Config;
  testAppSuite(database, (built) => ({ app, config } = built));

  it('any staff member reads the settings', async () => {
    const { browser } = await staffBrowser(app, database(), config, 'support');
    const response = await browser.get('/api/v1/staff/settings');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ address: expect.any(String), phone: expect.any(String), supportEmail: expect.any(String) });
  });

  it('an admin changes them, the public settings show the change on the next fetch, and the audit log holds before and after', async () => {
    const { browser, member } = await staffBrowser(app, database(), config, 'admin');
    const before = (await browser.get('/api/v1/staff/settings')).json();
    const response = await browser.put('/api/v1/staff/settings', { ...newSettings, reason: 'moved office' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject(newSettings);

    const publicSettings = await new TestBrowser(app).get('/api/v1/settings/public');
    expect(publicSettings.json()).toMatchObject(newSettings);
    expect(publicSettings.headers['cache-control'] ?? '').not.toMatch(/max-age=([1-9]\d|[6-9])/);

    const [audit] = await database().query<{ details: Record<string, unknown> }>(
      `SELECT details FROM audit_log WHERE action = 'settings.update' AND actor_id = $1`,
      [member.id],
    );
    expect(audit?.details).toEqual({
      addressBefore: before.address,
      addressAfter: newSettings.address,
      phoneBefore: before.phone,
      phoneAfter: newSettings.phone,
      supportEmailBefore: before.supportEmail,
      supportEmailAfter: newSettings.supportEmail,
      homeCountersBefore: JSON.stringify(before.homeCounters),
      homeCountersAfter: JSON.stringify(before.homeCounters),
      reason: 'moved office',
    });
  });

  it('a new bank shows no figures on its home page: none is invented (issue 39 item 11)', async () => {
    const fresh = await buildTestApp(database());
    try {
      expect((await new TestBrowser(fresh.app).get('/api/v1/settings/public')).json().homeCounters).toEqual([]);
    } finally {
      await fresh.app.close();
    }
  });

  it('an admin sets the home page figures; the public settings show them; a change of the three contact fields alone keeps them', async () => {
    const { browser, member } = await staffBrowser(app, database(), config, 'admin');
    const homeCounters = [
      { label: 'Customers', value: 12_400, atLeast: true },
      { label: 'Years serving Springfield', value: 35, atLeast: false },
    ];
    const response = await browser.put('/api/v1/staff/settings', { ...newSettings, homeCounters, reason: 'figures from the annual report' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().homeCounters).toEqual(homeCounters);
    expect((await new TestBrowser(app).get('/api/v1/settings/public')).json().homeCounters).toEqual(homeCounters);

    const [audit] = await database().query<{ details: Record<string, unknown> }>(
      `SELECT details FROM audit_log WHERE action = 'settings.update' AND actor_id = $1`,
      [member.id],
    );
    expect(audit?.details).toMatchObject({ homeCountersAfter: JSON.stringify(homeCounters), reason: 'figures from the annual report' });

    expect((await browser.put('/api/v1/staff/settings', newSettings)).statusCode).toBe(200);
    expect((await new TestBrowser(app).get('/api/v1/settings/public')).json().homeCounters).toEqual(homeCounters);

    expect((await browser.put('/api/v1/staff/settings', { ...newSettings, homeCounters: [] })).statusCode).toBe(200);
    expect((await new TestBrowser(app).get('/api/v1/settings/public')).json().homeCounters).toEqual([]);
  });

  it('takes a change without a reason', async () => {
    const { browser } = await staffBrowser(app, database(), config, 'admin');
    expect((await browser.put('/api/v1/staff/settings', newSettings)).statusCode).toBe(200);
  });

  it.each([
    ['a short address', { ...newSettings, address: 'abc' }],
    ['an address over 300 characters', { ...newSettings, address: 'x'.repeat(301) }],
    ['a phone number of words', { ...newSettings, phone: 'call us' }],
    ['a phone number of 4 digits', { ...newSettings, phone: '1234' }],
    ['a phone number of 20 digits', { ...newSettings, phone: '1'.repeat(20) }],
    ['an email without a domain', { ...newSettings, supportEmail: 'help@' }],
    ['a missing field', { address: newSettings.address, phone: newSettings.phone }],
    ['four home page figures', { ...newSettings, homeCounters: Array.from({ length: 4 }, (_, i) => ({ label: `Figure ${i}`, value: i, atLeast: false })) }],
    ['a negative figure', { ...newSettings, homeCounters: [{ label: 'Customers', value: -1, atLeast: false }] }],
    ['a figure with a fraction', { ...newSettings, homeCounters: [{ label: 'Customers', value: 1.5, atLeast: false }] }],
    ['a figure written as words', { ...newSettings, homeCounters: [{ label: 'Customers', value: 'lots', atLeast: false }] }],
    ['a figure without a label', { ...newSettings, homeCounters: [{ label: ' ', value: 10, atLeast: false }] }],
  ])('refuses %s with 400 and changes nothing', async (_name, body) => {
    const { browser } = await staffBrowser(app, database(), config, 'admin');
    const before = (await browser.get('/api/v1/staff/settings')).json();
    const response = await browser.put('/api/v1/staff/settings', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('validation_failed');
    expect((await browser.get('/api/v1/staff/settings')).json()).toEqual(before);
  });

  it.each(['support', 'compliance', 'operations'] as const)('a %s member gets 403 on a change, and the refusal is audited', async (role) => {
    const { browser, member } = await staffBrowser(app, database(), config, role);
    const response = await browser.put('/api/v1/staff/settings', newSettings);
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('forbidden');
    const denied = await database().query(`SELECT 1 FROM audit_log WHERE action = 'staff.permission_denied' AND actor_id = $1`, [member.id]);
    expect(denied).toHaveLength(1);
  });

  it("a customer's cookie gets 401 on both", async () => {
    const customer = await new TestBrowser(app).signInAs(database(), await insertBareCustomer(database()));
    expect((await customer.get('/api/v1/staff/settings')).statusCode).toBe(401);
    expect((await customer.put('/api/v1/staff/settings', newSettings)).statusCode).toBe(401);
  });
});
