import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { referralCodePattern } from '@strongroom/contracts/referrals.ts';
import type { Config } from '../../config.ts';
import { checkLedger } from '../../ledger/check-ledger.ts';
import { operatorAccounts, transferCodes } from '../../ledger/codes.ts';
import { encrypt } from '../../platform/crypto.ts';
import { buildTestApp } from '../../test/app.ts';
import { TestBrowser } from '../../test/client.ts';
import { insertBareCustomer, onboardedCustomer } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { staffBrowser } from '../../test/staff.ts';
import { decideIdentity } from '../onboarding/identity-review.ts';
import { insertIdentityReview } from '../onboarding/repository.ts';

const signupForm = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Grace',
  lastName: 'Hopperton',
  email: `${randomUUID()}@example.com`,
  password: 'compiler nanoseconds 1952',
  confirmPassword: 'compiler nanoseconds 1952',
  acceptTerms: true,
  ...overrides,
});

describeEachDatabase('referrals: the code, sign-up with it, and the $10.00 bonus (issue 15 item 5)', (database) => {
  let app: FastifyInstance;
  let config: Config;
  let compliance: TestBrowser;
  beforeAll(async () => {
    ({ app, config } = await buildTestApp(database(), { environment: { KYC_AUTO_APPROVE_SECONDS: 'off' } }));
    compliance = (await staffBrowser(app, database(), config, 'compliance')).browser;
  });

  const db = () => database();
  const customer = (options: { fundCents?: bigint; firstName?: string } = {}) =>
    onboardedCustomer({ db: db(), storage: app.services.storage, encryptionKey: config.secrets.encryptionKey }, options);

  async function signedInReferrer(options: { fundCents?: bigint } = {}) {
    const created = await customer(options);
    const browser = await new TestBrowser(app).signInAs(db(), created.userId);
    const referral = (await browser.get('/api/v1/me/referral')).json() as { code: string; link: string };
    const checking = created.accounts.find((account) => account.type === 'checking');
    if (!checking) throw new Error('no checking account');
    return { ...created, browser, referral, checking };
  }

  /** A friend signs up with the code (as typed), and sends an identity document that waits for staff. */
  async function friendWithCode(code: string, firstName = 'Grace') {
    const form = signupForm({ referralCode: code, firstName });
    const response = await new TestBrowser(app).post('/api/v1/auth/signup', form);
    expect(response.statusCode, response.body).toBe(201);
    const [row] = await db().query<{ id: string }>('SELECT id FROM customers WHERE email_normalized = lower($1)', [form.email]);
    if (!row) throw new Error('the friend was not created');
    const reviewId = await waitingReviewOf(row.id);
    return { customerId: row.id, email: form.email, reviewId };
  }

  function waitingReviewOf(customerId: string): Promise<string> {
    return insertIdentityReview(db(), {
      customerId,
      documentFileId: null,
      idNumberEncrypted: encrypt(config.secrets.encryptionKey, Buffer.from('123-45-6789', 'utf8')),
      idNumberLast4: '6789',
      country: 'US',
      state: 'Illinois',
      address: '1 Main Street, Springfield',
    });
  }

  async function approveByStaff(reviewId: string) {
    const response = await compliance.post(`/api/v1/staff/identity-reviews/${reviewId}/decision`, { decision: 'approve', reason: 'Document matches' });
    expect(response.statusCode, response.body).toBe(200);
  }

  async function checkingBalance(browser: TestBrowser, accountId: string): Promise<number> {
    const accounts = (await browser.get('/api/v1/accounts')).json() as { id: string; balanceCents: number }[];
    const account = accounts.find((candidate) => candidate.id === accountId);
    if (!account) throw new Error('no such account');
    return account.balanceCents;
  }

  const bonusTransfers = async (referrerId: string) =>
    db().query<{ id: string; debit_account_id: string; amount: bigint }>(
      `SELECT t.id, t.debit_account_id, t.amount FROM ledger_transfers t
        JOIN payments p ON p.id = t.id WHERE p.customer_id = $1 AND t.code = $2`,
      [referrerId, transferCodes.referralBonus],
    );

  it('gives each customer one stable eight-character code and a sign-up link carrying it', async () => {
    const first = await signedInReferrer();
    expect(first.referral.code).toMatch(referralCodePattern);
    expect(first.referral.link).toBe(`${config.publicUrl}/signup?ref=${first.referral.code}`);
    expect((await first.browser.get('/api/v1/me/referral')).json()).toEqual(first.referral);
    const second = await signedInReferrer();
    expect(second.referral.code).not.toBe(first.referral.code);
    expect((await first.browser.get('/api/v1/me/referrals')).json()).toEqual({ items: [], pendingCount: 0, paidCount: 0, paidCents: 0 });
  });

  it('answers 401 to a visitor on both referral routes', async () => {
    for (const url of ['/api/v1/me/referral', '/api/v1/me/referrals']) {
      const response = await new TestBrowser(app).get(url);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('unauthenticated');
    }
  });

  it('refuses an unknown or malformed referral code at sign-up with a field error, and creates nobody', async () => {
    const countCustomers = async () => (await db().query('SELECT id FROM customers')).length;
    const before = await countCustomers();
    for (const referralCode of ['ZZZZZZZY', 'not a code!', '', 'I0O1LUAB', 12345678, null, 'A'.repeat(1_000)]) {
      const response = await new TestBrowser(app).post('/api/v1/auth/signup', signupForm({ referralCode }));
      expect(response.statusCode, JSON.stringify(referralCode)).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'validation_failed', fields: { referralCode: 'this referral code does not exist' } });
    }
    expect(await countCustomers()).toBe(before);
  });

  it('takes a code typed in lower case with spaces, and lists the friend as pending without any of their details', async () => {
    const referrer = await signedInReferrer();
    const friend = await friendWithCode(`  ${referrer.referral.code.toLowerCase()} `, 'Linus');
    const list = await referrer.browser.get('/api/v1/me/referrals');
    expect(list.json()).toEqual({
      items: [{ id: expect.any(String), status: 'pending', bonusCents: 1000, createdAt: expect.any(String), paidAt: null }],
      pendingCount: 1,
      paidCount: 0,
      paidCents: 0,
    });
    expect(list.body).not.toContain('Linus');
    expect(list.body).not.toContain(friend.email);
    expect(list.body).not.toContain(friend.customerId);
  });

  it("cannot use the customer's own code: signing up again with their own email records no referral and answers as any sign-up", async () => {
    const referrer = await signedInReferrer();
    const [me] = await db().query<{ email: string }>('SELECT email FROM customers WHERE id = $1', [referrer.userId]);
    const response = await new TestBrowser(app).post('/api/v1/auth/signup', signupForm({ email: me?.email, referralCode: referrer.referral.code }));
    expect(response.statusCode).toBe(201);
    expect(await db().query('SELECT id FROM referrals WHERE referrer_customer_id = $1 OR referred_customer_id = $1', [referrer.userId])).toEqual([]);
  });

  it("pays $10.00 from marketing expense into the referrer's checking once staff approve the friend, as a history line, a notice and an audit entry", async () => {
    const referrer = await signedInReferrer({ fundCents: 5_000n });
    const friend = await friendWithCode(referrer.referral.code, 'Margaret');
    expect(await checkingBalance(referrer.browser, referrer.checking.id)).toBe(5_000);

    await approveByStaff(friend.reviewId);

    expect(await checkingBalance(referrer.browser, referrer.checking.id)).toBe(6_000);
    const transfers = await bonusTransfers(referrer.userId);
    expect(transfers).toEqual([{ id: expect.any(String), debit_account_id: operatorAccounts.marketingExpense, amount: 1_000n }]);

    const history = (await referrer.browser.get(`/api/v1/transactions?accountId=${referrer.checking.id}`)).json();
    expect(history.items[0]).toMatchObject({
      transferId: transfers[0]?.id,
      amountCents: 1000,
      description: 'Referral bonus',
      category: 'Credit',
      status: 'completed',
    });

    const notices = (await referrer.browser.get('/api/v1/notifications')).json();
    const notice = notices.items.find((item: { kind: string }) => item.kind === 'referral');
    expect(notice).toMatchObject({
      name: 'Referral bonus',
      text: 'Your friend Margaret joined: $10.00 referral bonus paid into your checking account.',
      link: '/invite',
    });
    expect(notice.text).not.toContain('Hopperton');

    const list = (await referrer.browser.get('/api/v1/me/referrals')).json();
    expect(list).toMatchObject({ pendingCount: 0, paidCount: 1, paidCents: 1000, items: [{ status: 'paid', bonusCents: 1000, paidAt: expect.any(String) }] });

    const audit = await db().query<{ subject: string; transfer: string }>(
      "SELECT subject, details->>'transferId' AS transfer FROM audit_log WHERE action = 'referral.bonus_paid' AND details->>'referrerCustomerId' = $1",
      [referrer.userId],
    );
    expect(audit).toEqual([{ subject: list.items[0].id, transfer: transfers[0]?.id }]);
    expect((await checkLedger(db())).violations).toEqual([]);
  });

  it('pays nothing a second time: a replayed approval, two at once, or a second decision by staff', async () => {
    const referrer = await signedInReferrer();
    const friend = await friendWithCode(referrer.referral.code);
    const sandboxApproval = () =>
      decideIdentity(
        { db: db(), mailer: app.services.mailer, bankName: config.bankName, liveEvents: app.services.liveEvents },
        { reviewId: friend.reviewId, decision: 'approved', decidedBy: 'sandbox' },
      );
    // The sandbox's automatic approval and its replay, racing.
    const outcomes = await Promise.all([sandboxApproval(), sandboxApproval()]);
    expect(outcomes.sort()).toEqual(['already_decided', 'decided']);
    expect(await sandboxApproval()).toBe('already_decided');
    const again = await compliance.post(`/api/v1/staff/identity-reviews/${friend.reviewId}/decision`, { decision: 'approve', reason: 'Again' });
    expect(again.statusCode).toBe(409);

    expect(await checkingBalance(referrer.browser, referrer.checking.id)).toBe(1_000);
    expect(await bonusTransfers(referrer.userId)).toHaveLength(1);
    const notices = (await referrer.browser.get('/api/v1/notifications')).json();
    expect(notices.items.filter((item: { kind: string }) => item.kind === 'referral')).toHaveLength(1);
    expect((await db().query("SELECT id FROM payments WHERE customer_id = $1 AND kind = 'referral_bonus'", [referrer.userId])).length).toBe(1);
    expect((await checkLedger(db())).violations).toEqual([]);
  });

  it('a second referral of the same friend is impossible: one referred customer, one referrer', async () => {
    const referrer = await signedInReferrer();
    const other = await signedInReferrer();
    const friend = await friendWithCode(referrer.referral.code);
    await expect(
      db().query(
        `INSERT INTO referrals (id, referrer_customer_id, referred_customer_id, status, bonus_cents, bonus_transfer_id)
         VALUES ($1, $2, $3, 'pending', 1000, $4)`,
        [randomUUID(), other.userId, friend.customerId, randomUUID()],
      ),
    ).rejects.toThrow(/unique|duplicate/i);
  });

  it("never shows one customer's referrals to another", async () => {
    const alice = await signedInReferrer();
    const bob = await signedInReferrer();
    const friend = await friendWithCode(alice.referral.code);
    await approveByStaff(friend.reviewId);
    expect((await alice.browser.get('/api/v1/me/referrals')).json().paidCount).toBe(1);
    const bobs = await bob.browser.get('/api/v1/me/referrals');
    expect(bobs.json()).toEqual({ items: [], pendingCount: 0, paidCount: 0, paidCents: 0 });
    expect((await bob.browser.get('/api/v1/me/referral')).json().code).toBe(bob.referral.code);
    expect(await checkingBalance(bob.browser, bob.checking.id)).toBe(0);
  });

  it('keeps the bonus pending while the referrer has no checking account, and pays it when their own identity is approved', async () => {
    const referrerId = await insertBareCustomer(db());
    const referrerBrowser = await new TestBrowser(app).signInAs(db(), referrerId);
    const { code } = (await referrerBrowser.get('/api/v1/me/referral')).json();
    const friend = await friendWithCode(code);
    await approveByStaff(friend.reviewId);
    expect((await referrerBrowser.get('/api/v1/me/referrals')).json()).toMatchObject({ pendingCount: 1, paidCount: 0 });

    await approveByStaff(await waitingReviewOf(referrerId));
    expect((await referrerBrowser.get('/api/v1/me/referrals')).json()).toMatchObject({ pendingCount: 0, paidCount: 1, paidCents: 1000 });
    const [checking] = await db().query<{ id: string }>("SELECT id FROM customer_accounts WHERE customer_id = $1 AND type = 'checking'", [referrerId]);
    expect(await checkingBalance(referrerBrowser, checking?.id ?? '')).toBe(1_000);
    expect((await checkLedger(db())).violations).toEqual([]);
  });
});
