import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { unzipSync } from 'fflate';
import { beforeAll, expect, it } from 'vitest';
import { dataExportNotYet } from '@strongroom/contracts/data-export.ts';
import type { LoanDetailResponse } from '@strongroom/contracts/loans.ts';
import type { Config } from '../../config.ts';
import { cardSuite } from '../../test/cards.ts';
import { TestBrowser } from '../../test/client.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { offeredLoan } from '../../test/loans.ts';
import type { PayingCustomer } from '../../test/payments.ts';
import { staffBrowser } from '../../test/staff.ts';

/** Every file of a zip, by name, as bytes. */
function unzip(zip: Buffer): Record<string, Buffer> {
  return Object.fromEntries(Object.entries(unzipSync(new Uint8Array(zip))).map(([name, bytes]) => [name, Buffer.from(bytes)]));
}

/** Every key and every scalar value of a JSON document, at any depth. */
function keysAndValuesOf(value: unknown, keys: string[] = [], values: string[] = []): { keys: string[]; values: string[] } {
  if (Array.isArray(value)) for (const item of value) keysAndValuesOf(item, keys, values);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      keys.push(key);
      keysAndValuesOf(item, keys, values);
    }
  } else values.push(String(value));
  return { keys, values };
}

/** What one customer has, and what their export must hold (or never hold). */
interface Holder {
  who: PayingCustomer;
  loan: LoanDetailResponse;
  cardId: string;
  pan: string;
  cvv: string;
  purchaseId: string;
  linkedBankId: string;
  linkedAccountNumber: string;
  linkedAccountName: string;
  referralCode: string;
  friendEmail: string;
  friendName: string;
  files: Record<string, Buffer>;
}

describeEachDatabase('GET /me/export: loans, cards, linked banks and referrals (issue 39 item 8)', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = cardSuite(database, (built) => ({ app, config } = built), { environment: { RAIL_SPEED: 'instant', CARD_AUTO_APPROVE_SECONDS: 'off' } });
  let operations: TestBrowser;
  let zoe: Holder;
  let omar: Holder;

  async function loanOf(who: PayingCustomer): Promise<LoanDetailResponse> {
    const loanId = await offeredLoan(who.browser, operations, { reason: 'Income and history support it', amountCents: 10_000, aprBps: 1_200, termMonths: 6 });
    const offered = await who.browser.get(`/api/v1/loans/${loanId}`);
    if (offered.json<LoanDetailResponse>().loan.status === 'offered') {
      const accepted = await who.browser.request({ method: 'POST', url: `/api/v1/loans/${loanId}/accept`, headers: { 'idempotency-key': randomUUID() } });
      expect(accepted.statusCode, accepted.body).toBe(200);
    }
    const detail = await who.browser.get(`/api/v1/loans/${loanId}`);
    expect(detail.statusCode, detail.body).toBe(200);
    return detail.json<LoanDetailResponse>();
  }

  async function holderOf(fundCents: bigint, names: { linked: string; friend: string }, accountNumber: string): Promise<Omit<Holder, 'files'>> {
    const who = await kit.customer({ fundCents });
    const loan = await loanOf(who);
    const card = await kit.activeCard(who, { type: 'credit', creditLimitCents: 150_000 });
    const revealed = await kit.reveal(who, card.id);
    const purchase = await kit.purchase(revealed, 4_250, { merchantName: `${names.linked} Grocer`, mcc: '5411' });
    expect(purchase.status).toBe('approved');
    expect((await kit.network(`${purchase.id}/clear`)).statusCode).toBe(200);
    const linkedBankId = await kit.verifiedSource(who.id, accountNumber, names.linked, '021000021');
    const referralCode: string = (await who.browser.get('/api/v1/me/referral')).json().code;
    const friendEmail = `${randomUUID()}@example.com`;
    const signedUp = await new TestBrowser(app).post('/api/v1/auth/signup', {
      firstName: names.friend,
      lastName: 'Friendly',
      email: friendEmail,
      password: 'compiler nanoseconds 1952',
      confirmPassword: 'compiler nanoseconds 1952',
      acceptTerms: true,
      referralCode,
    });
    expect(signedUp.statusCode, signedUp.body).toBe(201);
    return {
      who,
      loan,
      cardId: card.id,
      pan: revealed.number,
      cvv: revealed.cvv,
      purchaseId: purchase.id,
      linkedBankId,
      linkedAccountNumber: accountNumber,
      linkedAccountName: names.linked,
      referralCode,
      friendEmail,
      friendName: names.friend,
    };
  }

  async function exported(holder: Omit<Holder, 'files'>): Promise<Holder> {
    const response = await holder.who.browser.get('/api/v1/me/export');
    expect(response.statusCode, response.body).toBe(200);
    return { ...holder, files: unzip(response.rawPayload) };
  }

  const jsonOf = (holder: Holder, name: string) => JSON.parse(holder.files[name]?.toString('utf8') ?? 'null');

  beforeAll(async () => {
    operations = (await staffBrowser(app, database(), config, 'operations')).browser;
    const zoeHolds = await holderOf(300_000n, { linked: 'Zoe Outside', friend: 'Ingrid' }, '730012345678');
    const omarHolds = await holderOf(300_000n, { linked: 'Omar Elsewhere', friend: 'Kwame' }, '640098765432');
    zoe = await exported(zoeHolds);
    omar = await exported(omarHolds);
  });

  it('holds loans.json, cards.json, linked-banks.json and referrals.json, and says what is not there yet', () => {
    for (const name of ['loans.json', 'cards.json', 'linked-banks.json', 'referrals.json']) expect(Object.keys(zoe.files)).toContain(name);
    const readme = zoe.files['README.txt']?.toString('utf8') ?? '';
    for (const name of ['loans.json', 'cards.json', 'linked-banks.json', 'referrals.json']) expect(readme).toContain(name);
    expect(readme).toContain(dataExportNotYet);
  });

  it('writes each loan with its terms, its disclosure and its schedule as the loan page shows them', () => {
    const { loans } = jsonOf(zoe, 'loans.json');
    expect(zoe.loan.schedule.length).toBeGreaterThan(0);
    expect(loans).toEqual([{ ...zoe.loan.loan, disclosure: zoe.loan.disclosure, schedule: zoe.loan.schedule }]);
    expect(loans[0]).toMatchObject({ status: 'active', amountCents: 10_000, aprBps: 1_200, termMonths: 6 });
    expect(loans[0].schedule).toHaveLength(6);
  });

  it('writes each card by its last four digits, with its limit, what it owes and its purchases', () => {
    const { cards } = jsonOf(zoe, 'cards.json');
    expect(cards).toEqual([
      expect.objectContaining({
        id: zoe.cardId,
        type: 'credit',
        last4: zoe.pan.slice(-4),
        status: 'active',
        creditLimitCents: 150_000,
        balanceOwedCents: 4_250,
        availableCents: 150_000 - 4_250,
        purchases: [
          expect.objectContaining({ id: zoe.purchaseId, merchantName: 'Zoe Outside Grocer', amountCents: 4_250, clearedCents: 4_250, status: 'cleared' }),
        ],
      }),
    ]);
  });

  it('writes each linked bank masked as the app shows it, never its full account number', () => {
    const { linkedBanks } = jsonOf(zoe, 'linked-banks.json');
    // Test customers come with the sandbox's own linked account too.
    expect(linkedBanks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: zoe.linkedBankId,
          accountName: 'Zoe Outside',
          accountNumberMasked: '•••• 5678',
          last4: '5678',
          routeNumber: '021000021',
          status: 'verified',
        }),
      ]),
    );
  });

  it("writes the referral code and the referrals made with it, without the friend's name or email", () => {
    const referrals = jsonOf(zoe, 'referrals.json');
    expect(referrals).toMatchObject({ code: zoe.referralCode, link: `${config.publicUrl}/signup?ref=${zoe.referralCode}`, pendingCount: 1 });
    expect(referrals.referrals).toEqual([expect.objectContaining({ status: 'pending', bonusCents: expect.any(Number) })]);
    for (const bytes of Object.values(zoe.files)) {
      expect(bytes.includes(zoe.friendEmail)).toBe(false);
      expect(bytes.includes(zoe.friendName)).toBe(false);
    }
  });

  it("never carries another customer's loans, cards, linked banks or referrals, either way", () => {
    for (const [mine, theirs] of [
      [zoe, omar],
      [omar, zoe],
    ] as const) {
      const foreign = [
        theirs.who.id,
        theirs.loan.loan.id,
        theirs.cardId,
        theirs.purchaseId,
        theirs.linkedBankId,
        theirs.linkedAccountName,
        theirs.referralCode,
        theirs.friendEmail,
        theirs.friendName,
      ];
      for (const [name, bytes] of Object.entries(mine.files)) for (const text of foreign) expect(bytes.includes(text), `${text} in ${name}`).toBe(false);
      expect(jsonOf(mine, 'loans.json').loans.map((loan: { id: string }) => loan.id)).toEqual([mine.loan.loan.id]);
      expect(jsonOf(mine, 'cards.json').cards.map((card: { id: string }) => card.id)).toEqual([mine.cardId]);
    }
  });

  it('carries no full linked account number, card number or security code in any byte of any file', () => {
    for (const holder of [zoe, omar]) {
      for (const [name, bytes] of Object.entries(holder.files)) {
        for (const secret of [zoe.linkedAccountNumber, omar.linkedAccountNumber, zoe.pan, omar.pan]) expect(bytes.includes(secret), `${name}`).toBe(false);
        if (name.endsWith('.json')) {
          const { keys, values } = keysAndValuesOf(JSON.parse(bytes.toString('utf8')));
          expect(
            keys.filter((key) => /cvv|cvc|securityCode|^pan$|cardNumber/i.test(key)),
            name,
          ).toEqual([]);
          // The new files name no account number of any kind: only the masked one.
          if (['loans.json', 'cards.json', 'linked-banks.json', 'referrals.json'].includes(name))
            expect(
              keys.filter((key) => /^(accountNumber|cardNumber)$/.test(key)),
              name,
            ).toEqual([]);
          expect(values, name).not.toContain(holder.cvv);
        } else {
          const cells = bytes.toString('utf8').split(/[\r\n,]/);
          expect(cells, name).not.toContain(holder.cvv);
        }
      }
    }
  });
});
