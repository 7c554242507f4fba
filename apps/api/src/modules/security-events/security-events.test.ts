import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, expect, it, vi } from 'vitest';
import { securityEventPageSize } from '@strongroom/contracts/security-events.ts';
import { neutralFreezeCustomerMessage } from '@strongroom/contracts/staff-customers.ts';
import type { Config } from '../../config.ts';
import { recordAudit } from '../../platform/audit.ts';
import { lastMessageTo, TestBrowser } from '../../test/client.ts';
import { testAppSuite } from '../../test/suite.ts';
import { testPassword } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { ownTransfer, paymentKit, type PayingCustomer } from '../../test/payments.ts';
import { staffBrowser } from '../../test/staff.ts';
import { exportSecurityEvents } from './service.ts';
import { genericTitle, notMeAction } from './wording.ts';
import { liveEventWait } from '../../test/live-events.ts';

const chromeOnWindows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

interface Event {
  id: string;
  action: string;
  kind: string;
  title: string;
  outcome: string;
  at: string;
  device: string | null;
  ip: string | null;
  reported: boolean;
}

describeEachDatabase('the security timeline and "This wasn\'t me" (issue 15, item 2)', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const unsubscribers: (() => void)[] = [];
  const kit = paymentKit(testAppSuite(database, (built) => ({ app, config } = built)));
  afterAll(() => {
    for (const unsubscribe of unsubscribers.splice(0)) unsubscribe();
  });

  async function emailOf(customerId: string): Promise<string> {
    const [row] = await database().query<{ email: string }>('SELECT email FROM customers WHERE id = $1', [customerId]);
    if (!row) throw new Error('no such customer');
    return row.email;
  }

  /** Signs in through the form, as a browser does, so the audit row has an address and a user agent. */
  async function signInThroughForm(who: PayingCustomer, password = testPassword): Promise<TestBrowser> {
    const browser = new TestBrowser(app);
    await browser.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: await emailOf(who.id), password },
      headers: { 'user-agent': chromeOnWindows },
    });
    return browser;
  }

  async function events(browser: TestBrowser): Promise<Event[]> {
    const response = await browser.get('/api/v1/me/security-events');
    expect(response.statusCode, response.body).toBe(200);
    return response.json().items;
  }

  it("lists sign-ins, failed sign-ins and new payees, newest first, with device and address, and only the customer's own", async () => {
    const dana = await kit.customer();
    const other = await kit.customer();
    await signInThroughForm(dana, 'not the password at all');
    const browser = await signInThroughForm(dana);
    const payee = await browser.post('/api/v1/beneficiaries', {
      bankType: 'otherbank',
      accountName: 'Other Person',
      accountNumber: '123456789012',
      routeNumber: '011000015',
      bankName: 'First Example Bank',
      nameOfCountry: 'United States',
    });
    expect(payee.statusCode, payee.body).toBe(201);
    await signInThroughForm(other);
    // Staff acting on the customer, and the customer's own non-security actions, are not security events.
    await recordAudit(database(), { actorType: 'staff', actorId: randomUUID(), action: 'customer.freeze', subject: dana.id, outcome: 'success' });
    await browser.post('/api/v1/messages', { subject: 'Hello', text: 'Just a question' });

    const items = await events(browser);
    const actions = items.map((item) => `${item.action}:${item.outcome}`);
    expect(actions.slice(0, 3)).toEqual(['beneficiary.added:success', 'auth.login:success', 'auth.login:failure']);
    expect(actions).not.toContain('customer.freeze:success');
    expect(actions).not.toContain('secure_message.sent:success');
    const signIn = items.find((item) => item.action === 'auth.login' && item.outcome === 'success');
    expect(signIn).toEqual({
      id: expect.stringMatching(/^\d+$/),
      action: 'auth.login',
      kind: 'sign_in',
      title: 'Signed in',
      outcome: 'success',
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      device: 'Chrome on Windows',
      ip: browser.ip,
      reported: false,
    });
    expect(items.find((item) => item.outcome === 'failure')).toMatchObject({ kind: 'sign_in', title: 'Failed sign-in: wrong password' });
    expect(items.find((item) => item.action === 'beneficiary.added')).toMatchObject({ kind: 'payee', title: 'New payee saved' });
    const times = items.map((item) => item.at);
    expect([...times].sort().reverse()).toEqual(times);
    // The other customer's sign-in is theirs alone.
    const otherIds = (await events(await signInThroughForm(other))).map((item) => item.id);
    expect(otherIds.filter((id) => items.some((item) => item.id === id))).toEqual([]);
  });

  it('words the events other parts record, and an action it does not know generically rather than hiding it', async () => {
    const dana = await kit.customer();
    for (const action of [
      'customer.password_changed',
      'customer.totp_enrolled',
      'customer.passkey_added',
      'customer.session_ended',
      'card.revealed',
      'customer.brand_new_thing',
    ]) {
      await recordAudit(database(), { actorType: 'customer', actorId: dana.id, action, outcome: 'success' });
    }
    const titles = Object.fromEntries((await events(dana.browser)).map((item) => [item.action, item.title]));
    expect(titles).toMatchObject({
      'customer.password_changed': 'Password changed',
      'customer.totp_enrolled': 'Authenticator app added',
      'customer.passkey_added': 'Passkey added',
      'customer.session_ended': 'A signed-in device was signed out',
      'card.revealed': 'Card number and CVV shown',
      'customer.brand_new_thing': genericTitle,
    });
    // The data export lists the same events, all of them.
    const exported = await exportSecurityEvents(database(), dana.id);
    expect(exported.map((event) => event.action)).toEqual((await events(dana.browser)).map((event) => event.action));
  });

  it('words the events the Security page really records, as its routes write them', async () => {
    const dana = await kit.customer();
    const wrongPassword = await dana.browser.post('/api/v1/me/password', {
      currentPassword: 'not the password at all',
      password: 'a new and long passphrase',
      confirmPassword: 'a new and long passphrase',
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect((await dana.browser.post('/api/v1/me/sessions/revoke-others')).statusCode).toBe(200);
    const titles = Object.fromEntries((await events(dana.browser)).map((item) => [item.action, item.title]));
    expect(titles).toMatchObject({
      'customer.password_change_failed': 'Password change refused: the current password was wrong',
      'customer.sessions_revoked': 'All other devices were signed out',
    });
  });

  it('pages newest first with a keyset cursor, each event once; a cursor that does not decode is the first page', async () => {
    const dana = await kit.customer();
    for (let index = 0; index < securityEventPageSize + 5; index += 1) {
      await recordAudit(database(), { actorType: 'customer', actorId: dana.id, action: 'step_up.challenge_sent', outcome: 'success', details: { index } });
    }
    const first = (await dana.browser.get('/api/v1/me/security-events')).json();
    expect(first.items).toHaveLength(securityEventPageSize);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await dana.browser.get(`/api/v1/me/security-events?cursor=${encodeURIComponent(first.nextCursor)}`)).json();
    const all = [...first.items, ...second.items] as Event[];
    expect(new Set(all.map((item) => item.id)).size).toBe(all.length);
    expect(all.length).toBeGreaterThanOrEqual(securityEventPageSize + 5);
    expect(second.nextCursor).toBeNull();
    const ids = all.map((item) => BigInt(item.id));
    expect(ids.every((id, index) => index === 0 || id < (ids[index - 1] ?? 0n))).toBe(true);
    const garbage = (await dana.browser.get('/api/v1/me/security-events?cursor=nonsense')).json();
    expect(garbage.items.map((item: Event) => item.id)).toEqual(first.items.map((item: Event) => item.id));
  });

  it('needs a customer session (401), and a staff session is not one', async () => {
    expect((await new TestBrowser(app).get('/api/v1/me/security-events')).statusCode).toBe(401);
    expect((await new TestBrowser(app).post('/api/v1/me/security-events/1/not-me')).statusCode).toBe(401);
    const { browser: staff } = await staffBrowser(app, database(), config, 'admin');
    expect((await staff.get('/api/v1/me/security-events')).statusCode).toBe(401);
  });

  it("another customer's event, a staff row about the customer, an unknown or malformed id: 404 not_found, and nothing happens", async () => {
    const dana = await kit.customer();
    const other = await kit.customer();
    await signInThroughForm(other);
    const othersEvent = (await events(other.browser))[0];
    await recordAudit(database(), { actorType: 'staff', actorId: randomUUID(), action: 'customer.freeze', subject: dana.id, outcome: 'success' });
    const [staffRow] = await database().query<{ id: string }>("SELECT id::text AS id FROM audit_log WHERE action = 'customer.freeze' AND subject = $1", [
      dana.id,
    ]);
    for (const id of [othersEvent?.id, staffRow?.id, '999999999999', 'abc', '0', '-1']) {
      const response = await dana.browser.post(`/api/v1/me/security-events/${id}/not-me`);
      expect(response.statusCode, `${id}: ${response.body}`).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
    expect((await dana.browser.get('/api/v1/me')).statusCode).toBe(200);
    expect(await database().query('SELECT 1 FROM customer_freezes WHERE customer_id = $1', [dana.id])).toHaveLength(0);
    expect(await database().query('SELECT 1 FROM secure_message_threads WHERE customer_id = $1', [dana.id])).toHaveLength(0);
  });

  it('"This wasn\'t me" ends every session, freezes money, opens a message to support with the event, emails, notifies and audits', async () => {
    const dana = await kit.customer({ fundCents: 50_000n });
    const published: string[] = [];
    unsubscribers.push(app.services.liveEvents.subscribe(dana.id, (topic) => published.push(topic)));
    const laptop = await signInThroughForm(dana);
    const phone = dana.browser;
    const suspicious = (await events(laptop)).find((item) => item.action === 'auth.login' && item.outcome === 'success');
    if (!suspicious) throw new Error('no sign-in event');

    const reported = await phone.post(`/api/v1/me/security-events/${suspicious.id}/not-me`);
    expect(reported.statusCode, reported.body).toBe(200);
    const report = reported.json().report;
    expect(report).toEqual({ threadId: expect.any(String), frozen: true, sessionsEnded: 2, alreadyReported: false });
    // Both browsers are signed out, the reporting one too (its cookies cleared).
    expect((await laptop.get('/api/v1/me')).statusCode).toBe(401);
    expect((await phone.get('/api/v1/me')).statusCode).toBe(401);
    expect(phone.cookies.session).toBeUndefined();
    await vi.waitFor(() => expect(published).toContain('notifications'), liveEventWait);

    // Signed in again: reading works, money does not move, and the banner's freeze is the customer's own.
    await dana.browser.signInAs(database(), dana.id);
    const me = (await dana.browser.get('/api/v1/me')).json();
    expect(me.frozen).toEqual({
      message: expect.stringContaining('"This wasn\'t me" reported by the account holder about: Signed in'),
      since: expect.any(String),
    });
    const moved = await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 100, 'x'));
    expect(moved.statusCode).toBe(403);
    expect(moved.json().error.code).toBe('account_frozen');
    const [freeze] = await database().query<{ frozen_by: string | null; frozen_by_customer: boolean }>(
      'SELECT frozen_by, frozen_by_customer FROM customer_freezes WHERE customer_id = $1 AND unfrozen_at IS NULL',
      [dana.id],
    );
    expect(freeze).toEqual({ frozen_by: null, frozen_by_customer: true });

    // The secure message to support carries the event.
    const thread = (await dana.browser.get(`/api/v1/messages/${report.threadId}`)).json().thread;
    expect(thread).toMatchObject({ subject: "This wasn't me: Signed in", status: 'waiting', reportedEventId: suspicious.id });
    expect(thread.entries[0].text).toContain(`Event reference: ${suspicious.id} (auth.login)`);
    expect(thread.entries[0].text).toContain('Device: Chrome on Windows');
    expect(thread.entries[0].text).toContain(`Address: ${laptop.ip}`);

    // The timeline marks the event reported and lists the report itself.
    const after = await events(dana.browser);
    expect(after.find((item) => item.id === suspicious.id)?.reported).toBe(true);
    expect(after.some((item) => item.action === notMeAction && item.kind === 'report')).toBe(true);

    const notifications = (await dana.browser.get('/api/v1/notifications')).json().items;
    expect(notifications.map((item: { kind: string }) => item.kind)).toContain('account_frozen');
    await app.services.jobs.runOnce();
    const mail = await lastMessageTo(database(), await emailOf(dana.id));
    expect(mail?.subject).toBe('We froze your account at your request');
    expect(mail?.text).toContain('Signed in');
    const [audit] = await database().query<{ subject: string; thread: string; froze: string }>(
      "SELECT subject, details->>'threadId' AS thread, details->>'frozeNow' AS froze FROM audit_log WHERE action = $1 AND actor_id = $2",
      [notMeAction, dana.id],
    );
    expect(audit).toEqual({ subject: suspicious.id, thread: report.threadId, froze: 'true' });

    // Staff see who froze it, and lift it as they lift their own.
    const { browser: admin } = await staffBrowser(app, database(), config, 'admin');
    const detail = (await admin.get(`/api/v1/staff/customers/${dana.id}`)).json();
    // The customer's banner says what they reported themselves (decision 053): it is their own text.
    expect(detail.freeze).toMatchObject({
      frozen: true,
      frozenBy: 'the customer themselves ("This wasn\'t me")',
      customerMessage: expect.stringContaining('"This wasn\'t me" reported by the account holder about: Signed in'),
    });
    const queue = await admin.get('/api/v1/staff/messages?status=open');
    expect(queue.statusCode).toBe(200);
    const lifted = await admin.post(`/api/v1/staff/customers/${dana.id}/unfreeze`, { reason: 'Checked with the customer by phone' });
    expect(lifted.statusCode, lifted.body).toBe(200);
    const movedAgain = await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 100, 'x'));
    expect(movedAgain.statusCode, movedAgain.body).toBe(201);
    await kit.expectLedgerConsistent();
  });

  it('a double click makes one report: the same event again answers the first report and changes nothing', async () => {
    const dana = await kit.customer();
    await signInThroughForm(dana);
    const event = (await events(dana.browser))[0];
    if (!event) throw new Error('no event');
    const [first, second] = await Promise.all([
      dana.browser.post(`/api/v1/me/security-events/${event.id}/not-me`),
      dana.browser.post(`/api/v1/me/security-events/${event.id}/not-me`),
    ]);
    const statuses = [first.statusCode, second.statusCode].sort();
    // The second click either finds the session already ended (401) or the first report (200, alreadyReported).
    expect([
      [200, 200],
      [200, 401],
    ]).toContainEqual(statuses);
    expect(await database().query('SELECT 1 FROM security_event_reports WHERE customer_id = $1', [dana.id])).toHaveLength(1);
    expect(await database().query('SELECT 1 FROM secure_message_threads WHERE customer_id = $1', [dana.id])).toHaveLength(1);

    await dana.browser.signInAs(database(), dana.id);
    const again = await dana.browser.post(`/api/v1/me/security-events/${event.id}/not-me`);
    expect(again.statusCode).toBe(200);
    expect(again.json().report).toMatchObject({ alreadyReported: true, sessionsEnded: 0 });
    expect((await dana.browser.get('/api/v1/me')).statusCode).toBe(200);
    expect(await database().query('SELECT 1 FROM secure_message_threads WHERE customer_id = $1', [dana.id])).toHaveLength(1);
    expect(await database().query('SELECT 1 FROM customer_freezes WHERE customer_id = $1', [dana.id])).toHaveLength(1);
  });

  it('while staff already froze the account, a report still signs out and reaches support, and keeps the staff freeze', async () => {
    const dana = await kit.customer();
    const { browser: admin } = await staffBrowser(app, database(), config, 'admin');
    expect(
      (await admin.post(`/api/v1/staff/customers/${dana.id}/freeze`, { reason: 'Suspicious activity', customerMessage: neutralFreezeCustomerMessage }))
        .statusCode,
    ).toBe(200);
    await dana.browser.signInAs(database(), dana.id);
    await recordAudit(database(), { actorType: 'customer', actorId: dana.id, action: 'card.revealed', outcome: 'success' });
    const event = (await events(dana.browser)).find((item) => item.action === 'card.revealed');
    const reported = await dana.browser.post(`/api/v1/me/security-events/${event?.id}/not-me`);
    expect(reported.statusCode, reported.body).toBe(200);
    expect((await dana.browser.get('/api/v1/me')).statusCode).toBe(401);
    const freezes = await database().query<{ reason: string }>('SELECT reason FROM customer_freezes WHERE customer_id = $1', [dana.id]);
    expect(freezes).toEqual([{ reason: 'Suspicious activity' }]);
  });

  it('a report of a report is refused (409) and changes nothing', async () => {
    const dana = await kit.customer();
    await recordAudit(database(), { actorType: 'customer', actorId: dana.id, action: notMeAction, outcome: 'success' });
    const event = (await events(dana.browser))[0];
    const response = await dana.browser.post(`/api/v1/me/security-events/${event?.id}/not-me`);
    expect(response.statusCode).toBe(409);
    expect((await dana.browser.get('/api/v1/me')).statusCode).toBe(200);
  });
});
