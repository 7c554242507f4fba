import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { dataExportFiles, dataExportsPerHour } from '@strongroom/contracts/data-export.ts';
import type { Config } from '../../config.ts';
import { isLuhnValid } from '../cards/card-numbers.ts';
import { cardSuite } from '../../test/cards.ts';
import { TestBrowser } from '../../test/client.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { staffBrowser } from '../../test/staff.ts';
import { otherBankPayee, ownTransfer, type PayingCustomer } from '../../test/payments.ts';
import { parseCsv, toolMissing, writePastEntries } from '../../test/statements.ts';
import { csvHeader } from '../statements/csv.ts';

/** The onboarded test customer's identity number (test/customers.ts through create-onboarded-customer.ts). */
const testIdNumber = '000-00-0000';

function unzip(zip: Buffer): Record<string, string> {
  return Object.fromEntries(Object.entries(unzipSync(new Uint8Array(zip))).map(([name, bytes]) => [name, Buffer.from(bytes).toString('utf8')]));
}

/** Debian's unzip lists and tests the archive: a zip any tool opens, not only the library that wrote it. */
function unzipTest(zip: Buffer): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'strongroom-export-'));
  try {
    const file = path.join(directory, 'export.zip');
    writeFileSync(file, zip);
    return execFileSync('unzip', ['-t', file], { encoding: 'utf8' });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

describeEachDatabase('GET /me/export', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = cardSuite(database, (built) => ({ app, config } = built), { environment: { RAIL_SPEED: 'instant', BANK_TIMEZONE: 'America/New_York' } });

  const exportOf = (who: PayingCustomer) => who.browser.get('/api/v1/me/export');

  describe('a customer with accounts, a card, payments and notifications', () => {
    let zoe: PayingCustomer;
    let other: PayingCustomer;
    let pan = '';
    let cvv = '';
    let transferId = '';
    let response: Awaited<ReturnType<typeof exportOf>>;
    let files: Record<string, string>;

    beforeAll(async () => {
      zoe = await kit.customer({ fundCents: 300_000n });
      await database().query(`UPDATE customers SET first_name = 'Zoë', last_name = 'Ødegård' WHERE id = $1`, [zoe.id]);
      other = await kit.customer({ fundCents: 100_000n });
      const card = await kit.activeCard(zoe);
      const revealed = await kit.reveal(zoe, card.id);
      pan = revealed.number;
      cvv = revealed.cvv;
      const paid = await kit.pay(zoe, '/transfers', ownTransfer(zoe.checking.id, zoe.savings.id, 1_234, '=SUM(A1:A2), "quoted"'));
      expect(paid.statusCode, paid.body).toBe(201);
      transferId = paid.json().transfer.id;
      await kit.pay(other, '/transfers', ownTransfer(other.checking.id, other.savings.id, 777, 'Not Zoë’s'));
      const payee = await zoe.browser.post('/api/v1/beneficiaries', otherBankPayee);
      expect(payee.statusCode, payee.body).toBe(201);
      const opened = await zoe.browser.post('/api/v1/messages', { subject: 'My card', text: 'Is my card <b>on its way</b>?' });
      expect(opened.statusCode, opened.body).toBe(201);
      const { browser: support } = await staffBrowser(app, database(), config, 'support');
      const answered = await support.post(`/api/v1/staff/messages/${opened.json().thread.id}/reply`, { text: 'It is active now.' });
      expect(answered.statusCode, answered.body).toBe(200);
      expect((await other.browser.post('/api/v1/messages', { subject: 'Someone else’s subject', text: 'Not Zoë’s message' })).statusCode).toBe(201);
      response = await exportOf(zoe);
      expect(response.statusCode, response.body).toBe(200);
      files = unzip(response.rawPayload);
    });

    it('answers a dated zip attachment that unzip reads without an error', () => {
      expect(response.headers['content-type']).toBe('application/zip');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.zip"$/);
      if (!toolMissing('unzip')) expect(unzipTest(response.rawPayload)).toContain('No errors detected');
    });

    it('holds README.txt, profile.json, accounts.json, a transactions file per account, loans.json, cards.json, linked-banks.json, referrals.json, notifications.json, messages.json and audit.json', () => {
      expect(Object.keys(files).sort()).toEqual(
        [
          'README.txt',
          'profile.json',
          'accounts.json',
          `accounts/${zoe.checking.number}/transactions.csv`,
          `accounts/${zoe.savings.number}/transactions.csv`,
          'loans.json',
          'cards.json',
          'linked-banks.json',
          'referrals.json',
          'notifications.json',
          'messages.json',
          'audit.json',
        ].sort(),
      );
      for (const file of dataExportFiles) expect(files['README.txt']).toContain(file.name);
      for (const name of Object.keys(files).filter((name) => name.endsWith('.json'))) expect(() => JSON.parse(files[name] ?? ''), name).not.toThrow();
    });

    it('writes the profile with the identity number masked', () => {
      const profile = JSON.parse(files['profile.json'] ?? '');
      expect(profile.customer).toMatchObject({
        id: zoe.id,
        firstName: 'Zoë',
        lastName: 'Ødegård',
        phoneNumber: zoe.phone,
        emailVerified: true,
        phoneVerified: true,
      });
      expect(profile.identity).toMatchObject({ status: 'approved', idNumberMasked: '••••0000' });
    });

    it('lists the accounts with ledger balances, the card by its last four digits only, and the saved payees', () => {
      const accounts = JSON.parse(files['accounts.json'] ?? '');
      expect(accounts.accounts).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            id: zoe.checking.id,
            number: zoe.checking.number,
            type: 'checking',
            transactionsFile: `accounts/${zoe.checking.number}/transactions.csv`,
          }),
          expect.objectContaining({ id: zoe.savings.id, number: zoe.savings.number, type: 'savings', balanceCents: 50_000 + 1_234 }),
        ]),
      );
      expect(accounts.cards).toEqual([expect.objectContaining({ last4: pan.slice(-4), status: 'active' })]);
      expect(Object.keys(accounts.cards[0])).not.toContain('cvv');
      expect(Object.keys(accounts.cards[0])).not.toContain('number');
      expect(accounts.payees).toEqual([expect.objectContaining({ accountName: 'Ada Lovelace', accountNumber: '987654321', bankType: 'otherbank' })]);
    });

    it("writes each account's completed transactions in the statement CSV's columns, oldest first, to the ledger balance", () => {
      const [header, ...rows] = parseCsv(files[`accounts/${zoe.savings.number}/transactions.csv`] ?? '');
      expect(header?.join(',')).toBe(csvHeader);
      expect(rows.map((row) => row.slice(1))).toEqual([
        [expect.any(String), 'Savings', 'Credit', '500.00', '500.00'],
        [transferId, `'=SUM(A1:A2), "quoted"`, 'Credit', '12.34', '512.34'],
      ]);
      const checking = parseCsv(files[`accounts/${zoe.checking.number}/transactions.csv`] ?? '');
      expect(checking.at(-1)?.[5]).toBe('2487.66');
    });

    it('writes the notifications, the secure messages with their replies and the security events of this customer', () => {
      const events = JSON.parse(files['audit.json'] ?? '').events as { action: string }[];
      expect(events.map((event) => event.action)).toContain('card.revealed');
      const notifications = JSON.parse(files['notifications.json'] ?? '').notifications as { text: string }[];
      expect(Array.isArray(notifications)).toBe(true);
      const threads = JSON.parse(files['messages.json'] ?? '').threads as { subject: string; entries: { author: string; text: string }[] }[];
      expect(threads).toEqual([
        expect.objectContaining({
          subject: 'My card',
          entries: [
            expect.objectContaining({ author: 'customer', text: 'Is my card <b>on its way</b>?' }),
            expect.objectContaining({ author: 'bank', text: 'It is active now.' }),
          ],
        }),
      ]);
      // Staff approved the card and answered the message: their actions are not the customer's security events.
      expect(events.map((event) => event.action).filter((action) => /^(staff\.|card\.approved|messages\.reply)/.test(action))).toEqual([]);
    });

    it('carries no password hash, card number, security code field, identity number or session cookie anywhere in its bytes', async () => {
      const [row] = await database().query<{ password_hash: string }>('SELECT password_hash FROM customers WHERE id = $1', [zoe.id]);
      const everything = Object.values(files).join('\n');
      const raw = response.rawPayload.toString('latin1');
      for (const secret of [
        row?.password_hash ?? 'no hash',
        pan,
        testIdNumber,
        zoe.browser.cookies.session ?? 'no session',
        zoe.browser.cookies.csrf ?? 'no csrf',
      ]) {
        expect(everything).not.toContain(secret);
        expect(raw).not.toContain(secret);
      }
      expect(everything).not.toMatch(
        /\$argon2|"(password|passwordHash|password_hash|cvv|pan|cardNumber|secret|totpSecret|recoveryCodes|sessionId|token)"|otpauth:/i,
      );
      expect(cvv).toMatch(/^\d{3,4}$/);
      const cardLikeRuns = [...everything.matchAll(/(?<!\d)\d{13,19}(?!\d)/g)].map((match) => match[0]).filter(isLuhnValid);
      expect(cardLikeRuns).toEqual([]);
    });

    it("never carries another customer's data", async () => {
      const everything = Object.values(files).join('\n');
      for (const foreign of [other.id, other.checking.number, other.savings.number, other.phone, 'Not Zoë’s', 'Someone else’s subject'])
        expect(everything).not.toContain(foreign);
    });

    it('records an audit entry for the export', async () => {
      const rows = await database().query<{ outcome: string; ip: string | null }>(
        `SELECT outcome, ip FROM audit_log WHERE actor_type = 'customer' AND actor_id = $1 AND action = 'customer.data_export'`,
        [zoe.id],
      );
      expect(rows).toEqual([expect.objectContaining({ outcome: 'success' })]);
    });
  });

  it('asks for sign-in first', async () => {
    const response = await new TestBrowser(app).get('/api/v1/me/export');
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('unauthenticated');
  });

  it(`refuses a fourth export within the hour with 429 rate_limited and Retry-After, for that customer only`, async () => {
    const dana = await kit.customer({ fundCents: 1_000n, savingsCents: 0 });
    const erin = await kit.customer({ fundCents: 1_000n, savingsCents: 0 });
    for (let index = 0; index < dataExportsPerHour; index += 1) expect((await exportOf(dana)).statusCode).toBe(200);
    const refused = await exportOf(dana);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3_500);
    expect(retryAfter).toBeLessThanOrEqual(3_600);
    expect((await exportOf(erin)).statusCode).toBe(200);
  });

  it(
    'writes a history longer than a statement batch in one file, running balances to the ledger balance (bench/export measures 20,000)',
    { timeout: 120_000 },
    async () => {
      const fay = await kit.customer({ fundCents: 0n, savingsCents: 0 });
      const start = Date.parse('2024-01-01T12:00:00Z');
      const entries = Array.from({ length: 2_500 }, (_, index) => ({
        at: new Date(start + index * 3_600_000).toISOString(),
        direction: index % 4 === 3 ? ('out' as const) : ('in' as const),
        amountCents: 1_00n,
        message: `Entry ${index}`,
      }));
      await writePastEntries(database(), fay.id, fay.checking.id, entries);
      const response = await exportOf(fay);
      expect(response.statusCode).toBe(200);
      const rows = parseCsv(unzip(response.rawPayload)[`accounts/${fay.checking.number}/transactions.csv`] ?? '');
      expect(rows).toHaveLength(2_501);
      expect(rows.at(-1)?.[5]).toBe('1250.00');
    },
  );
});
