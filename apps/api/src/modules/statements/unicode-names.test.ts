import { beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { readablePdfText } from '../../test/pdf-text.ts';
import { firstOfMonth, pdfText, todayIn, toolMissing } from '../../test/statements.ts';

/** Western European (Helvetica prints them), Nordic (Ø, å: Helvetica too) and Chinese (embedded Noto Sans SC). */
const names = ['José Müller', 'Zoë Ødegård', '李小龙'] as const;
/** Beyond Windows-1252 in Latin, Greek and Cyrillic script: embedded Noto Sans. */
const moreScripts = ['Łukasz Dvořák', 'Νίκος Παπαδόπουλος', 'Анна Иванова'] as const;

/**
 * Right-to-left names and messages (embedded IBM Plex Sans Arabic and Noto Sans Hebrew) and emoji
 * (embedded Noto Emoji), alone and mixed with accented Latin and Chinese: a name and the message
 * paid with it.
 */
const rightToLeft = [
  ['Zoë 🐝 نور Núñez', 'Rainy day 🌧️ קרן'],
  ['نور الهدى', 'شكرا على العشاء'],
  ['דוד כהן', 'Lunch with דוד כהן and 李小龙 👩‍💻'],
] as const;

/** pdftotext lays a line out with spaces; the names are compared with single spaces. */
const squeezed = (text: string) => text.replace(/[ \t]+/g, ' ');

describeEachDatabase('statements and receipts print every name as written', (database) => {
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ config } = built), { environment: { RAIL_SPEED: 'instant' } });
  let lee: PayingCustomer;
  const receiptLines: string[] = [];
  const rightToLeftReceiptLines: string[] = [];

  beforeAll(async () => {
    lee = await kit.customer({ fundCents: 500_000n, firstName: '小龙', lastName: '李' });
    for (const [index, name] of [...names, ...moreScripts].entries()) {
      const response = await kit.payOtherBank(lee, {
        toAccountNumber: `98765432${index}`,
        accountName: name,
        amountCents: 1_000 + index,
        message: `Dinner with ${name}`,
      });
      expect(response.statusCode, response.body).toBe(201);
      receiptLines.push(`${response.json().transfer.id}:out`);
    }
    for (const [index, [name, message]] of rightToLeft.entries()) {
      const response = await kit.payOtherBank(lee, { toAccountNumber: `87654321${index}`, accountName: name, amountCents: 2_000 + index, message });
      expect(response.statusCode, response.body).toBe(201);
      rightToLeftReceiptLines.push(`${response.json().transfer.id}:out`);
    }
    await kit.runJobs();
  });

  const statementPdf = async () => {
    const to = todayIn(config.bankTimeZone);
    const response = await lee.browser.get(`/api/v1/accounts/${lee.checking.id}/statement?from=${firstOfMonth(to)}&to=${to}&format=pdf`);
    expect(response.statusCode, response.body).toBe(200);
    return response.rawPayload;
  };

  describe.skipIf(toolMissing('pdftotext'))('the text pdftotext reads back', () => {
    it("prints the holder's Chinese name and every payee's name in the statement, with no '?' in their place", async () => {
      const text = squeezed(pdfText(await statementPdf()));
      expect(text).toContain('小龙 李');
      for (const name of [...names, ...moreScripts]) expect(text).toContain(`Dinner with ${name}`);
      expect(text).not.toContain('?');
    });

    it('prints Arabic, Hebrew and emoji messages in the statement so they read back in logical order', async () => {
      const text = readablePdfText(await statementPdf());
      for (const [, message] of rightToLeft) expect(text).toContain(message.normalize('NFKC'));
      expect(text).not.toContain('?');
    });

    it("prints a holder's name mixing Latin, emoji and Arabic as written", async () => {
      const zoe = await kit.customer({ fundCents: 10_000n, firstName: 'Zoë 🐝 نور', lastName: 'Núñez' });
      const to = todayIn(config.bankTimeZone);
      const response = await zoe.browser.get(`/api/v1/accounts/${zoe.checking.id}/statement?from=${firstOfMonth(to)}&to=${to}&format=pdf`);
      expect(response.statusCode, response.body).toBe(200);
      const text = readablePdfText(response.rawPayload);
      expect(text).toContain('Zoë 🐝 نور Núñez'.normalize('NFKC'));
      expect(text).not.toContain('?');
    });

    it('prints Arabic, Hebrew and emoji names and messages on their receipts so they read back in logical order', async () => {
      for (const [index, [name, message]] of rightToLeft.entries()) {
        const response = await lee.browser.get(`/api/v1/transactions/${encodeURIComponent(rightToLeftReceiptLines[index] ?? '')}/receipt`);
        expect(response.statusCode, response.body).toBe(200);
        const text = readablePdfText(response.rawPayload);
        expect(text).toContain(name.normalize('NFKC'));
        expect(text).toContain(message.normalize('NFKC'));
        expect(text.replace('Is this receipt genuine?', '')).not.toContain('?');
      }
    });

    it('prints each name on its receipt', async () => {
      for (const [index, name] of [...names, ...moreScripts].entries()) {
        const response = await lee.browser.get(`/api/v1/transactions/${encodeURIComponent(receiptLines[index] ?? '')}/receipt`);
        expect(response.statusCode, response.body).toBe(200);
        const text = squeezed(pdfText(response.rawPayload));
        expect(text).toContain(name);
        expect(text).toContain(`Dinner with ${name}`);
        // The receipt's own question is the only '?' it prints.
        expect(text.replace('Is this receipt genuine?', '')).not.toContain('?');
      }
    });
  });

  it('embeds only subsets of the fonts it needs, so the files stay small', async () => {
    const statement = await statementPdf();
    const raw = statement.toString('latin1');
    // pdfkit names a subset with a six-letter tag: ABCDEF+NotoSansSC-Regular.
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansSC-Regular/);
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSans-Regular/);
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+IBMPlexSansArabic/);
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansHebrew-Regular/);
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoEmoji-Regular/);
    expect(statement.length).toBeLessThan(120_000);
    const receipt = (await lee.browser.get(`/api/v1/transactions/${encodeURIComponent(receiptLines[2] ?? '')}/receipt`)).rawPayload;
    expect(receipt.length).toBeLessThan(120_000);
  });

  it('embeds nothing when every character is one Helvetica prints', async () => {
    const dana = await kit.customer({ fundCents: 10_000n, firstName: 'José', lastName: 'Müller' });
    const to = todayIn(config.bankTimeZone);
    const response = await dana.browser.get(`/api/v1/accounts/${dana.checking.id}/statement?from=${firstOfMonth(to)}&to=${to}&format=pdf`);
    const raw = response.rawPayload.toString('latin1');
    expect(raw).not.toContain('FontFile2');
    expect(raw).toContain('/BaseFont /Helvetica');
  });
});
