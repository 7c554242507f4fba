import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { TestBrowser } from '../../test/client.ts';
import { ownTransfer, paymentSuite, validExternal, type PayingCustomer } from '../../test/payments.ts';
import { receiptVerificationsPerMinutePerAddress } from './routes.ts';

/** Debian's pdftotext (poppler-utils): the text a reader or a screen reader gets out of the PDF. */
const pdftotextMissing = spawnSync('pdftotext', ['-v']).error !== undefined;
const skipPdfText = pdftotextMissing && process.env.CI !== 'true';
if (skipPdfText) console.warn('receipts.test.ts: pdftotext (Debian package poppler-utils) is missing, so the receipt text checks are skipped');

function pdfText(pdf: Buffer): string {
  const result = spawnSync('pdftotext', ['-layout', '-', '-'], { input: pdf });
  if (result.error) throw result.error;
  expect(result.status, result.stderr.toString()).toBe(0);
  return result.stdout.toString('utf8');
}

describeEachDatabase('receipts', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built), { environment: { RAIL_SPEED: 'instant', PUBLIC_URL: 'https://bank.example' } });

  const receiptOf = (who: PayingCustomer, lineId: string) => who.browser.get(`/api/v1/transactions/${encodeURIComponent(lineId)}/receipt`);
  const referenceOf = async (who: PayingCustomer, lineId: string): Promise<string> =>
    (await who.browser.get(`/api/v1/transactions/${encodeURIComponent(lineId)}`)).json().receiptReference;
  const verify = (reference: string, browser = new TestBrowser(app)) => browser.get(`/api/v1/receipts/verify/${encodeURIComponent(reference)}`);

  async function externalTransfer(dana: PayingCustomer): Promise<string> {
    const response = await kit.payOtherBank(dana, {
      toAccountNumber: '987654321',
      accountName: 'Frank Landlord',
      amountCents: 123_456,
      message: 'Rent for May',
    });
    return `${response.json().transfer.id}:out`;
  }

  describe('GET /transactions/{id}/receipt', () => {
    it('downloads a transfer receipt as a PDF attachment named after its reference, carrying the reference', async () => {
      const dana = await kit.customer({ fundCents: 500_000n });
      const lineId = await externalTransfer(dana);
      const response = await receiptOf(dana, lineId);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['cache-control']).toBe('no-store');
      const reference = await referenceOf(dana, lineId);
      expect(response.headers['content-disposition']).toBe(`attachment; filename="receipt-${reference}.pdf"`);
      const pdf = response.rawPayload;
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.toString('latin1')).toContain(reference);
    });

    it.skipIf(skipPdfText)(
      'prints TRANSACTION RECEIPT, the bank, amount, date, payee account, route number, reason, medium, reference and the verification address',
      async () => {
        const dana = await kit.customer({ fundCents: 500_000n });
        const lineId = await externalTransfer(dana);
        const reference = await referenceOf(dana, lineId);
        const text = pdfText((await receiptOf(dana, lineId)).rawPayload);
        expect(text).toContain('TRANSACTION RECEIPT');
        expect(text).not.toMatch(/RECIEPT/i);
        expect(text).toContain(config.bankName);
        for (const expected of [
          '$1,234.56',
          '987654321',
          'Frank Landlord',
          validExternal.routeNumber,
          'Rent for May',
          'ACH',
          reference,
          `https://bank.example/receipts/verify/${reference}`,
        ]) {
          expect(text, expected).toContain(expected);
        }
        // In the bank's time zone (BANK_TIME_ZONE, America/New_York unless set).
        expect(text).toMatch(/Date\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2} America\/New_York/);
      },
    );

    it.skipIf(skipPdfText)('embeds the QR code as an image (pdfimages lists it), square as a QR code is', async () => {
      const dana = await kit.customer({ fundCents: 500_000n });
      const lineId = await externalTransfer(dana);
      const directory = mkdtempSync(path.join(tmpdir(), 'receipt-'));
      const file = path.join(directory, 'receipt.pdf');
      writeFileSync(file, (await receiptOf(dana, lineId)).rawPayload);
      // pdfimages -list: a header of two lines, then one line per image with page, number, type, width, height.
      const listing = spawnSync('pdfimages', ['-list', file], { encoding: 'utf8' });
      // A PNG with transparency also lists its soft mask ('smask'); the picture itself is the 'image'.
      const images = listing.stdout
        .trim()
        .split('\n')
        .slice(2)
        .map((line) => line.trim().split(/\s+/))
        .filter((columns) => columns[2] === 'image');
      expect(images).toHaveLength(1);
      const [, , , width, height] = images[0] ?? [];
      expect(Number(width)).toBeGreaterThan(20);
      expect(width).toBe(height);
    });

    it.skipIf(skipPdfText)('prints a deposit receipt with deposit id, date, amount and status', async () => {
      const dana = await kit.customer({ fundCents: 0n });
      const deposit = (
        await kit.pay(dana, '/deposits', { accountId: dana.checking.id, fundingSourceId: dana.fundingSourceId, amountCents: 7_500, reason: 'Cheque from Gran' })
      ).json().transfer;
      const text = pdfText((await receiptOf(dana, `${deposit.id}:in`)).rawPayload);
      expect(text).toContain('TRANSACTION RECEIPT');
      expect(text).toMatch(new RegExp(`Deposit ID\\s+${deposit.id}`));
      expect(text).toMatch(/Amount\s+\$75\.00/);
      expect(text).toMatch(/Status\s+Pending/);
      expect(text).toMatch(/Date\s+\d{4}-\d{2}-\d{2}/);
      expect(text).toContain(await referenceOf(dana, `${deposit.id}:in`));
    });

    it.skipIf(skipPdfText)('never prints a full card number on a card payment receipt', async () => {
      const dana = await kit.customer({ fundCents: 50_000n });
      const card = (await kit.payCard(dana, { cardNumber: '4111111111111111', accountName: 'Gina', amountCents: 1_500, message: 'card' })).json().transfer;
      const text = pdfText((await receiptOf(dana, `${card.id}:out`)).rawPayload);
      expect(text).toContain('1111');
      expect(text.replace(/\s/g, '')).not.toContain('4111111111111111');
    });

    it('answers another customer receipt exactly like a missing one', async () => {
      const dana = await kit.customer({ fundCents: 500_000n });
      const mallory = await kit.customer();
      const lineId = await externalTransfer(dana);
      const theirs = await receiptOf(mallory, lineId);
      const missing = await receiptOf(mallory, `${randomUUID()}:out`);
      expect(theirs.statusCode).toBe(404);
      expect(missing.statusCode).toBe(404);
      expect(theirs.json().error.code).toBe('not_found');
      expect({ ...theirs.json().error, requestId: null }).toEqual({ ...missing.json().error, requestId: null });
      expect(theirs.body).not.toContain('Frank');
      expect((await new TestBrowser(app).get(`/api/v1/transactions/${encodeURIComponent(lineId)}/receipt`)).statusCode).toBe(401);
    });
  });

  describe('GET /receipts/verify/{reference}', () => {
    it('confirms a genuine receipt without a session, showing amount, status, date, kind and masked accounts only', async () => {
      const dana = await kit.customer({ fundCents: 500_000n });
      const lineId = await externalTransfer(dana);
      const reference = await referenceOf(dana, lineId);
      const response = await verify(reference);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        reference,
        genuine: true,
        amountCents: 123_456,
        status: 'pending',
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        kind: 'external',
        fromAccount: `••••${dana.checking.number.slice(-4)}`,
        toAccount: '••••4321',
      });
      expect(response.body).not.toContain(dana.checking.number);
      expect(response.body).not.toContain('Frank');
      expect(response.body).not.toContain('Rent');
    });

    it('shows the status as it is now, once the payment has settled', async () => {
      const dana = await kit.customer({ fundCents: 500_000n });
      const lineId = await externalTransfer(dana);
      const reference = await referenceOf(dana, lineId);
      await kit.runJobs();
      expect((await verify(reference)).json().status).toBe('completed');
    });

    it('forgives lower case, spaces, missing dashes and letters that look like digits', async () => {
      const dana = await kit.customer({ fundCents: 50_000n });
      const transfer = (await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 100, 'x'))).json().transfer;
      const reference = await referenceOf(dana, `${transfer.id}:in`);
      const typed = reference.toLowerCase().replaceAll('-', ' ').replaceAll('0', 'o').replaceAll('1', 'l');
      expect((await verify(typed)).json()).toMatchObject({
        reference,
        genuine: true,
        kind: 'own',
        fromAccount: `••••${dana.checking.number.slice(-4)}`,
        toAccount: `••••${dana.savings.number.slice(-4)}`,
      });
    });

    it('answers an unknown or malformed reference with 404', async () => {
      for (const reference of ['ABCD-EFGH-JKMN-PQRS-TVWX', 'not a reference', 'U'.repeat(20)]) {
        const response = await verify(reference);
        expect(response.statusCode, reference).toBe(404);
        expect(response.json().error.code).toBe('not_found');
      }
    });

    it('never shows the recipient receipt the payer account', async () => {
      const dana = await kit.customer({ fundCents: 50_000n, firstName: 'Dana', lastName: 'Demo' });
      const erin = await kit.customer({ fundCents: 0n, firstName: 'Erin', lastName: 'Example' });
      const gift = (await kit.payCustomer(dana, erin, { accountName: 'Erin Example', amountCents: 3_000, message: 'gift' })).json().transfer;
      const erinsReference = await referenceOf(erin, `${gift.id}:in`);
      const danasReference = await referenceOf(dana, `${gift.id}:out`);
      expect(erinsReference).not.toBe(danasReference);
      expect((await verify(erinsReference)).json()).toMatchObject({
        fromAccount: null,
        toAccount: `••••${erin.checking.number.slice(-4)}`,
        amountCents: 3_000,
        kind: 'internal',
      });
      expect((await verify(danasReference)).json()).toMatchObject({
        fromAccount: `••••${dana.checking.number.slice(-4)}`,
        toAccount: `••••${erin.checking.number.slice(-4)}`,
      });
    });

    it('limits how often one address may ask', async () => {
      const browser = new TestBrowser(app);
      for (let index = 0; index < receiptVerificationsPerMinutePerAddress; index += 1) {
        expect((await verify('ABCD-EFGH-JKMN-PQRS-TVWX', browser)).statusCode).toBe(404);
      }
      const limited = await verify('ABCD-EFGH-JKMN-PQRS-TVWX', browser);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('rate_limited');
      expect((await verify('ABCD-EFGH-JKMN-PQRS-TVWX')).statusCode).toBe(404);
    });
  });
});
