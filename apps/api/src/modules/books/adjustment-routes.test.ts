import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { adjustmentFourEyesCents, type Adjustment } from '@strongroom/contracts/books.ts';
import type { Config } from '../../config.ts';
import { operatorAccounts } from '../../ledger/codes.ts';
import { addDays, calendarDayIn } from '../../platform/business-calendar.ts';
import { totpCode } from '../../platform/totp.ts';
import { TestBrowser } from '../../test/client.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { staffBrowser } from '../../test/staff.ts';
import { testAppSuite } from '../../test/suite.ts';
import { closeBooksThrough } from './close.ts';

/**
 * Issue 35 item 3 (docs/books.md, "Adjusting entries"): finance staff correct the books with an
 * entry between two of the bank's own accounts, on an open day, with a reason; from $1,000.00 a
 * second, independent member approves it. Every step is audited; other roles are refused.
 */
interface Member {
  browser: TestBrowser;
  member: { id: string; email: string };
}

describeEachDatabase('adjusting entries: finance staff, a reason, an open day, four eyes from $1,000.00', (database) => {
  let app: FastifyInstance;
  let config: Config;
  testAppSuite(database, (built) => ({ app, config } = built), { checkLedger: true });
  let fiona: Member;
  let frank: Member;
  let ada: Member;
  const today = () => calendarDayIn(config.bankTimeZone, new Date());

  beforeAll(async () => {
    fiona = await staffBrowser(app, database(), config, 'finance');
    frank = await staffBrowser(app, database(), config, 'finance');
    ada = await staffBrowser(app, database(), config, 'admin');
  });

  const post = (who: Member, body: Record<string, unknown>) => who.browser.post('/api/v1/staff/books/adjustments', body);
  const decide = (who: Member, id: string, decision: 'approve' | 'reject', reason = 'Checked against the bank statement') =>
    who.browser.post(`/api/v1/staff/books/adjustments/${id}/decision`, { decision, reason });
  const entry = (amountCents: number, extra: Record<string, unknown> = {}) => ({
    debitAccount: 'reconciliationDifferences',
    creditAccount: 'settlementAch',
    amountCents,
    reason: 'Bank fee on the Fed account not booked',
    ...extra,
  });

  async function counters(key: keyof typeof operatorAccounts): Promise<{ debits: bigint; credits: bigint }> {
    const [row] = await database().query<{ debits_posted: bigint; credits_posted: bigint }>(
      'SELECT debits_posted, credits_posted FROM ledger_accounts WHERE id = $1',
      [operatorAccounts[key]],
    );
    if (!row) throw new Error(`no ledger account ${key}`);
    return { debits: row.debits_posted, credits: row.credits_posted };
  }

  async function audits(action: string, subject: string): Promise<{ actor_id: string; outcome: string; details: Record<string, unknown> }[]> {
    return database().query('SELECT actor_id, outcome, details FROM audit_log WHERE action = $1 AND subject = $2 ORDER BY id', [action, subject]);
  }

  it('an entry under $1,000.00 posts at once on the open day and moves both accounts, audited with its reason and listed', async () => {
    const debitBefore = await counters('reconciliationDifferences');
    const creditBefore = await counters('settlementAch');
    const response = await post(fiona, entry(2_500));
    expect(response.statusCode, response.body).toBe(201);
    const adjustment = response.json<{ adjustment: Adjustment }>().adjustment;
    expect(adjustment).toMatchObject({
      debitAccount: 'reconciliationDifferences',
      creditAccount: 'settlementAch',
      amountCents: 2_500,
      status: 'posted',
      postedOn: today(),
      requestedBy: fiona.member.id,
      requestedByEmail: fiona.member.email,
      decidedBy: null,
      decidedByEmail: null,
      exceptionId: null,
    });
    expect(await counters('reconciliationDifferences')).toEqual({ debits: debitBefore.debits + 2_500n, credits: debitBefore.credits });
    expect(await counters('settlementAch')).toEqual({ debits: creditBefore.debits, credits: creditBefore.credits + 2_500n });
    const [transfer] = await database().query<{ code: number; amount: bigint }>('SELECT code, amount FROM ledger_transfers WHERE id = $1', [adjustment.id]);
    expect(transfer).toEqual({ code: 29, amount: 2_500n });
    expect(await audits('books.adjustment_posted', adjustment.id)).toEqual([
      expect.objectContaining({
        actor_id: fiona.member.id,
        outcome: 'success',
        details: expect.objectContaining({ reason: 'Bank fee on the Fed account not booked', amountCents: 2_500 }),
      }),
    ]);
    const listed = await fiona.browser.get('/api/v1/staff/books/adjustments?status=posted');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<{ items: Adjustment[] }>().items.find((item) => item.id === adjustment.id)).toMatchObject({ requestedByEmail: fiona.member.email });
  });

  it('from $1,000.00 it waits: the member who asked cannot approve it, a second decision is refused, nothing moves until a second member approves', async () => {
    const before = await counters('settlementAch');
    const asked = await post(fiona, entry(adjustmentFourEyesCents));
    expect(asked.statusCode, asked.body).toBe(202);
    const { id, status } = asked.json<{ adjustment: Adjustment }>().adjustment;
    expect(status).toBe('awaiting_approval');
    expect(await counters('settlementAch')).toEqual(before);
    expect(await database().query('SELECT id FROM ledger_transfers WHERE id = $1', [id])).toEqual([]);

    const own = await decide(fiona, id, 'approve');
    expect(own.statusCode, own.body).toBe(403);
    expect(own.json().error.code).toBe('four_eyes_required');
    expect(await audits('books.adjustment_four_eyes_refused', id)).toEqual([
      expect.objectContaining({ actor_id: fiona.member.id, outcome: 'denied', details: expect.objectContaining({ refusal: 'same_staff' }) }),
    ]);
    expect(await counters('settlementAch')).toEqual(before);

    const approved = await decide(frank, id, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<{ adjustment: Adjustment }>().adjustment).toMatchObject({
      status: 'posted',
      requestedByEmail: fiona.member.email,
      decidedBy: frank.member.id,
      decidedByEmail: frank.member.email,
      postedOn: today(),
    });
    expect(await counters('settlementAch')).toEqual({ debits: before.debits, credits: before.credits + BigInt(adjustmentFourEyesCents) });
    expect(await audits('books.adjustment_approved', id)).toEqual([expect.objectContaining({ actor_id: frank.member.id, outcome: 'success' })]);

    const again = await decide(ada, id, 'reject');
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().error.code).toBe('already_decided');
    expect(await counters('settlementAch')).toEqual({ debits: before.debits, credits: before.credits + BigInt(adjustmentFourEyesCents) });
  });

  it('a member linked to the one who asked (the admin who granted their access) is refused like them; a rejection moves nothing', async () => {
    const email = `finance-made-by-ada-${Date.now()}@bank.test`;
    const password = 'a passphrase the admin chose';
    const created = await ada.browser.post('/api/v1/staff/members', { email, password, role: 'finance', reason: 'New colleague in finance' });
    expect(created.statusCode, created.body).toBe(201);
    const { staffId, totpSecret } = created.json<{ staffId: string; totpSecret: string }>();
    const madeByAda = { browser: new TestBrowser(app), member: { id: staffId, email } };
    expect((await madeByAda.browser.post('/api/v1/staff/auth/login', { email, password, code: totpCode(totpSecret) })).statusCode).toBe(200);

    const asked = await post(madeByAda, entry(250_000));
    expect(asked.statusCode, asked.body).toBe(202);
    const { id } = asked.json<{ adjustment: Adjustment }>().adjustment;
    const linked = await decide(ada, id, 'approve');
    expect(linked.statusCode, linked.body).toBe(403);
    expect(linked.json().error).toMatchObject({ code: 'four_eyes_required', message: expect.stringContaining('linked') });
    expect(await audits('books.adjustment_four_eyes_refused', id)).toEqual([
      expect.objectContaining({ actor_id: ada.member.id, details: expect.objectContaining({ refusal: 'linked_staff', requestedBy: staffId }) }),
    ]);

    const before = await counters('settlementAch');
    const rejected = await decide(fiona, id, 'reject', 'The fee was booked already yesterday');
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json<{ adjustment: Adjustment }>().adjustment).toMatchObject({
      status: 'rejected',
      requestedByEmail: email,
      decidedBy: fiona.member.id,
      decidedByEmail: fiona.member.email,
      decisionReason: 'The fee was booked already yesterday',
    });
    expect(await counters('settlementAch')).toEqual(before);
    expect(await database().query('SELECT id FROM ledger_transfers WHERE id = $1', [id])).toEqual([]);
    expect((await decide(frank, id, 'approve')).statusCode).toBe(409);
  });

  it('an entry asked for a closed day is refused with 422 business_day_closed and audited; a day after the bank date, or a bad account, with 400', async () => {
    const yesterday = addDays(today(), -1);
    await closeBooksThrough(database(), yesterday, 'end-of-day');
    const closed = await post(fiona, entry(1_000, { postedOn: yesterday }));
    expect(closed.statusCode, closed.body).toBe(422);
    expect(closed.json().error).toMatchObject({
      code: 'business_day_closed',
      message: `${yesterday} is closed: a correction is booked on an open day (${today()} or later)`,
      fields: { postedOn: `${yesterday} is closed: a correction is booked on an open day (${today()} or later)` },
    });
    const [refused] = await database().query<{ actor_id: string; details: Record<string, unknown> }>(
      "SELECT actor_id, details FROM audit_log WHERE action = 'books.adjustment_refused' AND details->>'refusal' = 'business_day_closed'",
    );
    expect(refused).toMatchObject({ actor_id: fiona.member.id, details: { postedOn: yesterday, reason: 'Bank fee on the Fed account not booked' } });

    const open = await post(fiona, entry(1_001, { postedOn: today() }));
    expect(open.statusCode, open.body).toBe(201);
    expect(open.json<{ adjustment: Adjustment }>().adjustment.postedOn).toBe(today());

    const future = await post(fiona, entry(1_002, { postedOn: addDays(today(), 1) }));
    expect(future.statusCode, future.body).toBe(400);
    expect(future.json().error.fields).toEqual({ postedOn: `choose a day on or before the bank's date (${today()})` });
    const same = await post(fiona, entry(1_003, { creditAccount: 'reconciliationDifferences' }));
    expect(same.statusCode).toBe(400);
    expect(same.json().error.fields).toEqual({ creditAccount: 'choose an account other than the one debited' });
    const customer = await post(fiona, entry(1_004, { debitAccount: 'customerChecking' }));
    expect(customer.statusCode).toBe(400);
    expect(customer.json().error.fields).toEqual({ debitAccount: "choose one of the bank's own accounts to debit" });
    const noReason = await post(fiona, entry(1_005, { reason: 'ok' }));
    expect(noReason.statusCode).toBe(400);
    expect(await database().query('SELECT id FROM ledger_transfers WHERE amount BETWEEN 1002 AND 1005')).toEqual([]);
  });

  it('the closed days and the accounts an entry may use are listed for finance', async () => {
    const days = await frank.browser.get('/api/v1/staff/books/days');
    expect(days.statusCode, days.body).toBe(200);
    const yesterday = addDays(today(), -1);
    expect(days.json()).toMatchObject({
      closedThrough: yesterday,
      openDay: today(),
      days: [expect.objectContaining({ day: yesterday, closedBy: 'end-of-day' })],
    });
    const accounts = await frank.browser.get('/api/v1/staff/books/accounts');
    expect(accounts.statusCode, accounts.body).toBe(200);
    const body = accounts.json<{ chart: { account: string; contra: boolean }[]; adjustable: { key: string; glAccount: string }[] }>();
    expect(body.adjustable).toContainEqual(expect.objectContaining({ key: 'settlementAch', glAccount: '1010' }));
    expect(body.adjustable).toContainEqual(expect.objectContaining({ key: 'reconciliationDifferences', glAccount: '5400' }));
    expect(body.adjustable.map((account) => account.key)).toEqual(Object.keys(operatorAccounts));
    expect(body.chart).toContainEqual(expect.objectContaining({ account: '1110', contra: true }));
  });

  it('roles without the books permissions are refused with 403, audited, and nothing is posted', async () => {
    for (const role of ['support', 'operations', 'compliance'] as const) {
      const { browser, member } = await staffBrowser(app, database(), config, role);
      const asked = await browser.post('/api/v1/staff/books/adjustments', entry(3_000));
      expect(asked.statusCode, `${role}: ${asked.body}`).toBe(403);
      expect(asked.json().error.code).toBe('forbidden');
      for (const url of ['/api/v1/staff/books/adjustments', '/api/v1/staff/books/days', '/api/v1/staff/books/accounts']) {
        expect((await browser.get(url)).statusCode, `${role} ${url}`).toBe(403);
      }
      const decided = await browser.post('/api/v1/staff/books/adjustments/00000000-0000-4000-8000-00000000beef/decision', {
        decision: 'approve',
        reason: 'Looks right',
      });
      expect(decided.statusCode).toBe(403);
      const denied = await database().query<{ details: { permission: string } }>(
        "SELECT details FROM audit_log WHERE action = 'staff.permission_denied' AND actor_id = $1 ORDER BY id",
        [member.id],
      );
      expect(denied.map((row) => row.details.permission)).toEqual(['books.adjust', 'books.adjust', 'books.read', 'books.read', 'books.adjust']);
    }
    expect(await database().query('SELECT id FROM ledger_transfers WHERE amount = 3000')).toEqual([]);
    const unknown = await fiona.browser.post('/api/v1/staff/books/adjustments/not-a-uuid/decision', { decision: 'approve', reason: 'Looks right' });
    expect(unknown.statusCode).toBe(404);
  });
});
