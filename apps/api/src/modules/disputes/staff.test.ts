import type { FastifyInstance } from 'fastify';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import type { Clock } from '../../db/clock.ts';
import { balanceOf, lookupAccounts } from '../../ledger/accounts.ts';
import { checkLedger } from '../../ledger/check-ledger.ts';
import { operatorAccounts } from '../../ledger/codes.ts';
import { bankDate, startOfDayIn } from '../../platform/bank-date.ts';
import { addBusinessDays, addDays } from '../../platform/business-calendar.ts';
import type { TestBrowser } from '../../test/client.ts';
import { cardSuite } from '../../test/cards.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { ownTransfer, type PayingCustomer } from '../../test/payments.ts';
import { staffBrowser } from '../../test/staff.ts';
import { disputesBeforeDay, runDisputes } from './jobs.ts';
import { reversalDate } from './deadlines.ts';
import type { StaffDisputeDependencies } from './staff-service.ts';

/**
 * Issue 34 items 3 and 5: the back office works a dispute (disputes.manage), and its money moves
 * through the ledger: provisional credit from disputes suspense, a chargeback or the bank's loss
 * when it is resolved for the customer, a denial's credit taken back on its date, never sooner.
 * The ledger is checked after every case.
 */
class SetClock implements Clock {
  #at = new Date();
  now(): Date {
    return new Date(this.#at.getTime());
  }
  set(at: Date): void {
    this.#at = at;
  }
}

const reason = 'Checked the statement and the merchant records';
const explanation = 'The merchant confirmed the charge was made in error.';

describeEachDatabase('disputes: the staff side and the money of a dispute (issue 34 items 3 and 5)', (database) => {
  const clock = new SetClock();
  let app: FastifyInstance;
  let config: Config;
  const kit = cardSuite(database, (built) => ({ app, config } = built), { dependencies: { clock } });
  let olga: { browser: TestBrowser; member: { id: string } };
  let omar: { browser: TestBrowser; member: { id: string } };
  let support: TestBrowser;

  beforeAll(async () => {
    olga = await staffBrowser(app, database(), config, 'operations');
    omar = await staffBrowser(app, database(), config, 'operations');
    support = (await staffBrowser(app, database(), config, 'support')).browser;
  });
  beforeEach(() => clock.set(new Date()));

  const deps = (): StaffDisputeDependencies => ({ db: database(), config, storage: app.services.storage, clock });
  /** The account opened long ago: 10 business days and 45 days, not a new account's limits. */
  const ageAccount = (accountId: string) => database().query(`UPDATE customer_accounts SET opened_at = now() - interval '90 days' WHERE id = $1`, [accountId]);
  const noonOf = (day: string) => new Date(startOfDayIn(config.bankTimeZone, day).getTime() + 12 * 3_600_000);

  async function ledgerGreen(): Promise<void> {
    expect((await checkLedger(database())).violations).toEqual([]);
  }

  async function operatorBalance(name: keyof typeof operatorAccounts): Promise<bigint> {
    const [account] = await lookupAccounts(database(), [operatorAccounts[name]]);
    if (!account) throw new Error(`no ${name}`);
    return balanceOf(account).balanceCents;
  }

  async function report(who: PayingCustomer, transferId: string): Promise<{ id: string; receivedOn: string }> {
    const response = await who.browser.post('/api/v1/disputes', { transferId, reason: 'unauthorized', description: 'I do not recognise this payment at all.' });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().dispute;
  }

  async function transferOut(who: PayingCustomer, amountCents = 2_500): Promise<string> {
    const response = await kit.payOtherBank(who, { toAccountNumber: '123456789', accountName: 'Grace Landlord', amountCents, message: 'Rent' });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().transfer.id;
  }

  async function cardPurchase(who: PayingCustomer, amountCents: number): Promise<string> {
    const card = await kit.activeCard(who);
    const authorization = await kit.purchase(await kit.reveal(who, card.id), amountCents);
    expect(authorization.status).toBe('approved');
    return authorization.id;
  }

  const act = (browser: TestBrowser, id: string, path: string, body: object = { reason }) => browser.post(`/api/v1/staff/disputes/${id}/${path}`, body);
  const decide = (browser: TestBrowser, id: string, decision: 'customer' | 'denied') => act(browser, id, 'decision', { decision, explanation, reason });

  async function historyLines(who: PayingCustomer): Promise<{ description: string; amountCents: number }[]> {
    const response = await who.browser.get('/api/v1/transactions');
    expect(response.statusCode).toBe(200);
    return response.json<{ items: { description: string; amountCents: number }[] }>().items;
  }

  it('support (no disputes.manage) gets 403 on every staff route, each audited; no case changes', async () => {
    const dana = await kit.customer();
    const { id } = await report(dana, await transferOut(dana));
    const evidenceId = '00000000-0000-4000-8000-000000000000';
    const before = await database().query(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'staff.permission_denied' AND actor_type = 'staff'`);
    const answers = [
      await support.get('/api/v1/staff/disputes'),
      await support.get(`/api/v1/staff/disputes/${id}`),
      await support.get(`/api/v1/staff/disputes/${id}/evidence/${evidenceId}`),
      await act(support, id, 'investigate'),
      await act(support, id, 'provisional-credit'),
      await act(support, id, 'request-information', { question: 'Did you lend your card to anyone?', reason }),
      await decide(support, id, 'denied'),
      await act(support, id, 'decision/approve'),
    ];
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(403);
      expect(answer.json().error.code).toBe('forbidden');
    }
    const [after] = await database().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'staff.permission_denied' AND actor_type = 'staff'`,
    );
    expect((after?.n ?? 0) - ((before[0] as { n: number } | undefined)?.n ?? 0)).toBe(answers.length);
    expect((await dana.browser.get(`/api/v1/disputes/${id}`)).json().dispute.status).toBe('submitted');
  });

  it('a decision or an action without a reason is refused (400) and nothing changes', async () => {
    const dana = await kit.customer();
    const { id } = await report(dana, await transferOut(dana));
    const noReason = await act(olga.browser, id, 'decision', { decision: 'denied', explanation });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.code).toBe('validation_failed');
    expect((await act(olga.browser, id, 'provisional-credit', { reason: 'no' })).statusCode).toBe(400);
    expect((await act(olga.browser, id, 'investigate', {})).statusCode).toBe(400);
    expect((await olga.browser.get(`/api/v1/staff/disputes/${id}`)).json().dispute).toMatchObject({ status: 'submitted', provisionalCreditCents: 0 });
  });

  it('the queue lists cases nearest deadline first; the case shows events with staff names, letters and the same payee; investigating is audited and told', async () => {
    const dana = await kit.customer();
    await ageAccount(dana.checking.id);
    const older = await report(dana, await transferOut(dana, 1_000));
    const first = await transferOut(dana, 1_100);
    const newer = await report(dana, first);
    // The newer case's account is young: 20 business days, later than the older's 10.
    await database().query(`UPDATE disputes SET provisional_credit_by = $2::date WHERE id = $1`, [newer.id, addBusinessDays(newer.receivedOn, 20)]);
    const queue = (await olga.browser.get('/api/v1/staff/disputes?status=submitted')).json<{ items: { id: string; nextDeadline: string }[] }>().items;
    const mine = queue.filter((item) => item.id === older.id || item.id === newer.id).map((item) => item.id);
    expect(mine).toEqual([older.id, newer.id]);
    expect(queue.find((item) => item.id === older.id)?.nextDeadline).toBe(addBusinessDays(older.receivedOn, 10));

    const started = await act(olga.browser, older.id, 'investigate');
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().dispute).toMatchObject({ status: 'investigating', overdue: false, customer: { id: dana.id } });
    expect((await act(omar.browser, older.id, 'investigate')).statusCode).toBe(409);
    const asked = await act(olga.browser, older.id, 'request-information', { question: 'Did you lend your card to anyone?', reason });
    expect(asked.statusCode, asked.body).toBe(200);

    const detail = (await omar.browser.get(`/api/v1/staff/disputes/${older.id}`)).json();
    expect(detail.events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'investigating', staffReason: reason, staffName: expect.stringContaining('operations-'), visible: true }),
        expect.objectContaining({ kind: 'information_requested', text: 'Did you lend your card to anyone?' }),
      ]),
    );
    expect(detail.letters.map((letter: { kind: string }) => letter.kind)).toEqual(['acknowledgement', 'information_request']);
    // The other payment to Grace Landlord, and not the disputed one.
    expect(detail.sameCounterparty).toEqual([expect.objectContaining({ id: first, kind: 'external', amountCents: 1_100 })]);
    const customerView = (await dana.browser.get(`/api/v1/disputes/${older.id}`)).json();
    expect(customerView.events.map((event: { kind: string }) => event.kind)).toContain('information_requested');
    const [audit] = await database().query(`SELECT actor_id, details FROM audit_log WHERE action = 'dispute.investigating' AND subject = $1`, [older.id]);
    expect(audit).toMatchObject({ actor_id: olga.member.id, details: { reason } });
    const told = (await dana.browser.get('/api/v1/notifications')).json<{ items: { name: string }[] }>().items.map((item) => item.name);
    expect(told).toEqual(expect.arrayContaining(['Dispute under investigation', 'We need more information']));
  });

  it('provisional credit moves the money from disputes suspense with a history line; given twice, 409 and nothing moves', async () => {
    const dana = await kit.customer();
    const { id } = await report(dana, await transferOut(dana, 2_500));
    const suspense = await operatorBalance('disputesSuspense');
    const balance = (await kit.balances(dana)).checking.balanceCents;
    const credited = await act(olga.browser, id, 'provisional-credit');
    expect(credited.statusCode, credited.body).toBe(200);
    expect(credited.json().dispute).toMatchObject({ status: 'provisionally_credited', provisionalCreditCents: 2_500, nextDeadline: expect.any(String) });
    expect((await kit.balances(dana)).checking.balanceCents).toBe(balance + 2_500);
    expect((await operatorBalance('disputesSuspense')) - suspense).toBe(2_500n);
    expect(await historyLines(dana)).toEqual(
      expect.arrayContaining([expect.objectContaining({ description: 'Provisional credit: dispute of Rent', amountCents: 2_500 })]),
    );
    // And the account's statement, as the customer downloads it (issue 34 item 5).
    const today = await bankDate(database(), config, clock);
    const csv = await dana.browser.get(`/api/v1/accounts/${dana.checking.id}/statement?from=${addDays(today, -1)}&to=${addDays(today, 1)}&format=csv`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toMatch(/Provisional credit: dispute of Rent[^\n]*25\.00/);

    const twice = await act(omar.browser, id, 'provisional-credit');
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('dispute_state');
    expect((await kit.balances(dana)).checking.balanceCents).toBe(balance + 2_500);
    const [refused] = await database().query(`SELECT outcome FROM audit_log WHERE action = 'dispute.provisional_credit_refused' AND subject = $1`, [id]);
    expect(refused).toMatchObject({ outcome: 'failure' });
    const letters = (await dana.browser.get(`/api/v1/disputes/${id}`)).json().letters.map((letter: { kind: string }) => letter.kind);
    expect(letters).toEqual(['acknowledgement', 'provisional_credit']);
    await ledgerGreen();
  });

  it('a card charge resolved for the customer is charged back: the card settlement account gets the money back and suspense is cleared', async () => {
    const dana = await kit.customer();
    await ageAccount(dana.checking.id);
    const { id } = await report(dana, await cardPurchase(dana, 4_200));
    const [suspense, settlement, losses] = [
      await operatorBalance('disputesSuspense'),
      await operatorBalance('settlementCard'),
      await operatorBalance('disputeLosses'),
    ];
    const balance = (await kit.balances(dana)).checking.balanceCents;
    expect((await act(olga.browser, id, 'provisional-credit')).statusCode).toBe(200);
    const resolved = await decide(omar.browser, id, 'customer');
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json().dispute).toMatchObject({ status: 'resolved', provisionalCreditCents: 4_200, reversalOn: null });
    expect((await kit.balances(dana)).checking.balanceCents).toBe(balance + 4_200);
    expect((await operatorBalance('settlementCard')) - settlement).toBe(4_200n);
    expect(await operatorBalance('disputesSuspense')).toBe(suspense);
    expect(await operatorBalance('disputeLosses')).toBe(losses);
    const [row] = await database().query<{ chargeback_transfer_id: string | null; decided_by: string }>(
      'SELECT chargeback_transfer_id, decided_by FROM disputes WHERE id = $1',
      [id],
    );
    expect(row?.chargeback_transfer_id).not.toBeNull();
    expect(row?.decided_by).toBe(omar.member.id);
    const detail = (await dana.browser.get(`/api/v1/disputes/${id}`)).json();
    expect(detail.events.map((event: { kind: string }) => event.kind)).toEqual(expect.arrayContaining(['chargeback', 'resolved']));
    expect(detail.letters.map((letter: { kind: string }) => letter.kind)).toContain('result');
    expect((await decide(olga.browser, id, 'denied')).statusCode).toBe(409);
    await ledgerGreen();
  });

  it('a transfer resolved for the customer without credit before: the credit is given and final, and the bank bears it (dispute losses)', async () => {
    const dana = await kit.customer();
    const { id } = await report(dana, await transferOut(dana, 3_300));
    const [suspense, losses] = [await operatorBalance('disputesSuspense'), await operatorBalance('disputeLosses')];
    const balance = (await kit.balances(dana)).checking.balanceCents;
    const resolved = await decide(olga.browser, id, 'customer');
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json().dispute).toMatchObject({ status: 'resolved', provisionalCreditCents: 3_300 });
    expect((await kit.balances(dana)).checking.balanceCents).toBe(balance + 3_300);
    expect((await operatorBalance('disputeLosses')) - losses).toBe(3_300n);
    expect(await operatorBalance('disputesSuspense')).toBe(suspense);
    expect(await historyLines(dana)).toEqual(expect.arrayContaining([expect.objectContaining({ description: 'Credit: dispute of Rent', amountCents: 3_300 })]));
    await ledgerGreen();
  });

  it('four eyes: resolving $600.00 for the customer waits (202, not shown to the customer); the same person 403; another approves and the money moves', async () => {
    const dana = await kit.customer();
    await ageAccount(dana.checking.id);
    const { id } = await report(dana, await cardPurchase(dana, 60_000));
    const balance = (await kit.balances(dana)).checking.balanceCents;
    const proposed = await decide(olga.browser, id, 'customer');
    expect(proposed.statusCode, proposed.body).toBe(202);
    expect(proposed.json()).toMatchObject({
      awaitingApproval: true,
      dispute: { status: 'submitted', pendingDecision: { decision: 'customer', by: olga.member.id, reason } },
    });
    expect((await kit.balances(dana)).checking.balanceCents).toBe(balance);
    const customerView = (await dana.browser.get(`/api/v1/disputes/${id}`)).json();
    expect(customerView.events.map((event: { kind: string }) => event.kind)).not.toContain('decision_proposed');
    expect((await decide(omar.browser, id, 'denied')).statusCode).toBe(409);

    const own = await act(olga.browser, id, 'decision/approve');
    expect(own.statusCode).toBe(403);
    expect(own.json().error.code).toBe('four_eyes_required');
    const [denied] = await database().query(`SELECT outcome FROM audit_log WHERE action = 'dispute.decision_approval_refused' AND subject = $1`, [id]);
    expect(denied).toMatchObject({ outcome: 'denied' });

    const approved = await act(omar.browser, id, 'decision/approve', { reason: 'Reviewed the merchant evidence: agreed' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().dispute).toMatchObject({ status: 'resolved', provisionalCreditCents: 60_000, pendingDecision: null });
    expect((await kit.balances(dana)).checking.balanceCents).toBe(balance + 60_000);
    const [audit] = await database().query(`SELECT actor_id, details FROM audit_log WHERE action = 'dispute.decision_approved' AND subject = $1`, [id]);
    expect(audit).toMatchObject({ actor_id: omar.member.id, details: { proposedBy: olga.member.id, decision: 'customer' } });
    expect((await act(omar.browser, id, 'decision/approve')).statusCode).toBe(409);
    await ledgerGreen();
  });

  it('two staff deciding at once: one 200, the other 409 dispute_state, and the money moves once', async () => {
    const dana = await kit.customer();
    const { id } = await report(dana, await transferOut(dana, 1_700));
    const balance = (await kit.balances(dana)).checking.balanceCents;
    const answers = await Promise.all([decide(olga.browser, id, 'customer'), decide(omar.browser, id, 'customer')]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.statusCode === 409)?.json().error.code).toBe('dispute_state');
    expect((await kit.balances(dana)).checking.balanceCents).toBe(balance + 1_700);
    await ledgerGreen();
  });

  it("evidence viewed by staff is served and the viewing audited; another dispute's evidence id is not found", async () => {
    const dana = await kit.customer();
    const { id } = await report(dana, await transferOut(dana));
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
    const boundary = 'dispute-evidence-boundary';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="receipt.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
      pdf,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await dana.browser.request({
      method: 'POST',
      url: `/api/v1/disputes/${id}/evidence`,
      payload: body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const evidenceId = uploaded.json().evidence.id;
    const viewed = await olga.browser.get(`/api/v1/staff/disputes/${id}/evidence/${evidenceId}`);
    expect(viewed.statusCode).toBe(200);
    expect(viewed.headers['content-type']).toContain('application/pdf');
    expect(viewed.rawPayload.equals(pdf)).toBe(true);
    const [audit] = await database().query(`SELECT actor_id, details FROM audit_log WHERE action = 'dispute.evidence_viewed' AND subject = $1`, [id]);
    expect(audit).toMatchObject({ actor_id: olga.member.id, details: { evidenceId } });
    const other = await report(dana, await transferOut(dana));
    expect((await olga.browser.get(`/api/v1/staff/disputes/${other.id}/evidence/${evidenceId}`)).statusCode).toBe(404);
    expect((await olga.browser.get('/api/v1/staff/disputes/not-a-dispute')).statusCode).toBe(404);
  });

  // The cases below move the clock forward: the job credits every case due by then, so they run last.

  it('denied after credit: nothing is taken back before reversalOn; on that date the credit is reversed with a history line, once', async () => {
    const dana = await kit.customer();
    const { id } = await report(dana, await transferOut(dana, 2_000));
    expect((await act(olga.browser, id, 'provisional-credit')).statusCode).toBe(200);
    const balance = (await kit.balances(dana)).checking.balanceCents;
    const suspense = await operatorBalance('disputesSuspense');
    const today = await bankDate(database(), config, clock);
    const denied = await decide(omar.browser, id, 'denied');
    expect(denied.statusCode, denied.body).toBe(200);
    const reversalOn = reversalDate(today);
    expect(denied.json().dispute).toMatchObject({ status: 'denied', reversalOn, provisionalCreditCents: 2_000 });
    const events = (await dana.browser.get(`/api/v1/disputes/${id}`)).json().events.map((event: { kind: string }) => event.kind);
    expect(events).toEqual(expect.arrayContaining(['denied', 'reversal_scheduled']));

    clock.set(noonOf(addDays(reversalOn, -1)));
    await runDisputes(deps(), await bankDate(database(), config, clock));
    expect((await kit.balances(dana)).checking.balanceCents).toBe(balance);

    clock.set(noonOf(reversalOn));
    const day = await bankDate(database(), config, clock);
    await Promise.all([runDisputes(deps(), day), runDisputes(deps(), day)]);
    expect((await kit.balances(dana)).checking.balanceCents).toBe(balance - 2_000);
    expect(await operatorBalance('disputesSuspense')).toBe(suspense - 2_000n);
    const lines = (await historyLines(dana)).filter((line) => line.description === 'Provisional credit reversed: dispute of Rent');
    expect(lines).toEqual([expect.objectContaining({ amountCents: -2_000 })]);
    const detail = (await dana.browser.get(`/api/v1/disputes/${id}`)).json();
    expect(detail.events.map((event: { kind: string }) => event.kind)).toContain('reversed');
    expect(detail.letters.map((letter: { kind: string }) => letter.kind)).toContain('reversal_notice');
    await ledgerGreen();
  });

  it('a reversal the account cannot cover takes what it has and leaves the rest owed: the balance below zero', async () => {
    const dana = await kit.customer();
    const { id } = await report(dana, await transferOut(dana, 2_000));
    expect((await act(olga.browser, id, 'provisional-credit')).statusCode).toBe(200);
    expect((await decide(omar.browser, id, 'denied')).statusCode).toBe(200);
    // Everything in checking moved to savings before the reversal date.
    const available = (await kit.balances(dana)).checking.availableCents;
    const moved = await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, available - 500, 'Put away'));
    expect(moved.statusCode, moved.body).toBe(201);
    const [row] = await database().query<{ reversal_on: string }>('SELECT reversal_on::text AS reversal_on FROM disputes WHERE id = $1', [id]);
    clock.set(noonOf(row?.reversal_on ?? ''));
    expect((await runDisputes(deps(), await bankDate(database(), config, clock))).reversed).toBeGreaterThanOrEqual(1);
    // What the account has (its $5.00) is taken; the other $15.00 is owed, so what it has to spend is below zero.
    expect((await kit.balances(dana)).checking.availableCents).toBe(500 - 2_000);
    const [owing] = await database().query<{ owed_ledger_account_id: string | null }>('SELECT owed_ledger_account_id FROM customer_accounts WHERE id = $1', [
      dana.checking.id,
    ]);
    const [owedAccount] = await lookupAccounts(database(), [owing?.owed_ledger_account_id ?? '']);
    expect(owedAccount ? balanceOf(owedAccount).balanceCents : 0n).toBe(1_500n);
    const [dispute] = await database().query<{ reversal_payment_id: string | null }>('SELECT reversal_payment_id FROM disputes WHERE id = $1', [id]);
    expect(dispute?.reversal_payment_id).not.toBeNull();
    await ledgerGreen();
  });

  it('the job gives provisional credit automatically on the 10th business day, not on the 9th', async () => {
    const dana = await kit.customer();
    await ageAccount(dana.checking.id);
    const { id, receivedOn } = await report(dana, await transferOut(dana, 1_200));
    const balance = (await kit.balances(dana)).checking.balanceCents;

    clock.set(noonOf(addBusinessDays(receivedOn, 9)));
    await runDisputes(deps(), await bankDate(database(), config, clock));
    expect((await kit.balances(dana)).checking.balanceCents).toBe(balance);
    const queue = (await olga.browser.get('/api/v1/staff/disputes')).json<{ items: { id: string; overdue: boolean }[] }>().items;
    expect(queue.find((item) => item.id === id)?.overdue).toBe(false);

    clock.set(noonOf(addBusinessDays(receivedOn, 10)));
    const day = await bankDate(database(), config, clock);
    await Promise.all([runDisputes(deps(), day), runDisputes(deps(), day)]);
    expect((await kit.balances(dana)).checking.balanceCents).toBe(balance + 1_200);
    const [event] = await database().query(`SELECT staff_reason, staff_id FROM dispute_events WHERE dispute_id = $1 AND kind = 'provisional_credit'`, [id]);
    expect(event).toEqual({ staff_reason: 'Regulation E: provisional credit by the 10th business day', staff_id: null });
    const [audit] = await database().query(`SELECT actor_type FROM audit_log WHERE action = 'dispute.provisional_credit' AND subject = $1`, [id]);
    expect(audit).toEqual({ actor_type: 'system' });
    expect((await dana.browser.get(`/api/v1/disputes/${id}`)).json().dispute).toMatchObject({
      status: 'provisionally_credited',
      provisionalCreditCents: 1_200,
    });
    // End of day's hook runs what comes first (the scheduled payments'), then the disputes' steps of that day: nothing twice.
    const ran: string[] = [];
    await disputesBeforeDay(deps(), async (first) => {
      ran.push(first);
    })(day);
    expect(ran).toEqual([day]);
    expect((await kit.balances(dana)).checking.balanceCents).toBe(balance + 1_200);
    await ledgerGreen();
  });
});
