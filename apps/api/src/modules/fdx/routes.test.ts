import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { dataScopes } from '@strongroom/contracts/connected-apps.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { writeStatementLikeEndOfDay, type FixtureStatement } from '../../test/monthly-statements.ts';
import { ownTransfer, paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { pdfText, todayIn } from '../../test/statements.ts';
import { grantTestAccess, registerTestRecipient, type TestAccess } from '../connected-apps/test-kit.ts';

const accountNotFound = { code: 701, message: 'Account not found' };

function previousMonthPeriod(): { start: string; end: string } {
  const [year, month] = todayIn('UTC').split('-').map(Number) as [number, number];
  const start = new Date(Date.UTC(year, month - 2, 1)).toISOString().slice(0, 10);
  const end = new Date(Date.UTC(year, month - 1, 0)).toISOString().slice(0, 10);
  return { start, end };
}

/**
 * Issue 38, the FDX 6 resource API: what a data recipient reads with a customer's consent, in
 * FDX's shapes, from the bank's real data (the payments and statements the kit's customers make).
 */
describeEachDatabase('The FDX resource API (issue 38)', (database) => {
  let app: FastifyInstance;
  const kit = paymentSuite(database, (built) => ({ app } = built), { environment: { RAIL_SPEED: 'instant' } });

  let dana: PayingCustomer;
  let erin: PayingCustomer;
  let access: TestAccess;
  let statement: FixtureStatement;
  const period = previousMonthPeriod();
  const amountsCents = [1_234, 5_000, 99, 70_000, 1, 42_10];

  beforeAll(async () => {
    dana = await kit.customer({ fundCents: 200_000n, firstName: 'Dana', lastName: 'Demo' });
    erin = await kit.customer({ firstName: 'Erin', lastName: 'Other' });
    statement = await writeStatementLikeEndOfDay(database(), {
      customerId: dana.id,
      accountId: dana.checking.id,
      periodStart: period.start,
      periodEnd: period.end,
    });
    for (const [index, cents] of amountsCents.entries()) {
      const moved = await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, cents, `Saving ${index}`));
      expect(moved.statusCode, moved.body).toBe(201);
    }
    const recipient = await registerTestRecipient(database());
    access = await grantTestAccess(app, { db: database() }, { customerId: dana.id, recipient, scopes: [...dataScopes], accountIds: [dana.checking.id] });
  });

  describe('accounts', () => {
    it('lists only the consented accounts, as FDX deposit account descriptors, never cached', async () => {
      const response = await access.fdx('/fdx/v6/accounts');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toEqual({
        page: { totalElements: 1 },
        links: {},
        accounts: [
          {
            accountCategory: 'DEPOSIT_ACCOUNT',
            accountId: dana.checking.id,
            accountType: 'CHECKING',
            accountNumberDisplay: dana.checking.number.slice(-4),
            productName: expect.any(String),
            nickname: expect.any(String),
            status: 'OPEN',
            currency: { currencyCode: 'USD' },
          },
        ],
      });
    });

    it('gives an account with its balances from the ledger as FDX decimal amounts', async () => {
      const response = await access.fdx(`/fdx/v6/accounts/${dana.checking.id}`);
      expect(response.statusCode, response.body).toBe(200);
      const sent = amountsCents.reduce((sum, cents) => sum + cents, 0);
      const { checking } = await kit.balances(dana);
      expect(checking.balanceCents).toBe(200_000 - sent);
      const account = response.json();
      expect(account).toMatchObject({
        accountCategory: 'DEPOSIT_ACCOUNT',
        accountId: dana.checking.id,
        accountType: 'CHECKING',
        status: 'OPEN',
        balanceType: 'ASSET',
        currentBalance: Number(`${Math.trunc(checking.balanceCents / 100)}.${String(checking.balanceCents % 100).padStart(2, '0')}`),
        availableBalance: Number(`${Math.trunc(checking.availableCents / 100)}.${String(checking.availableCents % 100).padStart(2, '0')}`),
        interestRateType: 'VARIABLE',
      });
      expect(response.body).toContain(`"currentBalance":${(200_000 - sent) / 100}`);
      expect(new Date(account.balanceAsOf).getTime()).toBeGreaterThan(Date.now() - 60_000);
      expect(typeof account.interestRate).toBe('number');
      expect(account).not.toHaveProperty('number');
    });

    it('answers an account outside the consent exactly like a missing one', async () => {
      const tried = [dana.savings.id, erin.checking.id, '0b3d7a4e-1d7e-4f8e-9b0a-5d1c2e3f4a5b', 'not-an-id', dana.checking.id.toUpperCase()];
      for (const accountId of tried) {
        for (const path of ['', '/transactions', '/statements', `/statements/${statement.id}`, '/contact']) {
          const response = await access.fdx(`/fdx/v6/accounts/${accountId}${path}`);
          expect(response.statusCode, `${accountId}${path}`).toBe(404);
          expect(response.json()).toEqual(accountNotFound);
        }
      }
    });

    it('drops an account closed after the consent, as if it were missing', async () => {
      const frank = await kit.customer({ firstName: 'Frank', lastName: 'Closer' });
      const recipient = await registerTestRecipient(database());
      const both = await grantTestAccess(
        app,
        { db: database() },
        { customerId: frank.id, recipient, scopes: [...dataScopes], accountIds: [frank.checking.id, frank.savings.id] },
      );
      const first = (await both.fdx('/fdx/v6/accounts?limit=1')).json();
      expect(first.page).toEqual({ nextOffset: '1', totalElements: 2 });
      expect(first.links).toEqual({ next: { href: '/fdx/v6/accounts?limit=1&offset=1' } });
      const second = (await both.fdx(first.links.next.href)).json();
      expect([...first.accounts, ...second.accounts].map((account: { accountId: string }) => account.accountId)).toEqual([frank.checking.id, frank.savings.id]);
      expect(second.links).toEqual({});
      // The savings account holds nothing: closing it moves no money.
      await database().query(`UPDATE customer_accounts SET status = 'closed', closed_at = now() WHERE id = $1`, [frank.savings.id]);
      const listed = await both.fdx('/fdx/v6/accounts');
      expect(listed.json().accounts.map((account: { accountId: string }) => account.accountId)).toEqual([frank.checking.id]);
      const closed = await both.fdx(`/fdx/v6/accounts/${frank.savings.id}`);
      expect(closed.statusCode).toBe(404);
      expect(closed.json()).toEqual(accountNotFound);
    });
  });

  describe('transactions', () => {
    const path = () => `/fdx/v6/accounts/${dana.checking.id}/transactions`;

    it('gives FDX deposit transactions, newest first, with exact decimal amounts', async () => {
      const response = await access.fdx(`${path()}?limit=100`);
      expect(response.statusCode, response.body).toBe(200);
      const { transactions, page, links } = response.json();
      expect(page).toEqual({});
      expect(links).toEqual({});
      const saved = transactions.filter((item: { description: string }) => item.description.includes('Saving'));
      expect(saved.map((item: { amount: number }) => item.amount)).toEqual([42.1, 0.01, 700, 0.99, 50, 12.34]);
      expect(saved[0]).toEqual({
        accountCategory: 'DEPOSIT_ACCOUNT',
        accountId: dana.checking.id,
        transactionId: expect.stringMatching(/:out$/),
        postedTimestamp: expect.any(String),
        transactionTimestamp: saved[0].postedTimestamp,
        description: expect.stringContaining('Saving 5'),
        debitCreditMemo: 'DEBIT',
        status: 'POSTED',
        amount: 42.1,
        transactionType: 'TRANSFER',
        category: 'Transfer',
        ...(saved[0].payee ? { payee: saved[0].payee } : {}),
      });
      expect(response.body).toContain('"amount":42.1,');
      // The opening deposit is money in.
      expect(transactions.at(-1)).toMatchObject({ debitCreditMemo: 'CREDIT', amount: 2000 });
    });

    it('pages with the opaque offset: every transaction exactly once, in the same order', async () => {
      const whole = (await access.fdx(`${path()}?limit=100`)).json().transactions.map((item: { transactionId: string }) => item.transactionId);
      expect(whole.length).toBeGreaterThan(4);
      const paged: string[] = [];
      let next: string | undefined = `${path()}?limit=2`;
      for (let pages = 0; next && pages < 20; pages += 1) {
        const response = await access.fdx(next);
        expect(response.statusCode, response.body).toBe(200);
        const body = response.json();
        expect(body.transactions.length).toBeLessThanOrEqual(2);
        paged.push(...body.transactions.map((item: { transactionId: string }) => item.transactionId));
        expect(body.links.next?.href).toBe(
          body.page.nextOffset === undefined ? undefined : `${path()}?limit=2&offset=${encodeURIComponent(body.page.nextOffset)}`,
        );
        next = body.links.next?.href;
      }
      expect(next).toBeUndefined();
      expect(paged).toEqual(whole);
    });

    it('filters by inclusive dates and refuses a bad date, an inverted range, a bad offset or limit in FDX terms', async () => {
      const today = todayIn('UTC');
      const inRange = await access.fdx(`${path()}?startTime=2000-01-01&endTime=2099-12-31`);
      expect(inRange.json().transactions.length).toBeGreaterThan(4);
      const before = await access.fdx(`${path()}?startTime=2000-01-01&endTime=2000-01-02`);
      expect(before.json().transactions).toEqual([]);
      expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      const inverted = await access.fdx(`${path()}?startTime=2026-03-02&endTime=2026-03-01`);
      expect([inverted.statusCode, inverted.json().code]).toEqual([400, 703]);
      const impossible = await access.fdx(`${path()}?startTime=2026-02-30`);
      expect([impossible.statusCode, impossible.json()]).toEqual([400, { code: 702, message: 'Invalid start or end date', debugMessage: expect.any(String) }]);
      const notADate = await access.fdx(`${path()}?endTime=yesterday`);
      expect([notADate.statusCode, notADate.json().code]).toEqual([400, 702]);
      const badOffset = await access.fdx(`${path()}?offset=garbage`);
      expect([badOffset.statusCode, badOffset.json().code]).toEqual([400, 400]);
      const tooMany = await access.fdx(`${path()}?limit=101`);
      expect([tooMany.statusCode, tooMany.json().code]).toEqual([400, 400]);
      const hidden = await access.fdx(`${path()}?startTime=${encodeURIComponent('2026-01-01\u202E')}`);
      expect([hidden.statusCode, hidden.json()]).toEqual([400, { code: 400, message: 'Invalid startTime', debugMessage: 'startTime is not valid' }]);
    });
  });

  describe('statements', () => {
    it('lists the monthly statements with a link to each PDF', async () => {
      const response = await access.fdx(`/fdx/v6/accounts/${dana.checking.id}/statements`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        page: { totalElements: 1 },
        links: {},
        statements: [
          {
            accountId: dana.checking.id,
            statementId: statement.id,
            statementDate: period.end,
            description: expect.stringMatching(/^Monthly statement, \w+ \d{4}$/),
            links: [{ href: `/fdx/v6/accounts/${dana.checking.id}/statements/${statement.id}`, rel: 'self', action: 'GET', types: ['application/pdf'] }],
            status: 'AVAILABLE',
          },
        ],
      });
      const outside = await access.fdx(
        `/fdx/v6/accounts/${dana.checking.id}/statements?startTime=${period.end.slice(0, 8)}01&endTime=${period.end.slice(0, 8)}02`,
      );
      expect(outside.json().statements).toEqual([]);
    });

    it('serves the very PDF the customer downloads', async () => {
      const response = await access.fdx(`/fdx/v6/accounts/${dana.checking.id}/statements/${statement.id}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['cache-control']).toBe('no-store');
      const own = await dana.browser.get(`/api/v1/accounts/${dana.checking.id}/statements/${statement.id}?format=pdf`);
      expect(own.statusCode).toBe(200);
      expect(pdfText(response.rawPayload)).toBe(pdfText(own.rawPayload));
      expect(response.rawPayload.equals(own.rawPayload)).toBe(true);
    });

    it('answers a statement that is not the account’s as not found', async () => {
      const missing = await access.fdx(`/fdx/v6/accounts/${dana.checking.id}/statements/0b3d7a4e-1d7e-4f8e-9b0a-5d1c2e3f4a5b`);
      expect([missing.statusCode, missing.json()]).toEqual([404, { code: 404, message: 'Statement not found' }]);
      const erinStatement = await writeStatementLikeEndOfDay(database(), {
        customerId: erin.id,
        accountId: erin.checking.id,
        periodStart: period.start,
        periodEnd: period.end,
      });
      const theirs = await access.fdx(`/fdx/v6/accounts/${dana.checking.id}/statements/${erinStatement.id}`);
      expect([theirs.statusCode, theirs.json()]).toEqual([404, { code: 404, message: 'Statement not found' }]);
    });
  });

  describe('contact', () => {
    it('gives the account holder with the contact details their Settings show', async () => {
      const response = await access.fdx(`/fdx/v6/accounts/${dana.checking.id}/contact`);
      expect(response.statusCode, response.body).toBe(200);
      const own = (await dana.browser.get('/api/v1/me/contact')).json();
      const contact = response.json();
      expect(contact.holders).toEqual([{ relationship: 'SOLE_OWNER', name: { first: 'Dana', last: 'Demo' } }]);
      expect(contact.emails).toEqual([own.email]);
      expect(contact.telephones).toEqual([{ type: 'PERSONAL', country: '1', number: dana.phone.replace(/^\+1/, '') }]);
      expect(contact.addresses).toEqual(
        own.address
          ? [expect.objectContaining({ city: own.address.city, region: own.address.state, postalCode: own.address.zipCode, country: own.address.country })]
          : [],
      );
    });
  });
});
