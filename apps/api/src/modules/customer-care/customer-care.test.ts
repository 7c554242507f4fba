import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StaffRole } from '@strongroom/contracts/staff.ts';
import { freezeCustomerMessageErrors, freezeCustomerMessages, neutralFreezeCustomerMessage } from '@strongroom/contracts/staff-customers.ts';
import type { Config } from '../../config.ts';
import { TestBrowser } from '../../test/client.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { ownTransfer, paymentSuite, validExternal, type PayingCustomer, withdrawalTo } from '../../test/payments.ts';
import { staffBrowser } from '../../test/staff.ts';
import { encrypt } from '../../platform/crypto.ts';
import { likePatternOf } from './repository.ts';
import { frozenNotificationText } from './service.ts';

describe('a search text in a LIKE pattern', () => {
  it('matches only itself: %, _ and \\ are escaped', () => {
    expect(likePatternOf('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});

describeEachDatabase('customer care in the back office', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built), { environment: { RAIL_SPEED: 'instant' } });
  const browsers = new Map<StaffRole, TestBrowser>();
  const as = (role: StaffRole) => {
    const browser = browsers.get(role);
    if (!browser) throw new Error(`no ${role} browser`);
    return browser;
  };
  const reason = { reason: 'Suspected account takeover, ticket 4411' };
  /** A freeze: the internal reason (never the customer's to read) and the message they are shown. */
  const customerMessage = freezeCustomerMessages[1].text;
  const freeze = { reason: 'Checking source of funds, ticket 4411', customerMessage };

  beforeAll(async () => {
    for (const role of ['support', 'compliance', 'operations', 'admin'] as const) {
      browsers.set(role, (await staffBrowser(app, database(), config, role)).browser);
    }
  });

  async function deniedAudits(role: StaffRole, permission: string): Promise<number> {
    const [row] = await database().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'staff.permission_denied' AND details->>'role' = $1 AND details->>'permission' = $2`,
      [role, permission],
    );
    return row?.n ?? 0;
  }

  describe('search', () => {
    it('finds a customer by name, full name, email or account number, case-insensitively, for every role', async () => {
      const dana = await kit.customer({ firstName: 'Dagny', lastName: 'Quixotewell' });
      const [account] = await database().query<{ number: string }>('SELECT number FROM customer_accounts WHERE customer_id = $1 LIMIT 1', [dana.id]);
      const [email] = await database().query<{ email: string }>('SELECT email FROM customers WHERE id = $1', [dana.id]);
      for (const role of ['support', 'compliance', 'operations', 'admin'] as const) {
        for (const q of ['quixoteWELL', 'dagny quix', email?.email.toUpperCase() ?? '', account?.number ?? '']) {
          const response = await as(role).get(`/api/v1/staff/customers?q=${encodeURIComponent(q)}`);
          expect(response.statusCode, `${role} ${q} ${response.body}`).toBe(200);
          expect(response.json().items).toContainEqual({
            id: dana.id,
            firstName: 'Dagny',
            lastName: 'Quixotewell',
            email: email?.email,
            identityStatus: 'approved',
            frozen: false,
            createdAt: expect.any(String),
          });
        }
      }
    });

    it('treats % and _ in the text as themselves, not as wildcards', async () => {
      await kit.customer({ firstName: 'Percy', lastName: 'Wildcardson' });
      for (const q of ['%%', '__', '%_']) {
        const response = await as('support').get(`/api/v1/staff/customers?q=${encodeURIComponent(q)}`);
        expect(response.statusCode).toBe(200);
        expect(response.json().items).toEqual([]);
      }
    });

    it('answers the newest customers without a text, at most 50', async () => {
      const newest = await kit.customer();
      const response = await as('support').get('/api/v1/staff/customers');
      expect(response.statusCode).toBe(200);
      const items = response.json().items;
      expect(items[0].id).toBe(newest.id);
      expect(items.length).toBeLessThanOrEqual(50);
    });

    it('refuses a text of one character or over 100 (400)', async () => {
      expect((await as('support').get('/api/v1/staff/customers?q=a')).statusCode).toBe(400);
      expect((await as('support').get(`/api/v1/staff/customers?q=${'a'.repeat(101)}`)).statusCode).toBe(400);
    });

    it('is not for a customer cookie (401) or nobody (401)', async () => {
      const dana = await kit.customer();
      expect((await dana.browser.get('/api/v1/staff/customers')).statusCode).toBe(401);
      expect((await new TestBrowser(app).get('/api/v1/staff/customers')).statusCode).toBe(401);
    });
  });

  describe('a customer page', () => {
    it('shows profile, identity (last 4 only), accounts with ledger balances, transactions, sessions, notifications and freeze state', async () => {
      const dana = await kit.customer({ fundCents: 50_000n });
      const moved = await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 1_000, 'Save'));
      expect(moved.statusCode, moved.body).toBe(201);
      for (const role of ['support', 'compliance', 'operations', 'admin'] as const) {
        const response = await as(role).get(`/api/v1/staff/customers/${dana.id}`);
        expect(response.statusCode, response.body).toBe(200);
        const detail = response.json();
        expect(detail.profile).toMatchObject({ id: dana.id, emailVerified: true, phoneNumber: dana.phone, phoneVerified: true });
        expect(detail.identity).toMatchObject({ status: 'approved', idNumberMasked: expect.stringMatching(/^•••• \d{1,4}$/) });
        expect(detail.accounts).toHaveLength(2);
        const checking = detail.accounts.find((account: { id: string }) => account.id === dana.checking.id);
        expect(checking).toMatchObject({ balanceCents: 49_000, availableCents: 49_000 });
        expect(detail.transactions.length).toBeGreaterThan(0);
        expect(detail.transactions.length).toBeLessThanOrEqual(20);
        expect(detail.sessions).toHaveLength(1);
        expect(detail.sessions[0].id).toMatch(/^[0-9a-f]{16}$/);
        expect(detail.freeze).toEqual({ frozen: false, reason: null, customerMessage: null, frozenBy: null, frozenAt: null });
      }
    });

    it('never holds a password, a password hash or the full ID number', async () => {
      const dana = await kit.customer();
      await database().query(
        `INSERT INTO identity_reviews (customer_id, id_number_encrypted, id_number_last4, country, state, address)
         VALUES ($1, $2, '6789', 'US', 'Ohio', '1 Main Street')`,
        [dana.id, encrypt(config.secrets.encryptionKey, Buffer.from('123-45-6789'))],
      );
      const response = await as('admin').get(`/api/v1/staff/customers/${dana.id}`);
      expect(response.json().identity).toMatchObject({ status: 'submitted', idNumberMasked: '•••• 6789' });
      const body = response.body;
      const [row] = await database().query<{ password_hash: string }>('SELECT password_hash FROM customers WHERE id = $1', [dana.id]);
      expect(body.toLowerCase()).not.toContain('password');
      expect(body).not.toContain('$argon2');
      expect(body).not.toContain(row?.password_hash);
      expect(body).not.toMatch(/12345\s*-?\s*6789|123-45-6789|123456789/);
      const [session] = await database().query<{ id_hash: Buffer }>("SELECT id_hash FROM sessions WHERE subject_id = $1 AND realm = 'customer'", [dana.id]);
      expect(body).not.toContain(Buffer.from(session?.id_hash ?? []).toString('hex'));
    });

    it('answers 404 for an unknown id and for a malformed one', async () => {
      expect((await as('support').get(`/api/v1/staff/customers/${randomUUID()}`)).statusCode).toBe(404);
      expect((await as('support').get('/api/v1/staff/customers/not-a-uuid')).statusCode).toBe(404);
    });

    it('is not for a customer cookie (401)', async () => {
      const dana = await kit.customer();
      expect((await dana.browser.get(`/api/v1/staff/customers/${dana.id}`)).statusCode).toBe(401);
    });
  });

  describe('ending sessions (customers.freeze: admin)', () => {
    it('ends one session by its id, audited with the reason; the customer is signed out', async () => {
      const dana = await kit.customer();
      const other = await new TestBrowser(app).signInAs(database(), dana.id);
      const sessions = (await as('admin').get(`/api/v1/staff/customers/${dana.id}`)).json().sessions;
      expect(sessions).toHaveLength(2);
      const ended = await as('admin').post(`/api/v1/staff/customers/${dana.id}/sessions/${sessions[0].id}/end`, reason);
      expect(ended.statusCode, ended.body).toEqual(200);
      expect(ended.json()).toEqual({ ended: 1 });
      const statuses = [(await dana.browser.get('/api/v1/me')).statusCode, (await other.get('/api/v1/me')).statusCode].sort();
      expect(statuses).toEqual([200, 401]);
      const again = await as('admin').post(`/api/v1/staff/customers/${dana.id}/sessions/${sessions[0].id}/end`, reason);
      expect(again.statusCode).toBe(404);
      const [audit] = await database().query<{ reason: string }>(
        "SELECT details->>'reason' AS reason FROM audit_log WHERE action = 'customer.session_end' AND subject = $1",
        [dana.id],
      );
      expect(audit?.reason).toBe(reason.reason);
    });

    it('ends all sessions', async () => {
      const dana = await kit.customer();
      await new TestBrowser(app).signInAs(database(), dana.id);
      const ended = await as('admin').post(`/api/v1/staff/customers/${dana.id}/sessions/end-all`, reason);
      expect(ended.json()).toEqual({ ended: 2 });
      expect((await dana.browser.get('/api/v1/me')).statusCode).toBe(401);
    });

    it('refuses every other role (403, audited), a customer cookie (401), a missing reason (400), an unknown customer or session (404)', async () => {
      const dana = await kit.customer();
      for (const role of ['support', 'compliance', 'operations'] as const) {
        const before = await deniedAudits(role, 'customers.freeze');
        expect((await as(role).post(`/api/v1/staff/customers/${dana.id}/sessions/end-all`, reason)).statusCode).toBe(403);
        expect((await as(role).post(`/api/v1/staff/customers/${dana.id}/sessions/0011223344556677/end`, reason)).statusCode).toBe(403);
        expect(await deniedAudits(role, 'customers.freeze')).toBe(before + 2);
      }
      expect((await dana.browser.post(`/api/v1/staff/customers/${dana.id}/sessions/end-all`, reason)).statusCode).toBe(401);
      expect((await as('admin').post(`/api/v1/staff/customers/${dana.id}/sessions/end-all`, { reason: 'x' })).statusCode).toBe(400);
      expect((await as('admin').post(`/api/v1/staff/customers/${randomUUID()}/sessions/end-all`, reason)).statusCode).toBe(404);
      expect((await as('admin').post(`/api/v1/staff/customers/nope/sessions/end-all`, reason)).statusCode).toBe(404);
      expect((await as('admin').post(`/api/v1/staff/customers/${dana.id}/sessions/0011223344556677/end`, reason)).statusCode).toBe(404);
      expect((await as('admin').post(`/api/v1/staff/customers/${dana.id}/sessions/not-hex/end`, reason)).statusCode).toBe(404);
      expect((await dana.browser.get('/api/v1/me')).statusCode).toBe(200);
    });
  });

  describe('freeze and unfreeze (customers.freeze: admin)', () => {
    const withdrawal = (who: PayingCustomer) => withdrawalTo(who.checking.id, 1_000);
    const moneyRequests: [string, string, (who: PayingCustomer) => object][] = [
      ['an own transfer', '/transfers', (who) => ownTransfer(who.checking.id, who.savings.id, 100, 'x')],
      [
        'an external transfer',
        '/transfers',
        (who) => ({
          kind: 'external',
          fromAccountId: who.checking.id,
          toAccountNumber: '123456789',
          accountName: 'Frank Other',
          ...validExternal,
          amountCents: 100,
          message: 'Rent',
          addToFavorites: false,
        }),
      ],
      ['a deposit', '/deposits', (who) => ({ accountId: who.checking.id, fundingSourceId: who.fundingSourceId, amountCents: 100, reason: 'Top up' })],
      ['a withdrawal', '/withdrawals', withdrawal],
      [
        'linking a funding source',
        '/funding-sources',
        () => ({ accountName: 'Dana Demo', accountNumber: '55501234', routeNumber: '011000015', accountType: 'checking' }),
      ],
      ['verifying a funding source', `/funding-sources/${randomUUID()}/verify`, () => ({ amountsCents: [7, 32] })],
      ['completing a step-up', `/step-up/${randomUUID()}`, () => ({ code: '123456' })],
    ];

    it('freezes with an internal reason and a customer message: sessions end, the customer is told the message only, money stops, reading goes on; unfreezing lets money move again', async () => {
      const dana = await kit.customer({ fundCents: 50_000n });
      const frozen = await as('admin').post(`/api/v1/staff/customers/${dana.id}/freeze`, freeze);
      expect(frozen.statusCode, frozen.body).toBe(200);
      expect(frozen.json().freeze).toEqual({ frozen: true, ...freeze, frozenBy: expect.stringContaining('@'), frozenAt: expect.any(String) });
      expect((await dana.browser.get('/api/v1/me')).statusCode).toBe(401);

      // A frozen customer signs in again and reads everything: the message staff chose, never their reason.
      await dana.browser.signInAs(database(), dana.id);
      const me = await dana.browser.get('/api/v1/me');
      expect(me.statusCode).toBe(200);
      expect(me.json().frozen).toEqual({ message: customerMessage, since: expect.any(String) });
      expect(me.body).not.toContain(freeze.reason);
      expect((await dana.browser.get('/api/v1/accounts')).statusCode).toBe(200);
      expect((await dana.browser.get('/api/v1/transactions')).statusCode).toBe(200);
      const notifications = await dana.browser.get('/api/v1/notifications');
      expect(notifications.json().items[0]).toMatchObject({ kind: 'account_frozen', text: frozenNotificationText(customerMessage) });
      expect(notifications.body).not.toContain(freeze.reason);

      // Staff see both on the customer's page; the audit entry keeps both.
      const staffPage = (await as('support').get(`/api/v1/staff/customers/${dana.id}`)).json();
      expect(staffPage.freeze).toMatchObject(freeze);
      const audit = await database().query<{ action: string; reason: string; message: string | null }>(
        "SELECT action, details->>'reason' AS reason, details->>'customerMessage' AS message FROM audit_log WHERE subject = $1 AND action LIKE 'customer.%freeze' ORDER BY id",
        [dana.id],
      );
      expect(audit).toEqual([{ action: 'customer.freeze', reason: freeze.reason, message: customerMessage }]);
      const listed = (await as('admin').get('/api/v1/staff/customers')).json().items.find((item: { id: string }) => item.id === dana.id);
      expect(listed?.frozen).toBe(true);

      const unfrozen = await as('admin').post(`/api/v1/staff/customers/${dana.id}/unfreeze`, { reason: 'Customer confirmed by phone' });
      expect(unfrozen.statusCode, unfrozen.body).toBe(200);
      expect(unfrozen.json().freeze.frozen).toBe(false);
      expect((await dana.browser.get('/api/v1/me')).json().frozen).toBeNull();
      const moved = await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 100, 'x'));
      expect(moved.statusCode, moved.body).toBe(201);
      const deposit = await kit.pay(dana, '/deposits', {
        accountId: dana.checking.id,
        fundingSourceId: dana.fundingSourceId,
        amountCents: 100,
        reason: 'Top up',
      });
      expect(deposit.statusCode, deposit.body).toBe(201);
    });

    it.each(moneyRequests)('refuses %s with 403 account_frozen while frozen, and not after unfreezing', async (_name, path, bodyOf) => {
      const dana = await kit.customer({ fundCents: 50_000n });
      expect((await as('admin').post(`/api/v1/staff/customers/${dana.id}/freeze`, freeze)).statusCode).toBe(200);
      await dana.browser.signInAs(database(), dana.id);
      const refused = await kit.pay(dana, path, bodyOf(dana));
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().error.code).toBe('account_frozen');
      expect((await as('admin').post(`/api/v1/staff/customers/${dana.id}/unfreeze`, reason)).statusCode).toBe(200);
      const after = await kit.pay(dana, path, bodyOf(dana));
      expect(after.statusCode === 403 && after.json().error.code === 'account_frozen', after.body).toBe(false);
    });

    it('answers 409 to freezing twice and to unfreezing a customer who is not frozen', async () => {
      const dana = await kit.customer();
      expect((await as('admin').post(`/api/v1/staff/customers/${dana.id}/unfreeze`, reason)).statusCode).toBe(409);
      expect((await as('admin').post(`/api/v1/staff/customers/${dana.id}/freeze`, freeze)).statusCode).toBe(200);
      const twice = await as('admin').post(`/api/v1/staff/customers/${dana.id}/freeze`, freeze);
      expect(twice.statusCode).toBe(409);
      expect(twice.json().error.code).toBe('conflict');
    });

    it('stores HTML in a reason and a message as text, and refuses a missing, short or 10,000-character reason (400)', async () => {
      const dana = await kit.customer();
      for (const body of [{ customerMessage }, { reason: 'no', customerMessage }, { reason: 'x'.repeat(10_000), customerMessage }]) {
        expect((await as('admin').post(`/api/v1/staff/customers/${dana.id}/freeze`, body)).statusCode).toBe(400);
      }
      const html = '<script>alert(1)</script> fraud';
      const frozen = await as('admin').post(`/api/v1/staff/customers/${dana.id}/freeze`, { reason: html, customerMessage: `${html} paused` });
      expect(frozen.json().freeze).toMatchObject({ reason: html, customerMessage: `${html} paused` });
    });

    it.each([
      ['blank', { reason: 'Checking source of funds', customerMessage: '   ' }, freezeCustomerMessageErrors.missing],
      ['not text', { reason: 'Checking source of funds', customerMessage: 42 }, freezeCustomerMessageErrors.missing],
      ['too short', { reason: 'Checking source of funds', customerMessage: 'Paused.' }, freezeCustomerMessageErrors.tooShort],
      ['too long', { reason: 'Checking source of funds', customerMessage: 'We are reviewing. '.repeat(20) }, freezeCustomerMessageErrors.tooLong],
      ['on two lines', { reason: 'Checking source of funds', customerMessage: 'Some features are paused.\nWe will be in touch.' }, 'keep this on one line'],
    ])('refuses a %s customer message (400) with the field and why, and freezes nothing', async (_name, body, message) => {
      const dana = await kit.customer();
      const refused = await as('admin').post(`/api/v1/staff/customers/${dana.id}/freeze`, body);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error).toMatchObject({ code: 'validation_failed', fields: { customerMessage: message } });
      expect((await as('admin').get(`/api/v1/staff/customers/${dana.id}`)).json().freeze.frozen).toBe(false);
    });

    it("takes the contract's body of a reason alone, and shows the customer the neutral message, never the reason", async () => {
      const dana = await kit.customer();
      const frozen = await as('admin').post(`/api/v1/staff/customers/${dana.id}/freeze`, { reason: 'Checking source of funds' });
      expect(frozen.statusCode, frozen.body).toBe(200);
      expect(frozen.json().freeze).toMatchObject({ reason: 'Checking source of funds', customerMessage: neutralFreezeCustomerMessage });
    });

    it('trims the customer message, and takes one staff wrote themselves', async () => {
      const dana = await kit.customer();
      const own = "  Some of your account's features are paused for a short while; we'll write to you soon.  ";
      const frozen = await as('admin').post(`/api/v1/staff/customers/${dana.id}/freeze`, { reason: 'Checking source of funds', customerMessage: own });
      expect(frozen.statusCode, frozen.body).toBe(200);
      expect(frozen.json().freeze.customerMessage).toBe(own.trim());
    });

    it('refuses every other role (403, audited), a customer cookie (401), an unknown or malformed id (404)', async () => {
      const dana = await kit.customer();
      for (const role of ['support', 'compliance', 'operations'] as const) {
        const before = await deniedAudits(role, 'customers.freeze');
        expect((await as(role).post(`/api/v1/staff/customers/${dana.id}/freeze`, freeze)).statusCode).toBe(403);
        expect((await as(role).post(`/api/v1/staff/customers/${dana.id}/unfreeze`, reason)).statusCode).toBe(403);
        expect(await deniedAudits(role, 'customers.freeze')).toBe(before + 2);
      }
      for (const [action, body] of [
        ['freeze', freeze],
        ['unfreeze', reason],
      ] as const) {
        expect((await dana.browser.post(`/api/v1/staff/customers/${dana.id}/${action}`, body)).statusCode).toBe(401);
        expect((await as('admin').post(`/api/v1/staff/customers/${randomUUID()}/${action}`, body)).statusCode).toBe(404);
        expect((await as('admin').post(`/api/v1/staff/customers/x'1/${action}`, body)).statusCode).toBe(404);
      }
      expect((await as('admin').get(`/api/v1/staff/customers/${dana.id}`)).json().freeze.frozen).toBe(false);
    });
  });
});
