import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, expect, it, vi } from 'vitest';
import { secureMessageLimits, secureMessageMessages, secureMessagePageSize } from '@strongroom/contracts/secure-messages.ts';
import type { StaffRole } from '@strongroom/contracts/staff.ts';
import type { Config } from '../../config.ts';
import { testAppSuite } from '../../test/suite.ts';
import { TestBrowser } from '../../test/client.ts';
import { insertBareCustomer } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { staffBrowser } from '../../test/staff.ts';
import { secureMessagesPerHour } from './routes.ts';
import { exportSecureMessages } from './service.ts';
import { liveEventWait } from '../../test/live-events.ts';

interface Entry {
  id: string;
  author: string;
  text: string;
}

/** Every message of one status in the staff queue, page after page. */
async function queuePage(browser: TestBrowser, status: 'open' | 'answered'): Promise<{ id: string }[]> {
  const seen: { id: string }[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 40; pages += 1) {
    const cursorQuery: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page: { items: { id: string }[]; nextCursor: string | null } = (await browser.get(`/api/v1/staff/messages?status=${status}${cursorQuery}`)).json();
    seen.push(...page.items);
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  return seen;
}

describeEachDatabase('secure messages (issue 15, item 4)', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const unsubscribers: (() => void)[] = [];
  testAppSuite(database, (built) => ({ app, config } = built));
  afterAll(() => {
    for (const unsubscribe of unsubscribers.splice(0)) unsubscribe();
  });

  async function customer() {
    const id = await insertBareCustomer(database());
    return { id, browser: await new TestBrowser(app).signInAs(database(), id) };
  }

  it('a customer opens a thread, sees it listed and shown with its message, and it is audited', async () => {
    const ada = await customer();
    const sent = await ada.browser.post('/api/v1/messages', { subject: '  Card delivery  ', text: 'Where is my card?' });
    expect(sent.statusCode, sent.body).toBe(201);
    const thread = sent.json().thread;
    expect(thread).toMatchObject({
      subject: 'Card delivery',
      status: 'waiting',
      messageCount: 1,
      preview: 'Where is my card?',
      reportedEventId: null,
      entries: [{ author: 'customer', text: 'Where is my card?' }],
    });
    const list = (await ada.browser.get('/api/v1/messages')).json();
    expect(list).toMatchObject({ items: [{ id: thread.id, subject: 'Card delivery', status: 'waiting' }], nextCursor: null });
    const shown = await ada.browser.get(`/api/v1/messages/${thread.id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json().thread.entries.map((entry: Entry) => entry.text)).toEqual(['Where is my card?']);
    const audit = await database().query("SELECT 1 FROM audit_log WHERE action = 'secure_message.sent' AND actor_id = $1 AND subject = $2", [
      ada.id,
      thread.id,
    ]);
    expect(audit).toHaveLength(1);
  });

  it('a follow-up joins the thread, which waits for support again', async () => {
    const ada = await customer();
    const thread = (await ada.browser.post('/api/v1/messages', { subject: 'Statement', text: 'First' })).json().thread;
    const followed = await ada.browser.post(`/api/v1/messages/${thread.id}/replies`, { text: 'And a second thing' });
    expect(followed.statusCode, followed.body).toBe(201);
    expect(followed.json().thread.entries.map((entry: Entry) => entry.text)).toEqual(['First', 'And a second thing']);
    expect(followed.json().thread.status).toBe('waiting');
  });

  it('stores HTML as the text typed, never as markup', async () => {
    const ada = await customer();
    const html = '<img src=x onerror=alert(1)>';
    const thread = (await ada.browser.post('/api/v1/messages', { subject: html, text: html })).json().thread;
    expect(thread.subject).toBe(html);
    expect(thread.entries[0].text).toBe(html);
  });

  it.each([
    [{}, ['subject', 'text']],
    [{ subject: '', text: '' }, ['subject', 'text']],
    [{ subject: '   ', text: 'Hello' }, ['subject']],
    [{ subject: 'Hello', text: '  \n ' }, ['text']],
    [{ subject: 'x'.repeat(secureMessageLimits.subjectMaxLength + 1), text: 'Hello' }, ['subject']],
    [{ subject: 'Hello', text: 'x'.repeat(secureMessageLimits.textMaxLength + 1) }, ['text']],
    [{ subject: 'Hello', text: 'bell\u0007' }, ['text']],
  ])('refuses %j with field messages, and stores nothing', async (body, fields) => {
    const ada = await customer();
    const response = await ada.browser.post('/api/v1/messages', body);
    expect(response.statusCode).toBe(400);
    const error = response.json().error;
    expect(error.code).toBe('validation_failed');
    expect(Object.keys(error.fields).sort()).toEqual(fields);
    expect(await database().query('SELECT 1 FROM secure_message_threads WHERE customer_id = $1', [ada.id])).toHaveLength(0);
  });

  it('takes a subject and a text of exactly the limits', async () => {
    const ada = await customer();
    const response = await ada.browser.post('/api/v1/messages', {
      subject: 's'.repeat(secureMessageLimits.subjectMaxLength),
      text: 't'.repeat(secureMessageLimits.textMaxLength),
    });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('says which field is empty in words', async () => {
    const ada = await customer();
    const error = (await ada.browser.post('/api/v1/messages', { subject: '', text: '' })).json().error;
    expect(error.fields).toEqual({ subject: secureMessageMessages.subjectRequired, text: secureMessageMessages.textRequired });
  });

  it('refuses an empty or over-long follow-up and adds nothing', async () => {
    const ada = await customer();
    const thread = (await ada.browser.post('/api/v1/messages', { subject: 'Limits', text: 'First' })).json().thread;
    for (const body of [{}, { text: '' }, { text: 'x'.repeat(secureMessageLimits.textMaxLength + 1) }]) {
      const response = await ada.browser.post(`/api/v1/messages/${thread.id}/replies`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'validation_failed', fields: { text: expect.any(String) } });
    }
    expect(await database().query('SELECT 1 FROM secure_message_posts WHERE thread_id = $1', [thread.id])).toHaveLength(1);
  });

  it("another customer's thread answers exactly like a missing one (404 not_found), to read and to follow up", async () => {
    const ada = await customer();
    const eve = await customer();
    const thread = (await ada.browser.post('/api/v1/messages', { subject: 'Private', text: 'Mine' })).json().thread;
    const missing = randomUUID();
    for (const id of [thread.id, missing, 'not-a-uuid']) {
      const read = await eve.browser.get(`/api/v1/messages/${id}`);
      expect(read.statusCode).toBe(404);
      expect(read.json().error.code).toBe('not_found');
      const write = await eve.browser.post(`/api/v1/messages/${id}/replies`, { text: 'Sneaky' });
      expect(write.statusCode).toBe(404);
      const missingAnswer = (await eve.browser.post(`/api/v1/messages/${missing}/replies`, { text: 'Sneaky' })).json().error;
      expect([write.json().error.code, write.json().error.message]).toEqual([missingAnswer.code, missingAnswer.message]);
      expect([read.json().error.code, read.json().error.message]).toEqual([missingAnswer.code, missingAnswer.message]);
    }
    expect((await eve.browser.get('/api/v1/messages')).json().items).toEqual([]);
    expect(await database().query('SELECT 1 FROM secure_message_posts WHERE thread_id = $1', [thread.id])).toHaveLength(1);
  });

  it('needs a customer session: 401 without one, 403 without the CSRF header', async () => {
    const anonymous = new TestBrowser(app);
    expect((await anonymous.get('/api/v1/messages')).statusCode).toBe(401);
    expect((await anonymous.post('/api/v1/messages', { subject: 'a', text: 'b' })).statusCode).toBe(401);
    const ada = await customer();
    const noCsrf = await ada.browser.request({
      method: 'POST',
      url: '/api/v1/messages',
      payload: { subject: 'a', text: 'b' },
      headers: { 'x-csrf-token': 'wrong' },
    });
    expect(noCsrf.statusCode).toBe(403);
    const { browser: staff } = await staffBrowser(app, database(), config, 'support');
    expect((await staff.get('/api/v1/messages')).statusCode).toBe(401);
  });

  it('lists the newest activity first and pages with a cursor, each thread once', async () => {
    const ada = await customer();
    const ids: string[] = [];
    for (let index = 0; index < secureMessagePageSize + 3; index += 1) {
      ids.push((await ada.browser.post('/api/v1/messages', { subject: `Thread ${index}`, text: 'Hello' })).json().thread.id);
    }
    await ada.browser.post(`/api/v1/messages/${ids[0]}/replies`, { text: 'Bump' });
    const first = (await ada.browser.get('/api/v1/messages')).json();
    expect(first.items).toHaveLength(secureMessagePageSize);
    expect(first.items[0].id).toBe(ids[0]);
    const second = (await ada.browser.get(`/api/v1/messages?cursor=${encodeURIComponent(first.nextCursor)}`)).json();
    expect(second.nextCursor).toBeNull();
    const seen = [...first.items, ...second.items].map((item: { id: string }) => item.id);
    expect(new Set(seen).size).toBe(ids.length);
    expect(seen.sort()).toEqual([...ids].sort());
  });

  it('a staff answer shows in the queue with the customer, joins the thread, notifies the customer live, and is audited', async () => {
    const ada = await customer();
    const published: string[] = [];
    unsubscribers.push(app.services.liveEvents.subscribe(ada.id, (topic) => published.push(topic)));
    const html = '<img src=x onerror=alert(1)>';
    const thread = (await ada.browser.post('/api/v1/messages', { subject: 'Help please', text: html })).json().thread;
    await ada.browser.post(`/api/v1/messages/${thread.id}/replies`, { text: 'Any news?' });
    const { browser: support, member } = await staffBrowser(app, database(), config, 'support');
    const queued = (await queuePage(support, 'open')).find((item) => item.id === thread.id);
    expect(queued).toMatchObject({
      source: 'secure_message',
      customerId: ada.id,
      subject: 'Help please',
      text: html,
      status: 'open',
      replies: [],
      conversation: [
        { author: 'customer', text: html, staffEmail: null },
        { author: 'customer', text: 'Any news?', staffEmail: null },
      ],
    });
    const answered = await support.post(`/api/v1/staff/messages/${thread.id}/reply`, { text: 'It is on its way.' });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json().message).toMatchObject({
      source: 'secure_message',
      status: 'answered',
      replies: [{ text: 'It is on its way.', staffId: member.id }],
      conversation: [{ author: 'customer' }, { author: 'customer' }, { author: 'staff', text: 'It is on its way.', staffEmail: member.email }],
    });
    await vi.waitFor(() => expect(published).toContain('notifications'), liveEventWait);
    const shown = (await ada.browser.get(`/api/v1/messages/${thread.id}`)).json().thread;
    expect(shown.status).toBe('answered');
    expect(shown.entries.map((entry: Entry) => [entry.author, entry.text])).toEqual([
      ['customer', html],
      ['customer', 'Any news?'],
      ['bank', 'It is on its way.'],
    ]);
    expect(JSON.stringify(shown)).not.toContain(member.email);
    const notifications = (await ada.browser.get('/api/v1/notifications')).json().items;
    expect(notifications[0]).toMatchObject({ kind: 'secure_message', name: 'Support answered your message', link: `/messages/${thread.id}` });
    const audit = await database().query<{ actor_id: string }>("SELECT actor_id FROM audit_log WHERE action = 'messages.reply' AND subject = $1", [thread.id]);
    expect(audit).toEqual([{ actor_id: member.id }]);
    // Nothing of a secure message leaves the bank by email: the answer waits in the thread.
    expect(await database().query('SELECT 1 FROM outbox_messages WHERE to_address = (SELECT email FROM customers WHERE id = $1)', [ada.id])).toHaveLength(0);
    // The customer writes again: the thread goes back to the open queue.
    await ada.browser.post(`/api/v1/messages/${thread.id}/replies`, { text: 'Thanks!' });
    expect((await queuePage(support, 'open')).map((item) => item.id)).toContain(thread.id);
  });

  it('refuses an empty or over-long staff answer to a secure message and stores nothing', async () => {
    const ada = await customer();
    const thread = (await ada.browser.post('/api/v1/messages', { subject: 'Empty', text: 'Hi' })).json().thread;
    const { browser: support } = await staffBrowser(app, database(), config, 'support');
    for (const body of [{}, { text: ' ' }, { text: 'x'.repeat(5_001) }]) {
      const response = await support.post(`/api/v1/staff/messages/${thread.id}/reply`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('validation_failed');
    }
    expect(await database().query('SELECT 1 FROM message_replies WHERE secure_message_thread_id = $1', [thread.id])).toHaveLength(0);
  });

  it.each<[StaffRole, number]>([
    ['admin', 200],
    ['support', 200],
    ['compliance', 403],
    ['operations', 403],
  ])('a %s gets %i when answering a secure message', async (role, status) => {
    const ada = await customer();
    const thread = (await ada.browser.post('/api/v1/messages', { subject: 'Roles', text: 'Hi' })).json().thread;
    const { browser } = await staffBrowser(app, database(), config, role);
    const response = await browser.post(`/api/v1/staff/messages/${thread.id}/reply`, { text: 'Hello' });
    expect(response.statusCode).toBe(status);
    const stored = await database().query('SELECT 1 FROM message_replies WHERE secure_message_thread_id = $1', [thread.id]);
    expect(stored).toHaveLength(status === 200 ? 1 : 0);
  });

  it('a customer cookie cannot answer: 401', async () => {
    const ada = await customer();
    const thread = (await ada.browser.post('/api/v1/messages', { subject: 'Self answer', text: 'Hi' })).json().thread;
    expect((await ada.browser.post(`/api/v1/staff/messages/${thread.id}/reply`, { text: 'Answering myself' })).statusCode).toBe(401);
  });

  it('limits how many messages one customer writes in an hour (429 rate_limited), follow-ups included', async () => {
    const ada = await customer();
    const thread = (await ada.browser.post('/api/v1/messages', { subject: 'Many', text: 'One' })).json().thread;
    for (let index = 1; index < secureMessagesPerHour; index += 1) {
      const response = await ada.browser.post(`/api/v1/messages/${thread.id}/replies`, { text: `Message ${index}` });
      expect(response.statusCode, response.body).toBe(201);
    }
    const refused = await ada.browser.post('/api/v1/messages', { subject: 'Too many', text: 'Again' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    // Another customer is not held back by Ada's messages.
    const bob = await customer();
    expect((await bob.browser.post('/api/v1/messages', { subject: 'Mine', text: 'Hello' })).statusCode).toBe(201);
  });

  it("exports every thread of the customer's with both sides, and no one else's (for the data export)", async () => {
    const ada = await customer();
    const eve = await customer();
    const first = (await ada.browser.post('/api/v1/messages', { subject: 'First', text: 'A' })).json().thread;
    await ada.browser.post('/api/v1/messages', { subject: 'Second', text: 'B' });
    await eve.browser.post('/api/v1/messages', { subject: 'Not Ada', text: 'C' });
    const { browser: support } = await staffBrowser(app, database(), config, 'support');
    await support.post(`/api/v1/staff/messages/${first.id}/reply`, { text: 'Answer' });
    const exported = await exportSecureMessages(database(), ada.id);
    expect(exported.map((thread) => thread.subject).sort()).toEqual(['First', 'Second']);
    expect(exported.find((thread) => thread.id === first.id)?.entries.map((entry) => [entry.author, entry.text])).toEqual([
      ['customer', 'A'],
      ['bank', 'Answer'],
    ]);
  });
});
