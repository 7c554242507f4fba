import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import type { StaffRole } from '@strongroom/contracts/staff.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { testAppSuite } from '../../test/suite.ts';
import { lastMessageTo, TestBrowser } from '../../test/client.ts';
import { insertBareCustomer } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { staffBrowser } from '../../test/staff.ts';
import { insertContactMessage } from './repository.ts';

async function contactMessage(db: Database) {
  const email = `${randomUUID()}@visitor.test`;
  const id = await insertContactMessage(
    db,
    { name: 'Ada Visitor', email, phone: '+1 202 555 0100', subject: 'Opening hours', message: 'When are you open?' },
    '127.0.0.1',
  );
  return { id, email };
}

async function allPages(browser: TestBrowser, status: 'open' | 'answered') {
  const seen: { id: string; status: string; replies: { text: string }[] }[] = [];
  let cursor: string | null = null;
  let pages = 0;
  let total: number;
  do {
    const cursorQuery: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page = (await browser.get(`/api/v1/staff/messages?status=${status}${cursorQuery}`)).json();
    seen.push(...page.items);
    total = page.total;
    cursor = page.nextCursor;
    pages += 1;
  } while (cursor && pages < 20);
  return { seen, pages, total };
}

describeEachDatabase('the messages queue (issue 12, messages.reply)', (database) => {
  let app: FastifyInstance;
  let config: Config;
  let support: TestBrowser;
  let supportId: string;
  testAppSuite(database, (built) => ({ app, config } = built));
  beforeAll(async () => {
    const signedIn = await staffBrowser(app, database(), config, 'support');
    support = signedIn.browser;
    supportId = signedIn.member.id;
  });

  it('lists open contact-form messages oldest first, with their source and the time they wait since', async () => {
    const first = await contactMessage(database());
    const second = await contactMessage(database());
    // Two inserts can share a clock tick (PGlite's now() is coarse), and the queue then orders them by id: the second arrives a second later.
    await database().query("UPDATE contact_messages SET created_at = created_at + interval '1 second' WHERE id = $1", [second.id]);
    const response = await support.get('/api/v1/staff/messages');
    expect(response.statusCode, response.body).toBe(200);
    const { seen, total } = await allPages(support, 'open');
    expect(total).toBe(seen.length);
    const ids = seen.map((item) => item.id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    expect(seen.find((item) => item.id === first.id)).toEqual({
      id: first.id,
      source: 'contact_form',
      customerId: null,
      name: 'Ada Visitor',
      email: first.email,
      phone: '+1 202 555 0100',
      subject: 'Opening hours',
      text: 'When are you open?',
      status: 'open',
      receivedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      answeredAt: null,
      replies: [],
      conversation: [{ id: first.id, author: 'customer', text: 'When are you open?', staffEmail: null, createdAt: expect.any(String) }],
    });
  });

  it('pages with a cursor, each message once', async () => {
    for (let index = 0; index < 27; index += 1) await contactMessage(database());
    const { seen, pages, total } = await allPages(support, 'open');
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen.map((item) => item.id)).size).toBe(total);
  });

  it('a reply is stored, answers the message, goes to the visitor as plain text, and is audited', async () => {
    const message = await contactMessage(database());
    const text = 'We open at <b>9</b> & close at 5.\nSee you soon.';
    const replied = await support.post(`/api/v1/staff/messages/${message.id}/reply`, { text });
    expect(replied.statusCode, replied.body).toBe(200);
    expect(replied.json().message).toMatchObject({
      id: message.id,
      status: 'answered',
      answeredAt: expect.any(String),
      replies: [{ text, staffId: supportId }],
    });
    const mail = await lastMessageTo(database(), message.email);
    expect(mail?.subject).toBe('Re: Opening hours');
    expect(mail?.text).toContain(text);
    const [outbox] = await database().query<{ html_body: string | null }>('SELECT html_body FROM outbox_messages WHERE to_address = $1', [message.email]);
    expect(outbox?.html_body).toBeNull();
    const [audit] = await database().query<{ actor_id: string; follow_up: string }>(
      "SELECT actor_id, details->>'followUp' AS follow_up FROM audit_log WHERE action = 'messages.reply' AND subject = $1",
      [message.id],
    );
    expect(audit).toEqual({ actor_id: supportId, follow_up: 'false' });
    const { seen: open } = await allPages(support, 'open');
    expect(open.map((item) => item.id)).not.toContain(message.id);
    const { seen: answered } = await allPages(support, 'answered');
    expect(answered.map((item) => item.id)).toContain(message.id);
  });

  it('a reply to an answered message is a follow-up: allowed, kept beside the first, and mailed', async () => {
    const message = await contactMessage(database());
    await support.post(`/api/v1/staff/messages/${message.id}/reply`, { text: 'First answer' });
    const followUp = await support.post(`/api/v1/staff/messages/${message.id}/reply`, { text: 'One more thing' });
    expect(followUp.statusCode).toBe(200);
    expect(followUp.json().message.replies.map((reply: { text: string }) => reply.text)).toEqual(['First answer', 'One more thing']);
    expect((await lastMessageTo(database(), message.email))?.text).toContain('One more thing');
  });

  it('refuses an empty reply or one over 5,000 characters, and changes nothing', async () => {
    const message = await contactMessage(database());
    for (const body of [{}, { text: '' }, { text: '   ' }, { text: 'x'.repeat(5_001) }]) {
      const response = await support.post(`/api/v1/staff/messages/${message.id}/reply`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('validation_failed');
    }
    expect(await database().query('SELECT 1 FROM message_replies WHERE contact_message_id = $1', [message.id])).toHaveLength(0);
  });

  it('answers 404 for an unknown or malformed message id', async () => {
    for (const id of [randomUUID(), 'nope']) {
      expect((await support.post(`/api/v1/staff/messages/${id}/reply`, { text: 'Hello' })).statusCode).toBe(404);
    }
  });

  it.each<[StaffRole, number]>([
    ['admin', 200],
    ['support', 200],
    ['compliance', 403],
    ['operations', 403],
  ])('a %s gets %i on the list and the reply', async (role, status) => {
    const message = await contactMessage(database());
    const { browser, member } = await staffBrowser(app, database(), config, role);
    expect((await browser.get('/api/v1/staff/messages')).statusCode).toBe(status);
    expect((await browser.post(`/api/v1/staff/messages/${message.id}/reply`, { text: 'Hello' })).statusCode).toBe(status);
    if (status === 403) {
      expect(await database().query("SELECT 1 FROM audit_log WHERE action = 'staff.permission_denied' AND actor_id = $1", [member.id])).toHaveLength(2);
    }
  });

  it('a customer cookie is not a staff session: 401', async () => {
    const customer = await new TestBrowser(app).signInAs(database(), await insertBareCustomer(database()));
    expect((await customer.get('/api/v1/staff/messages')).statusCode).toBe(401);
  });
});
