import { beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { statementCsv } from './csv.ts';
import { openStatement, type Statement } from './service.ts';
import { hledgerBalanceCents, ofxdump, parseCsv, pdfText, todayIn, toolMissing, writePastEntries } from '../../test/statements.ts';

const bankTimeZone = 'America/New_York';

async function text(chunks: AsyncGenerator<string, void, undefined>): Promise<string> {
  let result = '';
  for await (const chunk of chunks) result += chunk;
  return result;
}

async function linesOf(statement: Statement): Promise<string[][]> {
  return parseCsv(await text(statementCsv(statement))).slice(1);
}

describeEachDatabase('statement periods and balances', (database) => {
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ config } = built), { environment: { BANK_TIMEZONE: bankTimeZone } });
  let dana: PayingCustomer;

  beforeAll(async () => {
    dana = await kit.customer({ fundCents: 0n });
    // In the order the ledger sequenced them. The two around midnight on 1 March (New York) are
    // out of date order, by less than a minute, as two concurrent ledger transactions can be.
    await writePastEntries(database(), dana.id, dana.checking.id, [
      { at: '2024-01-10T15:00:00Z', direction: 'in', amountCents: 100_000n, message: 'January pay' },
      { at: '2024-01-20T15:00:00Z', direction: 'out', amountCents: 30_000n, message: 'January rent' },
      { at: '2024-02-01T04:30:00Z', direction: 'in', amountCents: 5_000n, message: 'Late January refund' },
      { at: '2024-02-01T05:30:00Z', direction: 'out', amountCents: 2_000n, message: 'First of February' },
      { at: '2024-02-15T15:00:00Z', direction: 'in', amountCents: 50_000n, message: 'February pay' },
      { at: '2024-03-01T05:00:30Z', direction: 'out', amountCents: 1_000n, message: 'March coffee' },
      { at: '2024-03-01T04:59:50Z', direction: 'out', amountCents: 4_000n, message: 'Leap day' },
      { at: '2024-03-10T15:00:00Z', direction: 'in', amountCents: 1_000n, message: 'March interest' },
    ]);
  });

  const open = (from: string, to: string, options: { batchSize?: number; openingChunkSize?: number } = {}) =>
    openStatement(database(), config, dana.id, dana.checking.id, { from, to }, options);

  it('opens on the balance at the start of the period and dates lines in the bank time zone', async () => {
    const january = await open('2024-01-01', '2024-01-31');
    expect(january.openingBalanceCents).toBe(0n);
    expect((await linesOf(january)).map((line) => [line[0], line[2], line[4], line[5]])).toEqual([
      ['2024-01-10', 'January pay', '1000.00', '1000.00'],
      ['2024-01-20', 'January rent', '-300.00', '700.00'],
      ['2024-01-31', 'Late January refund', '50.00', '750.00'],
    ]);

    const february = await open('2024-02-01', '2024-02-29');
    expect(february.openingBalanceCents).toBe(75_000n);
    expect((await linesOf(february)).map((line) => [line[0], line[2], line[4], line[5]])).toEqual([
      ['2024-02-01', 'First of February', '-20.00', '730.00'],
      ['2024-02-15', 'February pay', '500.00', '1230.00'],
      ['2024-02-29', 'Leap day', '-40.00', '1190.00'],
    ]);

    const march = await open('2024-03-01', '2024-03-31');
    expect(march.openingBalanceCents).toBe(119_000n);
    expect((await linesOf(march)).map((line) => [line[2], line[5]])).toEqual([
      ['March coffee', '1180.00'],
      ['March interest', '1190.00'],
    ]);
  });

  it('reads the same statement one line and two transfers at a time as in one batch', async () => {
    for (const [from, to] of [
      ['2024-01-01', '2024-12-31'],
      ['2024-02-01', '2024-02-29'],
      ['2024-03-01', '2024-03-01'],
    ] as const) {
      const whole = await text(statementCsv(await open(from, to)));
      const small = await open(from, to, { batchSize: 1, openingChunkSize: 2 });
      expect(small.openingBalanceCents).toBe((await open(from, to)).openingBalanceCents);
      expect(await text(statementCsv(small))).toBe(whole);
    }
  });

  it('writes the file a batch at a time, never the whole statement at once', async () => {
    const chunks: string[] = [];
    for await (const chunk of statementCsv(await open('2024-01-01', '2024-12-31', { batchSize: 3 }))) chunks.push(chunk);
    // The header, then the eight lines in batches of three.
    expect(chunks.map((chunk) => chunk.split('\r\n').length - 1)).toEqual([1, 3, 3, 2]);
  });

  it('totals money in and out, and closes on the ledger balance for a period that ends today', async () => {
    const year = await open('2024-01-01', '2024-12-31');
    let next = await year.batches.next();
    while (!next.done) next = await year.batches.next();
    expect(next.value).toEqual({ lineCount: 8, moneyInCents: 156_000n, moneyOutCents: 37_000n, closingBalanceCents: 119_000n });

    const today = todayIn(bankTimeZone);
    const yearAgo = new Date(Date.parse(`${today}T00:00:00Z`) - 365 * 86_400_000).toISOString().slice(0, 10);
    const upToNow = await open(yearAgo, today);
    expect(upToNow.openingBalanceCents).toBe(119_000n);
    expect(await linesOf(upToNow)).toEqual([]);
    expect((await kit.balances(dana)).checking.balanceCents).toBe(119_000);
  });

  describe('an empty month', () => {
    let newcomer: PayingCustomer;
    const ask = (who: PayingCustomer, from: string, to: string, format: string) =>
      who.browser.get(`/api/v1/accounts/${who.checking.id}/statement?from=${from}&to=${to}&format=${format}`);

    beforeAll(async () => {
      newcomer = await kit.customer({ fundCents: 0n });
    });

    it('is still a whole file in every format, opening and closing on the same balance', async () => {
      const csv = await ask(dana, '2023-06-01', '2023-06-30', 'csv');
      expect(csv.statusCode).toBe(200);
      expect(csv.body).toBe('date,transferId,description,category,amount,balance\r\n');
      const ofx = (await ask(dana, '2024-04-01', '2024-04-30', 'ofx')).body;
      expect(ofx).not.toContain('<STMTTRN>');
      expect(ofx).toContain('<BANKTRANLIST><DTSTART>20240401040000.000[0:GMT]</DTSTART><DTEND>20240501040000.000[0:GMT]</DTEND>');
      expect(ofx).toContain('<LEDGERBAL><BALAMT>1190.00</BALAMT><DTASOF>20240501040000.000[0:GMT]</DTASOF></LEDGERBAL>');
      expect(ofx.trimEnd().endsWith('</OFX>')).toBe(true);
      const pdf = await ask(newcomer, '2024-04-01', '2024-04-30', 'pdf');
      expect(pdf.statusCode).toBe(200);
      expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    });

    it.skipIf(toolMissing('ofxdump'))('parses in ofxdump', async () => {
      const dump = ofxdump((await ask(newcomer, '2024-04-01', '2024-04-30', 'ofx')).body);
      expect(dump.status, dump.stderr).toBe(0);
      expect(dump.stderr).not.toContain('ERROR');
      expect(dump.stdout).toContain('Ledger balance: 0.00');
    });

    it.skipIf(toolMissing('hledger'))('imports into hledger at the opening balance', async () => {
      expect(hledgerBalanceCents((await ask(dana, '2024-04-01', '2024-04-30', 'csv')).body, 119_000n, '2024-04-01')).toBe(119_000n);
      expect(hledgerBalanceCents((await ask(dana, '2024-02-01', '2024-02-29', 'csv')).body, 75_000n, '2024-02-01')).toBe(119_000n);
    });

    it.skipIf(toolMissing('pdftotext'))('says so in the PDF, with the balances', async () => {
      const printed = pdfText((await ask(dana, '2024-04-01', '2024-04-30', 'pdf')).rawPayload);
      expect(printed).toContain('No completed transactions in this period.');
      expect(printed).toMatch(/Opening balance on 2024-04-01\s+\$1,190\.00/);
      expect(printed).toMatch(/Closing balance on 2024-04-30\s+\$1,190\.00/);
    });
  });

  it('keeps a description that looks like a spreadsheet formula as text in CSV, quotes commas, quotes and line breaks, and escapes OFX markup', async () => {
    const erin = await kit.customer({ fundCents: 0n });
    await writePastEntries(database(), erin.id, erin.checking.id, [
      { at: '2024-05-02T15:00:00Z', direction: 'in', amountCents: 10_000n, message: '=HYPERLINK("http://evil.example","Click")' },
      { at: '2024-05-03T15:00:00Z', direction: 'out', amountCents: 100n, message: '+1+2' },
      { at: '2024-05-04T15:00:00Z', direction: 'out', amountCents: 100n, message: '@SUM(A1)' },
      { at: '2024-05-05T15:00:00Z', direction: 'out', amountCents: 100n, message: 'Plain "quoted", and\nsplit' },
      { at: '2024-05-06T15:00:00Z', direction: 'out', amountCents: 100n, message: 'Fish & Chips <Ltd>, café' },
    ]);
    const response = await erin.browser.get(`/api/v1/accounts/${erin.checking.id}/statement?from=2024-05-01&to=2024-05-31&format=csv`);
    expect(response.body).toContain(`,"'=HYPERLINK(""http://evil.example"",""Click"")",Deposit,100.00,100.00\r\n`);
    const lines = parseCsv(response.body).slice(1);
    expect(lines.map((line) => line[2])).toEqual([
      '\'=HYPERLINK("http://evil.example","Click")',
      "'+1+2",
      "'@SUM(A1)",
      'Plain "quoted", and\nsplit',
      'Fish & Chips <Ltd>, café',
    ]);
    expect(lines.map((line) => line[4])).toEqual(['100.00', '-1.00', '-1.00', '-1.00', '-1.00']);

    const ofx = (await erin.browser.get(`/api/v1/accounts/${erin.checking.id}/statement?from=2024-05-01&to=2024-05-31&format=ofx`)).body;
    // NAME is the payee (statement-parties.test.ts); the reason is in MEMO.
    expect(ofx).toContain('<MEMO>Fish &amp; Chips &lt;Ltd&gt;, café (Transfer)</MEMO>');
    expect(ofx).toContain('<MEMO>Plain "quoted", and split (Transfer)</MEMO>');
    if (!toolMissing('ofxdump')) {
      const dump = ofxdump(ofx);
      expect(dump.status, dump.stderr).toBe(0);
      expect(dump.stderr).not.toContain('ERROR');
      expect(dump.stdout).toContain('Fish & Chips <Ltd>, café (Transfer)');
    }
  });
});
