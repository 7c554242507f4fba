import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import type { BankStatement, ReconciliationException } from '@strongroom/contracts/books.ts';
import type { Config } from '../../config.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { staffBrowser } from '../../test/staff.ts';
import { testAppSuite } from '../../test/suite.ts';
import type { TestBrowser } from '../../test/client.ts';
import { writeBai2, type Bai2Detail } from './bai2.ts';
import { settlementBankAccounts } from './settlement-accounts.ts';

/**
 * Issue 35 item 4: the back office's reconciliation routes (`reconciliation.manage`: finance and
 * administrators): the statements imported, the exceptions queue (open first, oldest day first, a
 * page at a time), and what a role without the permission gets.
 */
interface ExceptionList {
  items: ReconciliationException[];
  nextCursor: string | null;
}

/** Lines the ledger never booked (days long before this suite's): each lands as an unmatched statement line. */
function unknownLines(count: number, fromCents: number): Bai2Detail[] {
  return Array.from({ length: count }, (_unused, index) => ({
    typeCode: '195',
    amountCents: BigInt(fromCents + index),
    fundsType: '0',
    bankReference: `W${index}`,
    customerReference: null,
    text: 'Incoming wire',
  }));
}

function statement(asOfDate: string, details: Bai2Detail[], accountNumber = settlementBankAccounts[1]?.accountNumber ?? ''): string {
  return writeBai2({
    sender: '011000015',
    receiver: '123456780',
    createdAt: { date: asOfDate, time: '2359' },
    fileId: '1',
    groups: [
      {
        originator: '011000015',
        ultimateReceiver: '123456780',
        asOfDate,
        currency: 'USD',
        accounts: [{ accountNumber, currency: 'USD', summaries: [], details }],
      },
    ],
  });
}

describeEachDatabase('reconciliation routes', (database) => {
  let app: FastifyInstance;
  let config: Config;
  let finance: TestBrowser;
  let financeMember: { id: string; email: string };
  testAppSuite(database, async (built) => {
    ({ app, config } = built);
    ({ browser: finance, member: financeMember } = await staffBrowser(built.app, database(), built.config, 'finance'));
  });
  const upload = (browser: TestBrowser, content: string, fileName = 'wires.bai2') =>
    browser.post('/api/v1/staff/reconciliation/statements', { fileName, content, reason: 'Daily statement from the settlement bank' });

  it('lists the queue open first and oldest day first, a page of 50 at a time', async () => {
    // The later day is imported first: the queue still shows the earlier day first.
    expect((await upload(finance, statement('2026-03-03', unknownLines(30, 30_000)), 'tuesday.bai2')).statusCode).toBe(201);
    expect((await upload(finance, statement('2026-03-02', unknownLines(30, 10_000)), 'monday.bai2')).statusCode).toBe(201);
    // One of Monday's, resolved by hand by a finance member earlier (as the resolve route leaves it).
    const [first] = await database().query<{ id: string }>(`SELECT id FROM reconciliation_exceptions WHERE day = '2026-03-02' ORDER BY created_at LIMIT 1`);
    await database().query(
      `UPDATE reconciliation_exceptions SET status = 'resolved', resolution = 'adjusted', resolution_reason = 'Booked', resolved_by = $2, resolved_at = now()
        WHERE id = $1`,
      [first?.id, financeMember.id],
    );

    const page1 = (await finance.get('/api/v1/staff/reconciliation/exceptions')).json<ExceptionList>();
    expect(page1.items).toHaveLength(50);
    expect(page1.items.slice(0, 29).every((item) => item.day === '2026-03-02' && item.status === 'open')).toBe(true);
    expect(page1.items.slice(29).every((item) => item.day === '2026-03-03')).toBe(true);
    expect(page1.items.map((item) => item.amountCents).slice(0, 3)).toEqual([10_001, 10_002, 10_003]);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const page2 = (await finance.get(`/api/v1/staff/reconciliation/exceptions?cursor=${page1.nextCursor}`)).json<ExceptionList>();
    expect(page2.items.map((item) => [item.day, item.status])).toEqual([
      ...Array.from({ length: 9 }, () => ['2026-03-03', 'open']),
      ['2026-03-02', 'resolved'],
    ]);
    expect(page2.nextCursor).toBeNull();
    expect(new Set([...page1.items, ...page2.items].map((item) => item.id)).size).toBe(60);

    const resolved = (await finance.get('/api/v1/staff/reconciliation/exceptions?status=resolved')).json<ExceptionList>();
    expect(resolved.items.map((item) => item.id)).toEqual([first?.id]);
    // Staff are named by id and, for the screens, by email; an open one names no one.
    expect(resolved.items[0]).toMatchObject({ resolvedBy: financeMember.id, resolvedByEmail: financeMember.email });
    expect(page1.items[0]).toMatchObject({ resolvedBy: null, resolvedByEmail: null });
    const one = await finance.get(`/api/v1/staff/reconciliation/exceptions/${page1.items[0]?.id}`);
    expect(one.json().exception).toMatchObject({
      kind: 'unmatched_statement_line',
      settlementAccount: 'settlementWire',
      direction: 'credit',
      statementLine: { typeCode: '195', amountCents: 10_001, text: 'Incoming wire' },
      ledgerTransfer: null,
    });
    const statements = (await finance.get('/api/v1/staff/reconciliation/statements')).json<{ items: BankStatement[] }>();
    expect(statements.items.map((item) => [item.fileName, item.exceptionCount, item.importedBy, item.importedByEmail])).toEqual([
      ['tuesday.bai2', 30, financeMember.id, financeMember.email],
      ['monday.bai2', 30, financeMember.id, financeMember.email],
    ]);
  });

  it('answers 404 for an exception that does not exist', async () => {
    for (const id of [randomUUID(), 'not-an-id']) {
      expect((await finance.get(`/api/v1/staff/reconciliation/exceptions/${id}`)).statusCode).toBe(404);
      const resolve = await finance.post(`/api/v1/staff/reconciliation/exceptions/${id}/resolve`, { resolution: 'adjusted', reason: 'Booked by hand' });
      expect(resolve.statusCode).toBe(404);
    }
  });

  it('refuses a file that is not a statement of the settlement accounts, naming the line or the account', async () => {
    const broken = statement('2026-03-04', unknownLines(2, 500)).replace('49,1001,4/', '49,1002,4/');
    const refused = await upload(finance, broken);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields.content).toBe(
      'line 6: the account trailer (49) states a control total of 1002, but the amounts it closes add up to 1001',
    );
    const foreign = await upload(finance, statement('2026-03-04', unknownLines(1, 500), '555000111'));
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error.fields.content).toBe("account 555000111 is not one of the bank's settlement accounts");
    const empty = await upload(finance, '');
    expect(empty.json().error.fields.content).toBe('the file is empty');
    // An import is a staff action: without a reason it is refused, and with one the reason is audited.
    const unexplained = await finance.post('/api/v1/staff/reconciliation/statements', {
      fileName: 'wires.bai2',
      content: statement('2026-03-04', unknownLines(1, 500)),
    });
    expect(unexplained.statusCode).toBe(400);
    expect(unexplained.json().error.fields.reason).toBeTruthy();
    const reasons = await database().query<{ reason: string }>(
      `SELECT details->>'reason' AS reason FROM audit_log WHERE action = 'reconciliation.statement_imported' AND actor_id = $1`,
      [financeMember.id],
    );
    expect(reasons.length).toBeGreaterThan(0);
    expect(reasons.every((row) => row.reason === 'Daily statement from the settlement bank')).toBe(true);
    expect(await database().query(`SELECT id FROM bank_statements WHERE as_of_date = '2026-03-04'`)).toEqual([]);
    // A file that is not a statement is a bad request: refused, and nothing written (the audit log included).
    expect(await database().query(`SELECT id FROM audit_log WHERE action = 'reconciliation.statement_refused'`)).toEqual([]);
  });

  it('roles without reconciliation.manage (support, operations, compliance) get 403 forbidden, audited; admin may', async () => {
    const [exception] = await database().query<{ id: string }>('SELECT id FROM reconciliation_exceptions LIMIT 1');
    for (const role of ['support', 'operations', 'compliance'] as const) {
      const { browser, member } = await staffBrowser(app, database(), config, role);
      const answers = [
        await browser.get('/api/v1/staff/reconciliation/statements'),
        await upload(browser, statement('2026-03-05', unknownLines(1, 900))),
        await browser.get('/api/v1/staff/reconciliation/exceptions'),
        await browser.get(`/api/v1/staff/reconciliation/exceptions/${exception?.id}`),
        await browser.post(`/api/v1/staff/reconciliation/exceptions/${exception?.id}/resolve`, { resolution: 'adjusted', reason: 'Booked by hand' }),
      ];
      expect(answers.map((answer) => answer.statusCode)).toEqual([403, 403, 403, 403, 403]);
      expect(answers[0]?.json().error.code).toBe('forbidden');
      const denied = await database().query<{ details: { permission: string } }>(
        "SELECT details FROM audit_log WHERE actor_id = $1 AND action = 'staff.permission_denied'",
        [member.id],
      );
      expect(denied.map((row) => row.details.permission)).toEqual(Array.from({ length: 5 }, () => 'reconciliation.manage'));
    }
    expect(await database().query(`SELECT id FROM bank_statements WHERE as_of_date = '2026-03-05'`)).toEqual([]);
    const { browser: admin } = await staffBrowser(app, database(), config, 'admin');
    expect((await admin.get('/api/v1/staff/reconciliation/exceptions')).statusCode).toBe(200);
  });
});
