import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { balanceSheetSchema, incomeStatementSchema, trialBalanceSchema } from '@strongroom/contracts/books.ts';
import type { Config } from '../../config.ts';
import { bankDate } from '../../platform/bank-date.ts';
import { addDays } from '../../platform/business-calendar.ts';
import type { TestBrowser } from '../../test/client.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { readablePdfText } from '../../test/pdf-text.ts';
import { paymentSuite } from '../../test/payments.ts';
import { staffBrowser } from '../../test/staff.ts';
import { toolMissing } from '../../test/statements.ts';
import { closeBooksThrough } from './close.ts';
import { reportCsv, reportCsvHeader } from './report-csv.ts';

/**
 * Issue 35 items 2 and 5 (docs/books.md, "Reports"): finance staff read the trial balance, the
 * balance sheet and the income statement as JSON, CSV and PDF; every read is audited; roles
 * without books.read are refused (and that is audited); a day after the bank's date is refused.
 */
describeEachDatabase('the books reports in the back office', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built));
  let finance: { browser: TestBrowser; member: { id: string } };
  let today: string;

  beforeAll(async () => {
    await kit.customer({ fundCents: 123_456n, savingsCents: 23_456 });
    finance = await staffBrowser(app, database(), config, 'finance');
    today = await bankDate(database(), config);
  });

  const auditOf = (memberId: string, action: string) =>
    database().query<{ subject: string; details: Record<string, unknown> }>(
      'SELECT subject, details FROM audit_log WHERE actor_id = $1 AND action = $2 ORDER BY id',
      [memberId, action],
    );

  it('gives finance and admin each report as JSON of the contract, and audits each read', async () => {
    const admin = await staffBrowser(app, database(), config, 'admin');
    for (const who of [finance, admin]) {
      const trial = await who.browser.get(`/api/v1/staff/reports/trial-balance?asOf=${today}`);
      expect(trial.statusCode, trial.body).toBe(200);
      expect(trialBalanceSchema.parse(trial.json())).toMatchObject({ report: 'trial-balance', asOf: today, closed: false, balanced: true });
      const sheet = await who.browser.get('/api/v1/staff/reports/balance-sheet');
      expect(sheet.statusCode, sheet.body).toBe(200);
      // Nothing is closed yet: the report is as of the bank's date.
      expect(balanceSheetSchema.parse(sheet.json())).toMatchObject({
        asOf: today,
        balanced: true,
        customerDeposits: { balanceSheetCents: 123_456, tied: true },
      });
      const income = await who.browser.get(`/api/v1/staff/reports/income-statement?from=${today.slice(0, 4)}-01-01&to=${today}`);
      expect(income.statusCode, income.body).toBe(200);
      expect(incomeStatementSchema.parse(income.json()).report).toBe('income-statement');
      expect((await auditOf(who.member.id, 'books.report_read')).map((row) => row.details)).toEqual([
        { report: 'trial-balance', asOf: today, format: 'json' },
        { report: 'balance-sheet', asOf: today, format: 'json' },
        { report: 'income-statement', from: `${today.slice(0, 4)}-01-01`, to: today, format: 'json' },
      ]);
    }
  });

  it('downloads a CSV with one row per account and the totals, amounts in dollars, text quoted', async () => {
    await database().query(
      `INSERT INTO deposit_products (id, code, kind, name, position) VALUES ('00000000-0000-4000-8000-00000000d0f1', 'formula-savings', 'savings', '=HYPERLINK("x")', 7)`,
    );
    const response = await finance.browser.get(`/api/v1/staff/reports/trial-balance?asOf=${today}&format=csv`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="trial-balance-${today}.csv"`);
    const rows = response.body.split('\r\n');
    expect(rows[0]).toBe(reportCsvHeader);
    expect(rows).toContain('2111,Customer deposits: Easy Checking,liability,0.00,1000.00,');
    expect(rows).toContain('2121,Customer deposits: Standard Savings,liability,0.00,234.56,');
    // A product's name is data: quoted as RFC 4180 asks; the chart's prefix keeps it from starting a formula.
    expect(rows).toContain('2127,"Customer deposits: =HYPERLINK(""x"")",liability,0.00,0.00,');
    const json = trialBalanceSchema.parse((await finance.browser.get(`/api/v1/staff/reports/trial-balance?asOf=${today}`)).json());
    const total = `${Math.trunc(json.totals.debitCents / 100)}.${String(json.totals.debitCents % 100).padStart(2, '0')}`;
    expect(rows.at(-2)).toBe(`total,Total,,${total},${total},`);
    expect(rows.at(-1)).toBe('');
    expect(rows).toHaveLength(1 + json.lines.length + 1 + 1);

    const sheet = await finance.browser.get(`/api/v1/staff/reports/balance-sheet?asOf=${today}&format=csv`);
    expect(sheet.headers['content-disposition']).toBe(`attachment; filename="balance-sheet-${today}.csv"`);
    expect(sheet.body).toContain('total,Total liabilities and equity,,,,');
    const income = await finance.browser.get(`/api/v1/staff/reports/income-statement?from=${today}&to=${today}&format=csv`);
    expect(income.headers['content-disposition']).toBe(`attachment; filename="income-statement-${today}-${today}.csv"`);
    expect(income.body).toContain('total,Net income,,,,0.00');
    expect((await auditOf(finance.member.id, 'books.report_read')).at(-1)?.details).toEqual({
      report: 'income-statement',
      from: today,
      to: today,
      format: 'csv',
    });
  });

  describe.skipIf(toolMissing('pdftotext'))('the PDF', () => {
    it('names the bank, the report, the day, whether it is provisional, the lines and the totals', async () => {
      const response = await finance.browser.get(`/api/v1/staff/reports/balance-sheet?asOf=${today}&format=pdf`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="balance-sheet-${today}.pdf"`);
      const text = readablePdfText(response.rawPayload);
      const longDay = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(
        new Date(`${today}T00:00:00Z`),
      );
      for (const expected of [config.bankName, 'Balance sheet', `As of ${longDay}`, 'Provisional: this day is still open', 'Assets', 'Liabilities', 'Equity']) {
        expect(text).toContain(expected);
      }
      expect(text).toMatch(/2111 Customer deposits: Easy Checking \$1,000\.00/);
      expect(text).toMatch(/Total liabilities and equity \$[\d,]+\.\d\d/);
      const trial = readablePdfText((await finance.browser.get(`/api/v1/staff/reports/trial-balance?asOf=${today}&format=pdf`)).rawPayload);
      expect(trial).toMatch(/2121 Customer deposits: Standard Savings \$0\.00 \$234\.56/);
      expect(trial).toContain('The report balances.');
    });
  });

  it('refuses support, compliance and operations (403, audited), and a customer session is not a staff one', async () => {
    for (const role of ['support', 'compliance', 'operations'] as const) {
      const { browser, member } = await staffBrowser(app, database(), config, role);
      for (const path of ['trial-balance', 'balance-sheet', `income-statement?from=${today}&to=${today}`]) {
        const refused = await browser.get(`/api/v1/staff/reports/${path}`);
        expect(refused.statusCode, `${role} ${path}`).toBe(403);
        expect(refused.json().error.code).toBe('forbidden');
      }
      const denied = await auditOf(member.id, 'staff.permission_denied');
      expect(denied.map((row) => row.details.permission)).toEqual(['books.read', 'books.read', 'books.read']);
      expect(await auditOf(member.id, 'books.report_read')).toEqual([]);
    }
    const customer = await kit.customer();
    const anonymous = await customer.browser.get('/api/v1/staff/reports/trial-balance');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('unauthenticated');
  });

  it('refuses a day after the bank date, a range that ends before it starts, and what is not a date', async () => {
    const tomorrow = addDays(today, 1);
    const cases = [
      [`trial-balance?asOf=${tomorrow}`, 'asOf'],
      [`balance-sheet?asOf=${tomorrow}`, 'asOf'],
      [`income-statement?from=${today}&to=${tomorrow}`, 'to'],
      [`income-statement?from=${today}&to=${addDays(today, -1)}`, 'from'],
      ['trial-balance?asOf=2026-02-30', 'asOf'],
      [`income-statement?to=${today}`, 'from'],
      [`trial-balance?format=xlsx`, 'format'],
    ] as const;
    for (const [path, field] of cases) {
      const refused = await finance.browser.get(`/api/v1/staff/reports/${path}`);
      expect(refused.statusCode, path).toBe(400);
      expect(refused.json().error.code).toBe('validation_failed');
      expect(Object.keys(refused.json().error.fields), path).toContain(field);
    }
  });

  it('reads the last closed day when no day is asked for, marked closed', async () => {
    const yesterday = addDays(today, -1);
    await closeBooksThrough(database(), yesterday, 'report-routes-test');
    const trial = trialBalanceSchema.parse((await finance.browser.get('/api/v1/staff/reports/trial-balance')).json());
    expect(trial).toMatchObject({ asOf: yesterday, closed: true });
    const pdf = await finance.browser.get(`/api/v1/staff/reports/trial-balance?asOf=${yesterday}&format=pdf`);
    if (!toolMissing('pdftotext')) expect(readablePdfText(pdf.rawPayload)).toContain('Closed day: these figures are final.');
  });
});

describe('the CSV of a report', () => {
  it('disarms a cell a spreadsheet would run as a formula, and writes negative amounts exactly', () => {
    const csv = reportCsv({
      report: 'balance-sheet',
      asOf: '2026-11-27',
      closed: true,
      lines: [
        { account: '1110', name: 'Undrawn card credit lines', type: 'asset', balanceCents: -1_234_567 },
        { account: '2111', name: '=cmd|calc', type: 'liability', balanceCents: 5 },
      ],
      assets: { lines: [], totalCents: -1_234_567 },
      liabilities: { lines: [], totalCents: 5 },
      equity: { lines: [], totalCents: -1_234_572 },
      totals: { assetsCents: -1_234_567, liabilitiesCents: 5, equityCents: -1_234_572, liabilitiesAndEquityCents: -1_234_567 },
      balanced: true,
      customerDeposits: { balanceSheetCents: 5, customerAccountsCents: 5, tied: true },
    });
    expect(csv.split('\r\n')).toEqual([
      reportCsvHeader,
      '1110,Undrawn card credit lines,asset,,,-12345.67',
      "2111,'=cmd|calc,liability,,,0.05",
      'total,Total assets,,,,-12345.67',
      'total,Total liabilities,,,,0.05',
      'total,Total equity,,,,-12345.72',
      'total,Total liabilities and equity,,,,-12345.67',
      '',
    ]);
  });
});
