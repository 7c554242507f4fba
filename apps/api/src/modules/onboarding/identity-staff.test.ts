import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import type { StaffRole } from '@strongroom/contracts/staff.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { encrypt } from '../../platform/crypto.ts';
import { testAppSuite } from '../../test/suite.ts';
import { lastMessageTo, TestBrowser } from '../../test/client.ts';
import { insertBareCustomer } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { staffBrowser } from '../../test/staff.ts';
import { insertIdentityReview, insertStoredFile } from './repository.ts';

const idNumber = '123-45-6789';

/** A customer whose identity review waits, with a stored document and, unless told, a photo. */
/** A review as the identity step sends it since decision 055; `sentBefore055` leaves its new fields out, as older reviews have none. */
async function waitingReview(app: FastifyInstance, db: Database, config: Config, options: { photo?: boolean; sentBefore055?: boolean } = {}) {
  const email = `${randomUUID()}@example.com`;
  const customerId = await insertBareCustomer(db, email);
  const image = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 20, b: 30 } } })
    .png()
    .toBuffer();
  const file = async (purpose: 'identity_document' | 'profile_photo') => {
    const id = randomUUID();
    const storageKey = randomUUID();
    await app.services.storage.put(storageKey, image);
    await insertStoredFile(db, { id, ownerCustomerId: customerId, purpose, contentType: 'image/png', byteSize: image.length, storageKey });
    return id;
  };
  const documentFileId = await file('identity_document');
  if (options.photo !== false) {
    await db.query('UPDATE customers SET profile_photo_file_id = $2 WHERE id = $1', [customerId, await file('profile_photo')]);
  }
  const reviewId = await insertIdentityReview(db, {
    customerId,
    documentFileId,
    idNumberEncrypted: encrypt(config.secrets.encryptionKey, Buffer.from(idNumber, 'utf8')),
    idNumberLast4: '6789',
    country: 'US',
    ...(options.sentBefore055
      ? { state: 'Illinois', address: '1 Main Street, Springfield' }
      : {
          state: 'IL',
          address: '1 Main Street\nApartment 4B',
          identification: { idType: 'ssn' as const, dateOfBirth: '1985-06-15', city: 'Springfield', zipCode: '62701-1234' },
        }),
  });
  return { customerId, email, reviewId, image };
}

/** Every page of a status's list, following the cursors. */
async function allPages(browser: TestBrowser, status = 'submitted') {
  const seen: { id: string }[] = [];
  let bodies = '';
  let cursor: string | null = null;
  let pages = 0;
  let total: number;
  do {
    const cursorQuery: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const response = await browser.get(`/api/v1/staff/identity-reviews?status=${status}${cursorQuery}`);
    bodies += response.body;
    const page = response.json();
    seen.push(...page.items);
    total = page.total;
    cursor = page.nextCursor;
    pages += 1;
  } while (cursor && pages < 20);
  return { seen, bodies, pages, total };
}

describeEachDatabase('the identity queue (issue 12, identity.decide)', (database) => {
  let app: FastifyInstance;
  let config: Config;
  let compliance: TestBrowser;
  let complianceId: string;
  testAppSuite(database, (built) => ({ app, config } = built), { environment: { KYC_AUTO_APPROVE_SECONDS: 'off' } });
  beforeAll(async () => {
    const signedIn = await staffBrowser(app, database(), config, 'compliance');
    compliance = signedIn.browser;
    complianceId = signedIn.member.id;
  });

  it('lists waiting reviews oldest first with the ID number masked, and counts them', async () => {
    const first = await waitingReview(app, database(), config);
    const second = await waitingReview(app, database(), config, { photo: false, sentBefore055: true });
    const response = await compliance.get('/api/v1/staff/identity-reviews');
    expect(response.statusCode, response.body).toBe(200);
    const { seen, total, bodies } = await allPages(compliance);
    expect(bodies).not.toContain(idNumber);
    expect(bodies).not.toContain('123-45');
    const ids = seen.map((item) => item.id);
    expect(ids.indexOf(first.reviewId)).toBeLessThan(ids.indexOf(second.reviewId));
    expect(total).toBe(seen.length);
    expect(seen.find((item) => item.id === first.reviewId)).toEqual({
      id: first.reviewId,
      customerId: first.customerId,
      name: 'Test Customer',
      email: first.email,
      country: 'US',
      state: 'IL',
      address: '1 Main Street\nApartment 4B',
      city: 'Springfield',
      zipCode: '62701-1234',
      dateOfBirth: '1985-06-15',
      idType: 'ssn',
      idNumberLast4: '6789',
      status: 'submitted',
      reason: null,
      submittedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      decidedAt: null,
      decidedBy: null,
      hasDocument: true,
      hasProfilePhoto: true,
    });
    // A review sent before decision 055 shows its address as typed, and no fields it was never asked for.
    expect(seen.find((item) => item.id === second.reviewId)).toMatchObject({ state: 'Illinois', city: null, zipCode: null, dateOfBirth: null, idType: null });
    const rejected = await compliance.get('/api/v1/staff/identity-reviews?status=rejected');
    expect(rejected.json().items.map((item: { id: string }) => item.id)).not.toContain(first.reviewId);
    expect((await compliance.get('/api/v1/staff/identity-reviews?status=nonsense')).statusCode).toBe(400);
  });

  it('pages through the queue with a cursor, each review once', async () => {
    for (let index = 0; index < 27; index += 1) await waitingReview(app, database(), config, { photo: false });
    const { seen, pages, total } = await allPages(compliance);
    expect(pages).toBeGreaterThan(1);
    expect(seen).toHaveLength(total);
    expect(new Set(seen.map((item) => item.id)).size).toBe(total);
    // A cursor that does not decode is the first page, not an error.
    expect((await compliance.get('/api/v1/staff/identity-reviews?cursor=garbage')).statusCode).toBe(200);
  });

  it('shows the document and the photo to staff, never cached, and audits the viewing', async () => {
    const waiting = await waitingReview(app, database(), config);
    const document = await compliance.get(`/api/v1/staff/identity-reviews/${waiting.reviewId}/document`);
    expect(document.statusCode).toBe(200);
    expect(document.headers['content-type']).toBe('image/png');
    expect(document.headers['cache-control']).toBe('no-store');
    expect(document.headers['x-content-type-options']).toBe('nosniff');
    expect(document.rawPayload.equals(waiting.image)).toBe(true);
    const photo = await compliance.get(`/api/v1/staff/identity-reviews/${waiting.reviewId}/profile-photo`);
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['cache-control']).toBe('no-store');
    const audits = await database().query<{ action: string }>('SELECT action FROM audit_log WHERE subject = $1 AND actor_id = $2 ORDER BY chain_seq', [
      waiting.reviewId,
      complianceId,
    ]);
    expect(audits.map((row) => row.action)).toEqual(['identity.document_viewed', 'identity.profile_photo_viewed']);
    const withoutPhoto = await waitingReview(app, database(), config, { photo: false });
    expect((await compliance.get(`/api/v1/staff/identity-reviews/${withoutPhoto.reviewId}/profile-photo`)).statusCode).toBe(404);
  });

  it('reveals the full ID number only with a reason, and audits it with that reason', async () => {
    const waiting = await waitingReview(app, database(), config);
    const url = `/api/v1/staff/identity-reviews/${waiting.reviewId}/id-number`;
    expect((await compliance.post(url, {})).statusCode).toBe(400);
    const revealed = await compliance.post(url, { reason: 'Comparing with the document' });
    expect(revealed.statusCode, revealed.body).toBe(200);
    expect(revealed.json()).toEqual({ idNumber });
    expect(revealed.headers['cache-control']).toBe('no-store');
    const [audit] = await database().query<{ reason: string; details: string }>(
      "SELECT details->>'reason' AS reason, details::text AS details FROM audit_log WHERE action = 'identity.id_number_revealed' AND subject = $1",
      [waiting.reviewId],
    );
    expect(audit?.reason).toBe('Comparing with the document');
    expect(audit?.details).not.toContain('6789');
  });

  it('approves once: the accounts open, the customer is told, the audit holds the reason; a second decision is 409', async () => {
    const waiting = await waitingReview(app, database(), config);
    const customer = await new TestBrowser(app).signInAs(database(), waiting.customerId);
    const url = `/api/v1/staff/identity-reviews/${waiting.reviewId}/decision`;
    const approved = await compliance.post(url, { decision: 'approve', reason: 'Document matches the entered fields' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().review).toMatchObject({ status: 'approved', decidedBy: complianceId, decidedAt: expect.any(String) });
    const accounts = await database().query<{ type: string }>('SELECT type FROM customer_accounts WHERE customer_id = $1 ORDER BY type', [waiting.customerId]);
    expect(accounts.map((row) => row.type)).toEqual(['checking', 'savings']);
    expect((await lastMessageTo(database(), waiting.email))?.subject).toMatch(/accounts are open/);
    expect((await customer.get('/api/v1/me')).json().user.identityStatus).toBe('approved');
    const [audit] = await database().query<{ actor_id: string; reason: string; ip: string | null; request_id: string | null }>(
      "SELECT actor_id, details->>'reason' AS reason, ip, request_id FROM audit_log WHERE action = 'identity.decision' AND subject = $1",
      [waiting.reviewId],
    );
    expect(audit).toMatchObject({ actor_id: complianceId, reason: 'Document matches the entered fields' });
    expect(audit?.ip).toBeTruthy();
    expect(audit?.request_id).toBeTruthy();
    const again = await compliance.post(url, { decision: 'reject', reason: 'Changed my mind' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('already_decided');
  });

  it('rejects with a reason the customer sees, as text, and lets them send a new document', async () => {
    const waiting = await waitingReview(app, database(), config);
    const customer = await new TestBrowser(app).signInAs(database(), waiting.customerId);
    const reason = '<b>The photo is blurred</b>';
    const rejected = await compliance.post(`/api/v1/staff/identity-reviews/${waiting.reviewId}/decision`, { decision: 'reject', reason });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().review).toMatchObject({ status: 'rejected', reason });
    expect((await customer.get('/api/v1/onboarding/identity')).json()).toEqual({ status: 'rejected', reason });
    expect(await database().query('SELECT 1 FROM customer_accounts WHERE customer_id = $1', [waiting.customerId])).toHaveLength(0);
    const mail = await lastMessageTo(database(), waiting.email);
    expect(mail?.text).toContain(reason);
  });

  it('refuses an unknown decision word, a short or a 10,000-character reason, and changes nothing', async () => {
    const waiting = await waitingReview(app, database(), config);
    const url = `/api/v1/staff/identity-reviews/${waiting.reviewId}/decision`;
    for (const body of [
      { decision: 'maybe', reason: 'A fine reason' },
      { decision: 'approve', reason: 'no' },
      { decision: 'approve' },
      { decision: 'approve', reason: 'x'.repeat(10_000) },
    ]) {
      const response = await compliance.post(url, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('validation_failed');
    }
    const [row] = await database().query<{ status: string }>('SELECT status FROM identity_reviews WHERE id = $1', [waiting.reviewId]);
    expect(row?.status).toBe('submitted');
  });

  it('answers 404 for an unknown or malformed review id, on every route', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      expect((await compliance.get(`/api/v1/staff/identity-reviews/${id}`)).statusCode).toBe(404);
      expect((await compliance.get(`/api/v1/staff/identity-reviews/${id}/document`)).statusCode).toBe(404);
      expect((await compliance.get(`/api/v1/staff/identity-reviews/${id}/profile-photo`)).statusCode).toBe(404);
      expect((await compliance.post(`/api/v1/staff/identity-reviews/${id}/id-number`, { reason: 'Checking it' })).statusCode).toBe(404);
      expect((await compliance.post(`/api/v1/staff/identity-reviews/${id}/decision`, { decision: 'approve', reason: 'Looks right' })).statusCode).toBe(404);
    }
  });

  it.each<[StaffRole, number]>([
    ['admin', 200],
    ['compliance', 200],
    ['support', 403],
    ['operations', 403],
  ])('a %s gets %i on every identity route', async (role, status) => {
    const waiting = await waitingReview(app, database(), config);
    const { browser, member } = await staffBrowser(app, database(), config, role);
    const base = `/api/v1/staff/identity-reviews`;
    expect((await browser.get(base)).statusCode).toBe(status);
    expect((await browser.get(`${base}/${waiting.reviewId}/document`)).statusCode).toBe(status);
    expect((await browser.post(`${base}/${waiting.reviewId}/id-number`, { reason: 'Checking it' })).statusCode).toBe(status);
    expect((await browser.post(`${base}/${waiting.reviewId}/decision`, { decision: 'reject', reason: 'Unreadable' })).statusCode).toBe(status);
    if (status === 403) {
      const denied = await database().query("SELECT 1 FROM audit_log WHERE action = 'staff.permission_denied' AND actor_id = $1", [member.id]);
      expect(denied).toHaveLength(4);
    }
  });

  it('a customer cookie is not a staff session: 401', async () => {
    const waiting = await waitingReview(app, database(), config);
    const customer = await new TestBrowser(app).signInAs(database(), waiting.customerId);
    expect((await customer.get('/api/v1/staff/identity-reviews')).statusCode).toBe(401);
    expect((await customer.get(`/api/v1/staff/identity-reviews/${waiting.reviewId}/document`)).statusCode).toBe(401);
  });
});
