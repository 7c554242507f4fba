import type { FastifyInstance } from 'fastify';
import { afterEach, expect, it, vi } from 'vitest';
import { notificationPageSize, type LiveEventTopic } from '@strongroom/contracts/notifications.ts';
import type { Config } from '../../config.ts';
import { encrypt } from '../../platform/crypto.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { testAppSuite } from '../../test/suite.ts';
import { TestBrowser } from '../../test/client.ts';
import { insertBareCustomer, onboardedCustomer, testPassword } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { decideIdentity } from '../onboarding/identity-review.ts';
import { liveEventWait } from '../../test/live-events.ts';

const firefoxOnLinux = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

interface ListedNotification {
  id: string;
  kind: string;
  name: string;
  text: string;
  read: boolean;
  link: string | null;
  createdAt: string;
}

describeEachDatabase('notifications', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const published: { customerId: string; topic: LiveEventTopic }[] = [];
  const unsubscribers: (() => void)[] = [];
  testAppSuite(database, (built) => ({ app, config } = built));
  afterEach(() => {
    for (const unsubscribe of unsubscribers.splice(0)) unsubscribe();
    published.length = 0;
  });

  /** Records what the live-event stream of `customerId` would carry. */
  const listen = (customerId: string) => {
    unsubscribers.push(app.services.liveEvents.subscribe(customerId, (topic) => published.push({ customerId, topic })));
  };
  const newCustomer = async (email?: string) =>
    (await onboardedCustomer({ db: database(), storage: app.services.storage, encryptionKey: Buffer.alloc(32, 9) }, { email })).userId;
  const notify = (customerId: string, name: string) =>
    notifyCustomer(database(), { customerId, kind: 'money_in', name, text: `${name} text`, link: '/transaction-history' });
  const list = async (browser: TestBrowser) => (await browser.get('/api/v1/notifications')).json() as { items: ListedNotification[]; unreadCount: number };

  it('lists the newest first, with whether each was read and how many are unread', async () => {
    const customerId = await newCustomer();
    const browser = await new TestBrowser(app).signInAs(database(), customerId);
    expect(await list(browser)).toEqual({ items: [], unreadCount: 0 });
    await notify(customerId, 'First');
    await notify(customerId, 'Second');
    await database().query(
      "UPDATE notifications SET created_at = created_at - interval '1 minute', read_at = now() WHERE customer_id = $1 AND name = 'First'",
      [customerId],
    );

    const response = await browser.get('/api/v1/notifications');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      items: [
        {
          id: expect.any(String),
          kind: 'money_in',
          name: 'Second',
          text: 'Second text',
          read: false,
          link: '/transaction-history',
          createdAt: expect.any(String),
        },
        {
          id: expect.any(String),
          kind: 'money_in',
          name: 'First',
          text: 'First text',
          read: true,
          link: '/transaction-history',
          createdAt: expect.any(String),
        },
      ],
      unreadCount: 1,
    });
  });

  it(`answers at most ${notificationPageSize}, and counts every unread one`, async () => {
    const customerId = await newCustomer();
    await database().query(
      `INSERT INTO notifications (customer_id, kind, name, text, created_at)
       SELECT $1, 'money_in', 'Payment ' || n, 'text', now() - n * interval '1 second' FROM generate_series(1, $2::int) AS n`,
      [customerId, notificationPageSize + 5],
    );
    const page = await list(await new TestBrowser(app).signInAs(database(), customerId));
    expect(page.items).toHaveLength(notificationPageSize);
    expect(page.items[0]?.name).toBe('Payment 1');
    expect(page.unreadCount).toBe(notificationPageSize + 5);
  });

  it('marks them all read with 204 and tells the open pages', async () => {
    const customerId = await newCustomer();
    const browser = await new TestBrowser(app).signInAs(database(), customerId);
    await notify(customerId, 'Unread one');
    await notify(customerId, 'Unread two');
    listen(customerId);
    const response = await browser.post('/api/v1/notifications/read');
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const after = await list(browser);
    expect(after.unreadCount).toBe(0);
    expect(after.items.every((item) => item.read)).toBe(true);
    await vi.waitFor(() => expect(published).toEqual([{ customerId, topic: 'notifications' }]), liveEventWait);
  });

  it('deletes one with 204 (kept in the database, gone from the list) and tells the open pages', async () => {
    const customerId = await newCustomer();
    const browser = await new TestBrowser(app).signInAs(database(), customerId);
    await notify(customerId, 'Keep');
    await notify(customerId, 'Delete');
    const target = (await list(browser)).items.find((item) => item.name === 'Delete');
    listen(customerId);
    const response = await browser.request({ method: 'DELETE', url: `/api/v1/notifications/${target?.id}` });
    expect(response.statusCode).toBe(204);
    expect((await list(browser)).items.map((item) => item.name)).toEqual(['Keep']);
    const [row] = await database().query<{ deleted_at: Date | null }>('SELECT deleted_at FROM notifications WHERE id = $1', [target?.id]);
    expect(row?.deleted_at).toBeInstanceOf(Date);
    await vi.waitFor(() => expect(published).toEqual([{ customerId, topic: 'notifications' }]), liveEventWait);
    expect((await browser.request({ method: 'DELETE', url: `/api/v1/notifications/${target?.id}` })).statusCode).toBe(404);
  });

  it("a customer cannot see, read or delete another customer's notification: it answers like a missing one", async () => {
    const ownerId = await newCustomer();
    const owner = await new TestBrowser(app).signInAs(database(), ownerId);
    const stranger = await new TestBrowser(app).signInAs(database(), await newCustomer());
    await notify(ownerId, 'Private');
    const [mine] = (await list(owner)).items;
    if (!mine) throw new Error('the owner has no notification');

    expect((await list(stranger)).items).toEqual([]);
    expect((await stranger.post('/api/v1/notifications/read')).statusCode).toBe(204);
    const foreign = await stranger.request({ method: 'DELETE', url: `/api/v1/notifications/${mine.id}` });
    const missing = await stranger.request({ method: 'DELETE', url: '/api/v1/notifications/3f1e4a52-8a1c-4c47-9f0e-1d2b3c4d5e6f' });
    const malformed = await stranger.request({ method: 'DELETE', url: '/api/v1/notifications/1%27%20OR%201=1' });
    for (const response of [foreign, missing, malformed]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toMatchObject({ code: 'not_found', message: foreign.json().error.message });
    }
    expect(await list(owner)).toMatchObject({ items: [{ id: mine.id, read: false }], unreadCount: 1 });
  });

  it('answers 401 without a session, and 403 to a change without the CSRF header', async () => {
    for (const request of [
      { method: 'GET', url: '/api/v1/notifications' },
      { method: 'POST', url: '/api/v1/notifications/read' },
      { method: 'DELETE', url: '/api/v1/notifications/3f1e4a52-8a1c-4c47-9f0e-1d2b3c4d5e6f' },
    ] as const) {
      const response = await app.inject(request);
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(401);
    }
    const customerId = await newCustomer();
    const browser = await new TestBrowser(app).signInAs(database(), customerId);
    await notify(customerId, 'Unread');
    const forged = await browser.request({ method: 'POST', url: '/api/v1/notifications/read', headers: { 'x-csrf-token': '' } });
    expect(forged.statusCode).toBe(403);
    expect((await list(browser)).unreadCount).toBe(1);
  });

  it('writes a new sign-in notification naming the browser and the time in UTC, and tells the open pages', async () => {
    const email = 'notified-sign-in@example.com';
    const customerId = await newCustomer(email);
    listen(customerId);
    const browser = new TestBrowser(app);
    const login = await browser.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email, password: testPassword },
      headers: { 'user-agent': firefoxOnLinux },
    });
    expect(login.statusCode).toBe(200);

    const [notification] = (await list(browser)).items;
    expect(notification).toMatchObject({ kind: 'new_sign_in', name: 'New sign-in', read: false });
    expect(notification?.text).toMatch(/^You signed in from Firefox on Linux at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\. If this was not you/);
    await vi.waitFor(() => expect(published).toEqual([{ customerId, topic: 'notifications' }]), liveEventWait);

    const failed = await new TestBrowser(app).post('/api/v1/auth/login', { email, password: 'not the password at all' });
    expect(failed.statusCode).toBe(401);
    expect((await list(browser)).items).toHaveLength(1);
  });

  it('writes "New sign-in" once per browser: signing in again from it writes nothing, another browser or a forged cookie is new', async () => {
    const email = 'one-per-browser@example.com';
    await newCustomer(email);
    const signIn = (browser: TestBrowser) =>
      browser.request({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password: testPassword }, headers: { 'user-agent': firefoxOnLinux } });
    const signInCount = async (browser: TestBrowser) => (await list(browser)).items.filter((item) => item.kind === 'new_sign_in').length;

    const laptop = new TestBrowser(app);
    expect((await signIn(laptop)).statusCode).toBe(200);
    const deviceCookie = laptop.cookies.device;
    expect(deviceCookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (let i = 0; i < 3; i += 1) {
      await laptop.post('/api/v1/auth/logout');
      expect((await signIn(laptop)).statusCode).toBe(200);
    }
    expect(laptop.cookies.device).toBe(deviceCookie);
    expect(await signInCount(laptop)).toBe(1);

    const phone = new TestBrowser(app);
    expect((await signIn(phone)).statusCode).toBe(200);
    expect(phone.cookies.device).not.toBe(deviceCookie);
    expect(await signInCount(phone)).toBe(2);

    const forged = new TestBrowser(app);
    forged.cookies.device = 'not-a-device-token';
    expect((await signIn(forged)).statusCode).toBe(200);
    expect(forged.cookies.device).not.toBe('not-a-device-token');
    expect(await signInCount(forged)).toBe(3);

    // The laptop's cookie is known only for this customer: another customer signing in from it is told.
    const otherEmail = 'shares-the-laptop@example.com';
    await newCustomer(otherEmail);
    const shared = new TestBrowser(app);
    shared.cookies.device = deviceCookie!;
    const other = await shared.request({ method: 'POST', url: '/api/v1/auth/login', payload: { email: otherEmail, password: testPassword } });
    expect(other.statusCode).toBe(200);
    expect(await signInCount(shared)).toBe(1);
    const [stored] = await database().query<{ count: string }>('SELECT count(*)::text AS count FROM known_devices WHERE device_hash = sha256($1::bytea)', [
      Buffer.from(deviceCookie!),
    ]);
    expect(stored?.count).toBe('2');
  });

  async function submittedReview(): Promise<{ customerId: string; reviewId: string }> {
    const customerId = await insertBareCustomer(database());
    const [review] = await database().query<{ id: string }>(
      `INSERT INTO identity_reviews (customer_id, id_number_encrypted, id_number_last4, country, state, address)
       VALUES ($1, $2, '6789', 'US', 'Illinois', '1 Main Street, Springfield') RETURNING id`,
      [customerId, encrypt(Buffer.alloc(32, 9), Buffer.from('123-45-6789'))],
    );
    if (!review) throw new Error('no review inserted');
    return { customerId, reviewId: review.id };
  }
  const decide = (reviewId: string, decision: 'approved' | 'rejected', reason?: string) =>
    decideIdentity(
      { db: database(), mailer: app.services.mailer, bankName: config.bankName, liveEvents: app.services.liveEvents },
      { reviewId, decision, reason, decidedBy: 'sandbox' },
    );

  it('tells the customer their identity was verified, with the decision, and refreshes their accounts and notifications', async () => {
    const { customerId, reviewId } = await submittedReview();
    listen(customerId);
    expect(await decide(reviewId, 'approved')).toBe('decided');
    const { items } = await list(await new TestBrowser(app).signInAs(database(), customerId));
    expect(items).toEqual([
      expect.objectContaining({
        kind: 'identity_approved',
        name: 'Identity verified',
        text: 'Your identity has been verified and your accounts are open.',
        read: false,
      }),
    ]);
    await vi.waitFor(() => expect(published.map((event) => event.topic).sort()).toEqual(['accounts', 'notifications']), liveEventWait);

    expect(await decide(reviewId, 'approved')).toBe('already_decided');
    expect(await database().query('SELECT 1 FROM notifications WHERE customer_id = $1', [customerId])).toHaveLength(1);
  });

  it('tells the customer why their identity could not be verified', async () => {
    const { customerId, reviewId } = await submittedReview();
    listen(customerId);
    expect(await decide(reviewId, 'rejected', 'The photo of the document is blurred.')).toBe('decided');
    const { items } = await list(await new TestBrowser(app).signInAs(database(), customerId));
    expect(items).toEqual([expect.objectContaining({ kind: 'identity_rejected', link: '/registeration' })]);
    expect(items[0]?.text).toBe('We could not verify your identity: The photo of the document is blurred. Sign in and send a new document.');
    await vi.waitFor(() => expect(published).toEqual([{ customerId, topic: 'notifications' }]), liveEventWait);
  });
});
