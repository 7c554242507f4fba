import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/databases.ts';
import { testAppSuite } from '../../test/suite.ts';
import { lastMessageTo, TestBrowser } from '../../test/client.ts';
import { identityFields, insertBareCustomer, onboardedCustomer } from '../../test/customers.ts';

async function photo(format: 'png' | 'jpeg', width = 800, height = 600): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } });
  return format === 'png'
    ? image.png().toBuffer()
    : image
        .jpeg()
        .withExif({ IFD0: { Copyright: 'GPS 51.5N 0.12W secret-location' } })
        .toBuffer();
}

function multipart(fields: Record<string, string>, file?: { field: string; bytes: Buffer; name: string; type: string }): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append(file.field, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  return form;
}

describeEachDatabase('onboarding: phone, identity and photo', (database) => {
  let app: FastifyInstance;
  let browser: TestBrowser;
  let customerId = '';
  testAppSuite(database, (built) => ({ app } = built), { environment: { KYC_AUTO_APPROVE_SECONDS: '0' } });
  beforeAll(async () => {
    customerId = await insertBareCustomer(database(), 'onboarding@example.com');
    browser = await new TestBrowser(app).signInAs(database(), customerId);
  });

  const upload = (url: string, form: FormData) => browser.request({ method: 'POST', url, payload: form as unknown as string });
  const smsCode = async (to: string) => /\b(\d{4})\b/.exec((await lastMessageTo(database(), to))?.text ?? '')?.[1] ?? '';

  it('refuses a step taken before its turn with 409 and what to do first', async () => {
    const phone = await browser.post('/api/v1/onboarding/phone', { countryCode: 'US', phoneNumber: '202 555 0147' });
    expect(phone.statusCode).toBe(409);
    expect(phone.json().error.message).toBe('Verify your email address first.');
    await database().query('UPDATE customers SET email_verified_at = now() WHERE id = $1', [customerId]);
    const identity = await upload(
      '/api/v1/onboarding/identity',
      multipart(identityFields, { field: 'document', bytes: await photo('png'), name: 'id.png', type: 'image/png' }),
    );
    expect(identity.statusCode).toBe(409);
    expect(identity.json().error.message).toBe('Verify your phone number first.');
  });

  it('refuses a phone number that is not valid for its country', async () => {
    const response = await browser.post('/api/v1/onboarding/phone', { countryCode: 'US', phoneNumber: '123' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.phoneNumber).toMatch(/not a valid phone number/);
  });

  it('sends a 4-digit code by SMS; five wrong tries spend it, and the sixth gets a clear message', async () => {
    expect((await browser.post('/api/v1/onboarding/phone', { countryCode: 'US', phoneNumber: '(202) 555-0147' })).statusCode).toBe(200);
    const code = await smsCode('+12025550147');
    expect(code).toMatch(/^\d{4}$/);
    const wrong = code === '0000' ? '1111' : '0000';
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await browser.post('/api/v1/onboarding/phone/verify', { code: wrong });
      expect(response.json().error.fields.code).toMatch(/not right/);
    }
    const sixth = await browser.post('/api/v1/onboarding/phone/verify', { code });
    expect(sixth.statusCode).toBe(400);
    expect(sixth.json().error.fields.code).toMatch(/Ask for a new code/);
  });

  it('resends at most once a minute, and the new code verifies the phone', async () => {
    const tooSoon = await browser.post('/api/v1/onboarding/phone/resend');
    expect(tooSoon.statusCode).toBe(429);
    await database().query("UPDATE phone_codes SET created_at = created_at - interval '2 minutes'");
    expect((await browser.post('/api/v1/onboarding/phone/resend')).statusCode).toBe(200);
    const sessionBefore = browser.cookies.session;
    const verified = await browser.post('/api/v1/onboarding/phone/verify', { code: await smsCode('+12025550147') });
    expect(verified.statusCode).toBe(200);
    expect(browser.cookies.session).not.toBe(sessionBefore);
    expect(verified.json()).toMatchObject({ next: 'identity', user: { phoneNumber: '+12025550147', phoneVerified: true } });
  });

  it('refuses anything but a real PNG or JPEG of at most 5 MB, and stores nothing', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF');
    const executable = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(4_000)]);
    const attempts: [Buffer, string, string][] = [
      [svg, 'id.svg', 'image/svg+xml'],
      [pdf, 'id.pdf', 'application/pdf'],
      [executable, 'id.png', 'image/png'],
      [Buffer.alloc(0), 'empty.png', 'image/png'],
    ];
    for (const [bytes, name, type] of attempts) {
      const response = await upload('/api/v1/onboarding/identity', multipart(identityFields, { field: 'document', bytes, name, type }));
      expect(response.statusCode, name).toBe(400);
      expect(response.json().error.fields.document, name).toBe('Image mime type is not valid');
    }
    const missing = await upload('/api/v1/onboarding/identity', multipart(identityFields));
    expect(missing.json().error.fields.document).toBe('Choose an image to upload');
    const huge = await upload(
      '/api/v1/onboarding/identity',
      multipart(identityFields, { field: 'document', bytes: Buffer.alloc(20 * 1024 * 1024, 1), name: 'big.png', type: 'image/png' }),
    );
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error.message).toBe('The image must be 5 MB or smaller');
    const badFields = await upload(
      '/api/v1/onboarding/identity',
      multipart({ ...identityFields, state: '', country: 'XX' }, { field: 'document', bytes: await photo('png'), name: 'id.png', type: 'image/png' }),
    );
    expect(badFields.json().error.fields).toMatchObject({ state: 'choose a state from the list' });
    expect(await database().query('SELECT 1 FROM stored_files')).toHaveLength(0);
    expect(await database().query('SELECT 1 FROM identity_reviews')).toHaveLength(0);
  });

  it('takes the document re-encoded without its metadata and the ID number encrypted, then the sandbox approves and opens accounts', async () => {
    const jpeg = await photo('jpeg');
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const response = await upload(
      '/api/v1/onboarding/identity',
      multipart(identityFields, { field: 'document', bytes: jpeg, name: '../../etc/passwd.jpg', type: 'image/jpeg' }),
    );
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ next: 'profile-photo', user: { identityStatus: 'submitted', accountVerified: false } });

    const [review] = await database().query<{ id_number_encrypted: Buffer; id_number_last4: string; document_file_id: string }>(
      'SELECT id_number_encrypted, id_number_last4, document_file_id FROM identity_reviews',
    );
    expect(Buffer.from(review?.id_number_encrypted ?? []).toString('latin1')).not.toContain('6789');
    expect(review?.id_number_last4).toBe('6789');
    const [file] = await database().query<{ storage_key: string }>('SELECT storage_key FROM stored_files WHERE id = $1', [review?.document_file_id]);
    expect(file?.storage_key).not.toContain('passwd');
    const stored = await app.services.storage.get(file?.storage_key ?? '');
    const metadata = await sharp(stored).metadata();
    expect(metadata.format).toBe('jpeg');
    expect(metadata.exif).toBeUndefined();

    await app.services.jobs.runOnce();
    expect((await browser.get('/api/v1/me')).json()).toMatchObject({ user: { identityStatus: 'approved', accountVerified: true } });
    const accounts = (await browser.get('/api/v1/accounts')).json() as {
      type: string;
      number: string;
      balanceCents: number;
      status: string;
      active: boolean;
    }[];
    expect(accounts.map((account) => account.type).sort()).toEqual(['checking', 'savings']);
    for (const account of accounts) expect(account).toMatchObject({ number: expect.stringMatching(/^\d{10}$/), balanceCents: 0, status: 'open', active: true });
    expect((await lastMessageTo(database(), 'onboarding@example.com'))?.subject).toMatch(/accounts are open/);
  });

  it('makes the profile photo a square of at most 512 px, shown only to its owner', async () => {
    const response = await upload(
      '/api/v1/onboarding/profile-photo',
      multipart({}, { field: 'photo', bytes: await photo('png', 1200, 900), name: 'me.png', type: 'image/png' }),
    );
    expect(response.statusCode).toBe(201);
    const body = response.json() as { next: string; user: { profilePhotoUrl: string } };
    expect(body.next).toBe('dashboard');
    const image = await browser.get(body.user.profilePhotoUrl);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(await sharp(image.rawPayload).metadata()).toMatchObject({ width: 512, height: 512 });

    const other = await onboardedCustomer({ db: database(), storage: app.services.storage, encryptionKey: Buffer.alloc(32, 3) });
    const stranger = await new TestBrowser(app).signInAs(database(), other.userId);
    const theirs = await stranger.get(body.user.profilePhotoUrl);
    const missing = await stranger.get('/api/v1/files/00000000-0000-4000-8000-00000000abcd');
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().error).toEqual({ ...missing.json().error, requestId: theirs.json().error.requestId });
  });

  it("never shows one customer another customer's identity document", async () => {
    const [document] = await database().query<{ id: string }>("SELECT id FROM stored_files WHERE purpose = 'identity_document'");
    const other = await onboardedCustomer({ db: database(), storage: app.services.storage, encryptionKey: Buffer.alloc(32, 3) });
    const stranger = await new TestBrowser(app).signInAs(database(), other.userId);
    expect((await stranger.get(`/api/v1/files/${document?.id}`)).statusCode).toBe(404);
    expect((await browser.get(`/api/v1/files/${document?.id}`)).statusCode).toBe(200);
  });
});
