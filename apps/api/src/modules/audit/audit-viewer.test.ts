import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { auditLimits, auditMessages } from '@strongroom/contracts/staff-audit.ts';
import type { Config } from '../../config.ts';
import { recordAudit } from '../../platform/audit.ts';
import { testAppSuite } from '../../test/suite.ts';
import { TestBrowser } from '../../test/client.ts';
import { insertBareCustomer } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { staffBrowser } from '../../test/staff.ts';
import { auditCsvLine, csvCell } from './csv.ts';

describe('the audit CSV', () => {
  it('guards cells that a spreadsheet would run as a formula, and quotes commas, quotes and line breaks', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+1 202')).toBe("'+1 202");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell('plain')).toBe('plain');
  });

  it('writes details as one quoted JSON cell', () => {
    const line = auditCsvLine({
      id: '7',
      at: '2026-11-24T03:00:00.000Z',
      actorType: 'staff',
      actorId: 'a',
      action: 'x.y',
      subject: null,
      outcome: 'success',
      ip: '127.0.0.1',
      details: { reason: 'said "hi", twice' },
    });
    expect(line).toBe(`7,2026-11-24T03:00:00.000Z,staff,a,x.y,,success,127.0.0.1,"{""reason"":""said \\""hi\\"", twice""}"`);
  });
});

describeEachDatabase('the audit log viewer', (database) => {
  let app: FastifyInstance;
  let config: Config;
  testAppSuite(database, (built) => ({ app, config } = built));

  const subject = () => `test-subject-${Math.random().toString(36).slice(2)}`;

  it('lists entries newest first, a page of at most 100 with a cursor to the next, until the last', async () => {
    const { browser } = await staffBrowser(app, database(), config, 'admin');
    const topic = subject();
    for (let index = 0; index < auditLimits.pageSize + 5; index += 1) {
      await recordAudit(database(), { actorType: 'system', action: 'test.entry', subject: topic, outcome: 'success', details: { index } });
    }
    const first = await browser.get(`/api/v1/staff/audit?subject=${topic}`);
    expect(first.statusCode, first.body).toBe(200);
    const firstPage = first.json();
    expect(firstPage.items).toHaveLength(auditLimits.pageSize);
    expect(firstPage.items[0]).toMatchObject({ action: 'test.entry', subject: topic, actorType: 'system', outcome: 'success', details: { index: 104 } });
    expect(firstPage.nextCursor).toEqual(expect.any(String));
    const second = (await browser.get(`/api/v1/staff/audit?subject=${topic}&cursor=${firstPage.nextCursor}`)).json();
    expect(second.items.map((item: { details: { index: number } }) => item.details.index)).toEqual([4, 3, 2, 1, 0]);
    expect(second.nextCursor).toBeNull();
  });

  it('filters by actor (staff id, staff email or customer id), by action or its prefix, and by inclusive dates', async () => {
    const { browser, member } = await staffBrowser(app, database(), config, 'admin');
    const customerId = await insertBareCustomer(database());
    const topic = subject();
    await recordAudit(database(), { actorType: 'staff', actorId: member.id, action: 'test.staff_did', subject: topic, outcome: 'success' });
    await recordAudit(database(), { actorType: 'customer', actorId: customerId, action: 'test.customer_did', subject: topic, outcome: 'failure' });
    const actions = async (query: string) =>
      ((await browser.get(`/api/v1/staff/audit?subject=${topic}&${query}`)).json().items as { action: string }[]).map((item) => item.action);

    expect(await actions(`actor=${member.id}`)).toEqual(['test.staff_did']);
    expect(await actions(`actor=${encodeURIComponent(member.email.toUpperCase())}`)).toEqual(['test.staff_did']);
    expect(await actions(`actor=${customerId}`)).toEqual(['test.customer_did']);
    expect(await actions('action=test.customer_did')).toEqual(['test.customer_did']);
    expect(await actions('action=test.')).toEqual(['test.customer_did', 'test.staff_did']);
    expect(await actions('action=test')).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await actions(`from=${today}&to=${today}`)).toHaveLength(2);
    expect(await actions('from=2000-01-01&to=2000-01-31')).toEqual([]);
    expect(await actions('actor=&action=&from=&to=')).toHaveLength(2);
  });

  it('names the actor and the subject beside their ids: a staff member by email, a customer by name', async () => {
    const { browser, member } = await staffBrowser(app, database(), config, 'admin');
    const customerId = await insertBareCustomer(database());
    const topic = subject();
    await recordAudit(database(), {
      actorType: 'staff',
      actorId: member.id,
      action: 'test.staff_on_customer',
      subject: customerId,
      outcome: 'success',
      details: { topic },
    });
    await recordAudit(database(), {
      actorType: 'customer',
      actorId: customerId,
      action: 'test.customer_on_staff',
      subject: member.id,
      outcome: 'success',
      details: { topic },
    });
    await recordAudit(database(), { actorType: 'system', action: 'test.system_on_text', subject: topic, outcome: 'success' });
    const items = async (filter: string) => (await browser.get(`/api/v1/staff/audit?${filter}`)).json().items as Record<string, unknown>[];

    const [onCustomer] = await items(`action=test.staff_on_customer&subject=${customerId}`);
    expect(onCustomer).toMatchObject({ actorId: member.id, actorName: member.email, subject: customerId, subjectName: 'Test Customer' });
    const [onStaff] = await items(`action=test.customer_on_staff&subject=${member.id}`);
    expect(onStaff).toMatchObject({ actorId: customerId, actorName: 'Test Customer', subject: member.id, subjectName: member.email });
    const [onText] = await items(`subject=${topic}`);
    expect(onText).toMatchObject({ actorId: null, actorName: null, subject: topic, subjectName: null });
  });

  it('refuses a From date after the To date with 400 and the field', async () => {
    const { browser } = await staffBrowser(app, database(), config, 'admin');
    for (const path of ['/api/v1/staff/audit', '/api/v1/staff/audit.csv']) {
      const response = await browser.get(`${path}?from=2026-11-02&to=2026-11-01`);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'validation_failed', fields: { from: auditMessages.fromAfterTo } });
    }
    expect((await browser.get('/api/v1/staff/audit?from=2026-11-01&to=2026-11-01')).statusCode).toBe(200);
  });

  it.each([['from=2026-13-01'], ['to=yesterday'], ['cursor=abc'], [`action=${'x'.repeat(201)}`]])('refuses %s with 400', async (query) => {
    const { browser } = await staffBrowser(app, database(), config, 'admin');
    const response = await browser.get(`/api/v1/staff/audit?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('validation_failed');
  });

  it('exports the same filter as CSV, newest first, guarded against formulas, and audits the export', async () => {
    const { browser, member } = await staffBrowser(app, database(), config, 'admin');
    const topic = subject();
    await recordAudit(database(), { actorType: 'anonymous', action: 'test.first', subject: topic, outcome: 'failure', details: { email: '=cmd|x' } });
    await recordAudit(database(), { actorType: 'system', action: 'test.second', subject: topic, outcome: 'success' });
    const response = await browser.get(`/api/v1/staff/audit.csv?subject=${topic}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toContain('attachment');
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,at,actorType,actorId,action,subject,outcome,ip,details');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(',test.second,');
    expect(lines[2]).toContain(',test.first,');
    expect(lines[2]).toContain('"{""email"":""=cmd|x""}"');

    const [exported] = await database().query<{ details: Record<string, unknown> }>(
      `SELECT details FROM audit_log WHERE action = 'audit.export' AND actor_id = $1`,
      [member.id],
    );
    expect(exported?.details).toMatchObject({ subject: topic, rows: 2, truncated: false });
  });

  it.each(['support', 'compliance', 'operations'] as const)('a %s member gets 403 on the log and its export, audited', async (role) => {
    const { browser, member } = await staffBrowser(app, database(), config, role);
    expect((await browser.get('/api/v1/staff/audit')).statusCode).toBe(403);
    expect((await browser.get('/api/v1/staff/audit.csv')).statusCode).toBe(403);
    const denied = await database().query(`SELECT 1 FROM audit_log WHERE action = 'staff.permission_denied' AND actor_id = $1`, [member.id]);
    expect(denied).toHaveLength(2);
  });

  it("a customer's cookie gets 401", async () => {
    const customer = await new TestBrowser(app).signInAs(database(), await insertBareCustomer(database()));
    expect((await customer.get('/api/v1/staff/audit')).statusCode).toBe(401);
    expect((await customer.get('/api/v1/staff/audit.csv')).statusCode).toBe(401);
  });
});
