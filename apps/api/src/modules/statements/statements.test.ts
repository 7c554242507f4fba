import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, lookupAccounts } from '../../ledger/accounts.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { ownTransfer, paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { csvHeader } from './csv.ts';
import { firstOfMonth, hledgerBalanceCents, ofxdump, parseCsv, pdfText, todayIn, toolMissing } from '../../test/statements.ts';

/** A time zone far from UTC, so that a date in the wrong zone would show. */
const bankTimeZone = 'America/New_York';

describeEachDatabase('account statements', (database) => {
  let app: FastifyInstance;
  const kit = paymentSuite(database, (built) => ({ app } = built), { environment: { RAIL_SPEED: 'instant', BANK_TIMEZONE: bankTimeZone } });

  describe('a month of payments', () => {
    let dana: PayingCustomer;
    const ids: Record<'funding' | 'deposit' | 'own' | 'internal' | 'external' | 'pending', string> = {
      funding: '',
      deposit: '',
      own: '',
      internal: '',
      external: '',
      pending: '',
    };
    let from = '';
    let to = '';
    const statement = (format: string, accountId = dana.checking.id) =>
      dana.browser.get(`/api/v1/accounts/${accountId}/statement?from=${from}&to=${to}&format=${format}`);

    beforeAll(async () => {
      to = todayIn(bankTimeZone);
      from = firstOfMonth(to);
      dana = await kit.customer({ fundCents: 50_000n, firstName: 'Dana', lastName: 'Demo' });
      const erin = await kit.customer({ fundCents: 100_000n, firstName: 'Erin', lastName: 'Example' });
      const [funding] = await database().query<{ id: string }>(`SELECT id FROM payments WHERE to_account_id = $1 AND kind = 'funding'`, [dana.checking.id]);
      ids.funding = funding?.id ?? '';
      ids.deposit = (
        await kit.pay(dana, '/deposits', { accountId: dana.checking.id, fundingSourceId: dana.fundingSourceId, amountCents: 20_000, reason: 'Paycheck' })
      ).json().transfer.id;
      await kit.runJobs();
      ids.own = (await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 5_000, 'To savings'))).json().transfer.id;
      const internal = await kit.payCustomer(erin, dana, { accountName: 'Dana Demo', amountCents: 3_000, message: 'Dinner' });
      ids.internal = internal.json().transfer.id;
      const external = await kit.payOtherBank(dana, { toAccountNumber: '123456789', accountName: 'Landlord', amountCents: 2_500, message: 'Rent, March' });
      ids.external = external.json().transfer.id;
      await kit.runJobs();
      ids.pending = (
        await kit.pay(dana, '/deposits', {
          accountId: dana.checking.id,
          fundingSourceId: dana.fundingSourceId,
          amountCents: 7_000,
          reason: 'Cheque not yet cleared',
        })
      ).json().transfer.id;
    });

    it('lists the completed payments oldest first in CSV, with running balances that close on the ledger balance', async () => {
      const response = await statement('csv');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="statement-${dana.checking.number}-${from}-${to}.csv"`);
      const [header, ...rows] = parseCsv(response.body);
      expect(header?.join(',')).toBe(csvHeader);
      expect(rows).toEqual([
        [to, ids.funding, 'Opening deposit', 'Funding', '500.00', '500.00'],
        [to, ids.deposit, 'Paycheck', 'Deposit', '200.00', '700.00'],
        [to, ids.own, 'To savings', 'Transfer', '-50.00', '650.00'],
        [to, ids.internal, 'Dinner', 'Credit', '30.00', '680.00'],
        [to, ids.external, 'Rent, March', 'Transfer', '-25.00', '655.00'],
      ]);
      expect(response.body).not.toContain(ids.pending);

      const [checking] = await database().query<{ ledger_account_id: string }>('SELECT ledger_account_id FROM customer_accounts WHERE id = $1', [
        dana.checking.id,
      ]);
      const [ledgerAccount] = await lookupAccounts(database(), [checking?.ledger_account_id ?? '']);
      if (!ledgerAccount) throw new Error('no ledger account');
      expect(balanceOf(ledgerAccount).balanceCents).toBe(65_500n);
      expect((await kit.balances(dana)).checking.balanceCents).toBe(65_500);
    });

    it('writes OFX 2 with the bank routing number, the account, every completed payment and the ledger balance', async () => {
      const response = await statement('ofx');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/x-ofx');
      const ofx = response.body;
      expect(ofx.startsWith('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<?OFX OFXHEADER="200" VERSION="220"')).toBe(true);
      expect(ofx).toContain(`<BANKACCTFROM><BANKID>123456780</BANKID><ACCTID>${dana.checking.number}</ACCTID><ACCTTYPE>CHECKING</ACCTTYPE></BANKACCTFROM>`);
      const transactions = [
        ...ofx.matchAll(/<STMTTRN><TRNTYPE>(\w+)<\/TRNTYPE><DTPOSTED>([^<]+)<\/DTPOSTED><TRNAMT>([^<]+)<\/TRNAMT><FITID>([^<]+)<\/FITID>/g),
      ];
      expect(transactions.map((match) => [match[1], match[3], match[4]])).toEqual([
        ['CREDIT', '500.00', ids.funding],
        ['CREDIT', '200.00', ids.deposit],
        ['DEBIT', '-50.00', ids.own],
        ['CREDIT', '30.00', ids.internal],
        ['DEBIT', '-25.00', ids.external],
      ]);
      // New York local time with its offset: -5 in winter, -4 in summer.
      expect(transactions[0]?.[2]).toMatch(new RegExp(`^${to.replaceAll('-', '')}\\d{6}\\.\\d{3}\\[-[45]\\]$`));
      expect(ofx).toMatch(/<LEDGERBAL><BALAMT>655\.00<\/BALAMT><DTASOF>\d{14}\.\d{3}\[0:GMT\]<\/DTASOF><\/LEDGERBAL>/);
      expect(ofx).not.toContain(ids.pending);

      const savings = (await statement('ofx', dana.savings.id)).body;
      expect(savings).toContain('<ACCTTYPE>SAVINGS</ACCTTYPE>');
      expect(savings).toContain(`<TRNTYPE>CREDIT</TRNTYPE>`);
      expect(savings).toContain('<BALAMT>50.00</BALAMT>');
    });

    it('draws a PDF statement with its file name', async () => {
      const response = await statement('pdf');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="statement-${dana.checking.number}-${from}-${to}.pdf"`);
      expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(response.rawPayload.subarray(-6).toString('latin1')).toContain('%%EOF');
    });

    it.skipIf(toolMissing('ofxdump'))('parses in ofxdump (LibOFX, as GnuCash reads it) without an error', async () => {
      const dump = ofxdump((await statement('ofx')).body);
      expect(dump.status, dump.stderr).toBe(0);
      expect(dump.stderr).not.toContain('ERROR');
      expect(dump.stdout).toContain('Ledger balance: 655.00');
      for (const id of Object.values(ids).filter((id) => id !== ids.pending))
        expect(dump.stdout).toContain(`Financial institution's ID for this transaction: ${id}`);
    });

    it.skipIf(toolMissing('hledger'))('imports into hledger with the repository rules, every running balance asserted, to the closing balance', async () => {
      const csv = (await statement('csv')).body;
      expect(hledgerBalanceCents(csv, 0n, from)).toBe(65_500n);
      // A wrong opening balance breaks the first balance assertion: the check above is not vacuous.
      expect(() => hledgerBalanceCents(csv, 1n, from)).toThrow(/balance assertion/);
    });

    it.skipIf(toolMissing('pdftotext'))('prints every transaction, the customer, the account and the totals in the PDF text', async () => {
      const text = pdfText((await statement('pdf')).rawPayload);
      for (const words of [
        'Strongroom Demo Bank',
        'Dana Demo',
        '1 Demo Street, Washington',
        'District of Columbia, United States',
        dana.checking.number,
        `Period ${from} to ${to}`,
      ])
        expect(text).toContain(words);
      for (const description of ['Opening deposit', 'Paycheck', 'To savings', 'Dinner', 'Rent, March']) expect(text).toContain(description);
      expect(text).not.toContain('Cheque not yet cleared');
      expect(text).toMatch(/Opening balance on \S+\s+\$0\.00/);
      expect(text).toMatch(/Total money in\s+\$730\.00/);
      expect(text).toContain('5 completed transactions in this period.');
      expect(text).toMatch(/Total money out\s+-\$75\.00/);
      expect(text).toMatch(/Closing balance at [\d-]+ [\d:]+\s+\$655\.00/);
      expect(text).toContain(formatMoney(-2_500n));
    });
  });

  describe('who may ask and for what', () => {
    it("answers another customer's account exactly like a missing one", async () => {
      const dana = await kit.customer();
      const mallory = await kit.customer();
      const query = 'from=2025-01-01&to=2025-01-31&format=csv';
      const someoneElses = await mallory.browser.get(`/api/v1/accounts/${dana.checking.id}/statement?${query}`);
      const missing = await mallory.browser.get(`/api/v1/accounts/00000000-0000-4000-8000-00000000ffff/statement?${query}`);
      const mangled = await mallory.browser.get(`/api/v1/accounts/not-an-id/statement?${query}`);
      for (const response of [someoneElses, missing, mangled]) {
        expect(response.statusCode).toBe(404);
        expect({ ...response.json().error, requestId: undefined }).toEqual({ code: 'not_found', message: 'No such account', requestId: undefined });
      }
    });

    it('asks for sign-in first', async () => {
      const dana = await kit.customer();
      const response = await app.inject({ method: 'GET', url: `/api/v1/accounts/${dana.checking.id}/statement?from=2025-01-01&to=2025-01-31&format=pdf` });
      expect(response.statusCode).toBe(401);
    });

    it('refuses a range that ends before it starts, runs over 366 days, or names no calendar date, and an unknown format', async () => {
      const dana = await kit.customer();
      const ask = (query: string) => dana.browser.get(`/api/v1/accounts/${dana.checking.id}/statement?${query}`);
      const refused: Array<[string, string]> = [
        ['from=2025-02-01&to=2025-01-31&format=csv', 'to'],
        ['from=2024-01-01&to=2025-01-01&format=csv', 'to'],
        ['from=2025-02-30&to=2025-03-01&format=csv', 'from'],
        ['from=2025-01-01&to=2025-13-01&format=csv', 'to'],
        ['from=2025-1-1&to=2025-01-31&format=csv', 'from'],
        ['from=2025-01-01&to=2025-01-31&format=xlsx', 'format'],
        ['to=2025-01-31&format=csv', 'from'],
      ];
      for (const [query, field] of refused) {
        const response = await ask(query);
        expect(response.statusCode, query).toBe(400);
        expect(response.json().error.code).toBe('validation_failed');
        expect(Object.keys(response.json().error.fields), query).toContain(field);
      }
      expect((await ask('from=2024-01-01&to=2024-12-31&format=csv')).statusCode, 'a leap year is 366 days').toBe(200);
      expect((await ask('from=2025-01-31&to=2025-01-31&format=csv')).statusCode, 'one day').toBe(200);
    });
  });
});
