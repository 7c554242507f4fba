import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { cardSuite } from '../../test/cards.ts';
import { lastMessageTo, type TestBrowser } from '../../test/client.ts';
import { uniqueTestPhone } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { applyForLoan, validApplication } from '../../test/loans.ts';
import { staffBrowser } from '../../test/staff.ts';

describeEachDatabase('contact details: staff correct them, and the customer page shows cards and loans', (database) => {
  let app: FastifyInstance;
  let config: Config;
  let admin: TestBrowser;
  const kit = cardSuite(database, (built) => ({ app, config } = built), { environment: { RAIL_SPEED: 'instant', CARD_AUTO_APPROVE_SECONDS: 'off' } });
  const address = { country: 'US', address: '500 Main Street\nSuite 2', city: 'Denver', state: 'CO', zipCode: '80202' };

  beforeAll(async () => {
    admin = (await staffBrowser(app, database(), config, 'admin')).browser;
  });

  async function emailOf(customerId: string): Promise<string> {
    const [row] = await database().query<{ email: string }>('SELECT email FROM customers WHERE id = $1', [customerId]);
    return row?.email ?? '';
  }

  function correct(browser: TestBrowser, customerId: string, body: object) {
    return browser.request({ method: 'PUT', url: `/api/v1/staff/customers/${customerId}/contact`, payload: body });
  }

  it('an administrator corrects the email, phone and address with a reason: audited with before and after masked, the customer told at the old and new places', async () => {
    const dana = await kit.customer();
    const oldEmail = await emailOf(dana.id);
    const newEmail = `${randomUUID()}@example.org`;
    const newPhone = uniqueTestPhone();
    const response = await correct(admin, dana.id, {
      email: newEmail,
      phone: { countryCode: 'US', phoneNumber: newPhone.replace('+1', '') },
      address,
      reason: 'Customer called from the number on file and asked',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ email: newEmail, phone: { number: newPhone, country: 'US' }, address, changed: ['email', 'phone', 'address'] });

    const [audit] = await database().query<{ actor_type: string; outcome: string; details: Record<string, string> }>(
      "SELECT actor_type, outcome, details FROM audit_log WHERE subject = $1 AND action = 'customer.contact_corrected'",
      [dana.id],
    );
    expect(audit).toMatchObject({
      actor_type: 'staff',
      outcome: 'success',
      details: {
        reason: 'Customer called from the number on file and asked',
        changed: 'email,phone,address',
        emailBefore: expect.stringMatching(/^.•••@example\.com$/),
        emailAfter: expect.stringMatching(/^.•••@example\.org$/),
        phoneBefore: `•••• ${dana.phone.slice(-4)}`,
        phoneAfter: `•••• ${newPhone.slice(-4)}`,
        addressBefore: null,
        addressAfter: 'Denver, CO 80202',
      },
    });
    expect(JSON.stringify(audit?.details)).not.toContain(newEmail);
    expect(JSON.stringify(audit?.details)).not.toContain('500 Main Street');
    expect((await lastMessageTo(database(), oldEmail))?.subject).toMatch(/contact details were updated/);
    expect((await lastMessageTo(database(), newEmail))?.subject).toMatch(/contact details were updated/);
    expect((await lastMessageTo(database(), dana.phone))?.text).toContain(`•••• ${newPhone.slice(-4)}`);
    const notifications = (await dana.browser.get('/api/v1/notifications')).json<{ items: { kind: string }[] }>().items;
    expect(notifications.map((item) => item.kind)).toContain('contact_details');
    const contact = (await dana.browser.get('/api/v1/me/contact')).json();
    expect(contact).toMatchObject({ email: newEmail, phone: { number: newPhone }, address });
  });

  it('needs a reason of 3 to 500 characters and at least one change', async () => {
    const dana = await kit.customer();
    const noReason = await correct(admin, dana.id, { address });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.fields.reason).toBeDefined();
    const short = await correct(admin, dana.id, { address, reason: 'no' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields.reason).toBe('the reason needs at least 3 characters');
    const nothing = await correct(admin, dana.id, { reason: 'Nothing at all' });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().error.fields.email).toBe('change at least one of the email, the phone or the address');
    expect((await dana.browser.get('/api/v1/me/contact')).json().address).toBeNull();
  });

  it('a role without customers.correct (compliance, support) gets 403 forbidden, audited, and nothing changes', async () => {
    const dana = await kit.customer();
    const before = await emailOf(dana.id);
    const { browser: compliance, member } = await staffBrowser(app, database(), config, 'compliance');
    const refused = await correct(compliance, dana.id, { email: `${randomUUID()}@example.org`, reason: 'Trying without the permission' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('forbidden');
    const [denied] = await database().query<{ outcome: string; details: { permission: string } }>(
      "SELECT outcome, details FROM audit_log WHERE actor_id = $1 AND action = 'staff.permission_denied'",
      [member.id],
    );
    expect(denied).toMatchObject({ outcome: 'denied', details: { permission: 'customers.correct' } });
    // Support reads customers and answers messages; correcting is an administrator's.
    const { browser: supportMember } = await staffBrowser(app, database(), config, 'support');
    expect((await correct(supportMember, dana.id, { email: `${randomUUID()}@example.org`, reason: 'Trying as support' })).statusCode).toBe(403);
    expect(await emailOf(dana.id)).toBe(before);
  });

  it('refuses an email another customer uses and a phone another customer verified; an unknown customer is 404', async () => {
    const dana = await kit.customer();
    const erin = await kit.customer();
    const taken = await correct(admin, dana.id, { email: await emailOf(erin.id), reason: 'Typo in the address' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.code).toBe('email_taken');
    const phoneTaken = await correct(admin, dana.id, { phone: { countryCode: 'US', phoneNumber: erin.phone.replace('+1', '') }, reason: 'New phone' });
    expect(phoneTaken.statusCode).toBe(409);
    expect(phoneTaken.json().error.code).toBe('phone_taken');
    const unknown = await correct(admin, randomUUID(), { address, reason: 'Moved house' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('not_found');
  });

  it("the staff customer page shows the customer's cards (last four only) and loans, and the address", async () => {
    const dana = await kit.customer();
    const card = await kit.activeCard(dana, { type: 'credit', creditLimitCents: 150_000 });
    const revealed = await kit.reveal(dana, card.id);
    const applied = await applyForLoan(dana.browser);
    expect(applied.statusCode, applied.body).toBe(201);
    expect((await correct(admin, dana.id, { address, reason: 'Moved house' })).statusCode).toBe(200);

    const response = await admin.get(`/api/v1/staff/customers/${dana.id}`);
    expect(response.statusCode).toBe(200);
    const detail = response.json<{ cards: Record<string, unknown>[]; loans: Record<string, unknown>[]; address: unknown }>();
    expect(detail.cards).toEqual([
      expect.objectContaining({ id: card.id, type: 'credit', status: 'active', last4: card.last4, creditLimitCents: 150_000, balanceOwedCents: 0 }),
    ]);
    expect(detail.loans).toEqual([expect.objectContaining({ status: 'submitted', requestedAmountCents: validApplication.amountCents })]);
    expect(detail.address).toEqual(address);
    // The full number, looked for as itself: a run of 13+ digits can occur by chance inside a random hex id.
    expect(response.body).not.toContain(revealed.number);
    expect(response.body).not.toMatch(/cvv/i);
  });
});
