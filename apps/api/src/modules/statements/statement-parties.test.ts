import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentSuite } from '../../test/payments.ts';
import { ofxdump, parseCsv, pdfText, toolMissing, writePastEntries } from '../../test/statements.ts';

describeEachDatabase('statements say who', (database) => {
  const kit = paymentSuite(database, () => undefined);

  it('names the payee and the sender beside the reason in the PDF, and as the OFX payee, keeping the CSV description the reason', async () => {
    const dana = await kit.customer({ fundCents: 0n });
    await writePastEntries(database(), dana.id, dana.checking.id, [
      { at: '2024-05-02T15:00:00Z', direction: 'in', amountCents: 10_000n, message: 'May pay' },
      { at: '2024-05-03T15:00:00Z', direction: 'out', amountCents: 2_500n, message: 'Rent for May' },
    ]);
    const statement = (format: string) => dana.browser.get(`/api/v1/accounts/${dana.checking.id}/statement?from=2024-05-01&to=2024-05-31&format=${format}`);

    const csv = parseCsv((await statement('csv')).body).slice(1);
    expect(csv.map((line) => line[2])).toEqual(['May pay', 'Rent for May']);

    const ofx = (await statement('ofx')).body;
    expect(ofx).toContain('<NAME>From Employer</NAME><MEMO>May pay (Deposit)</MEMO>');
    expect(ofx).toContain('<NAME>To Payee</NAME><MEMO>Rent for May (Transfer)</MEMO>');
    if (!toolMissing('ofxdump')) {
      const dump = ofxdump(ofx);
      expect(dump.status, dump.stderr).toBe(0);
      expect(dump.stdout).toContain('Name of payee or transaction description: To Payee');
    }

    if (!toolMissing('pdftotext')) {
      const text = pdfText((await statement('pdf')).rawPayload);
      expect(text).toContain('From Employer · May pay');
      expect(text).toContain('To Payee · Rent for May');
    }
  });
});
