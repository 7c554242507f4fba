import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { testAppSuite } from '../../test/suite.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { staffBrowser } from '../../test/staff.ts';

describeEachDatabase("the ACH file download's reason", (database) => {
  let app: FastifyInstance;
  let config: Config;
  testAppSuite(database, (built) => ({ app, config } = built));

  const exportAudits = async (staffId: string) =>
    database().query<{ details: Record<string, unknown> }>(`SELECT details FROM audit_log WHERE action = 'ach.file_exported' AND actor_id = $1`, [staffId]);

  it('keeps the reason given with the download in its audit entry', async () => {
    const { browser, member } = await staffBrowser(app, database(), config, 'operations');
    const response = await browser.get(`/api/v1/staff/payments/ach-file?date=2001-01-01&reason=${encodeURIComponent('  Daily file for the bank  ')}`);
    expect(response.statusCode, response.body).toBe(404);
    const [audit] = await exportAudits(member.id);
    expect(audit?.details).toMatchObject({ reason: 'Daily file for the bank' });
  });

  it('still answers a download without a reason (the route predates it), audited with none', async () => {
    const { browser, member } = await staffBrowser(app, database(), config, 'operations');
    expect((await browser.get('/api/v1/staff/payments/ach-file?date=2001-01-01')).statusCode).toBe(404);
    const [audit] = await exportAudits(member.id);
    expect(audit?.details).toMatchObject({ reason: null });
  });

  it('refuses a reason under 3 characters with 400 and the field', async () => {
    const { browser, member } = await staffBrowser(app, database(), config, 'operations');
    const response = await browser.get('/api/v1/staff/payments/ach-file?date=2001-01-01&reason=ab');
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'validation_failed', fields: { reason: expect.any(String) } });
    expect(await exportAudits(member.id)).toHaveLength(0);
  });

  it('a support member, without payments.settle, gets 403 with a reason too', async () => {
    const { browser } = await staffBrowser(app, database(), config, 'support');
    expect((await browser.get('/api/v1/staff/payments/ach-file?date=2001-01-01&reason=Daily%20file')).statusCode).toBe(403);
  });
});
