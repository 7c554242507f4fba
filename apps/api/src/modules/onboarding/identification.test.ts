import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { identityMessages, onboardingMessages } from '@strongroom/contracts/onboarding.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { testAppSuite } from '../../test/suite.ts';
import { lastMessageTo, TestBrowser } from '../../test/client.ts';
import { identityFields as usIdentity, insertBareCustomer, onboardedCustomer, uniqueTestPhone } from '../../test/customers.ts';

/**
 * The identity step as a browser posts it (decision 055): multipart form data written out by hand,
 * so that the textarea's line break is the CRLF that HTML's form encoding sends, whatever the
 * test's FormData would make of it.
 */
function browserMultipart(fields: Record<string, string>, document: Buffer): { payload: Buffer; contentType: string } {
  const boundary = `----strongroom${randomUUID()}`;
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const head = Buffer.from(
    `${parts.join('')}--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="id.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  return { payload: Buffer.concat([head, document, Buffer.from(`\r\n--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

const identityFields = { ...usIdentity, address: '1 Main Street\r\nApartment 4B', zipCode: '62701-1234' };

describeEachDatabase('onboarding: the identification a US bank needs, and one phone per customer', (database) => {
  let app: FastifyInstance;
  let document: Buffer;
  testAppSuite(database, (built) => ({ app } = built));
  beforeAll(async () => {
    document = await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 40, g: 80, b: 200 } } })
      .png()
      .toBuffer();
  });

  /** A customer signed in with a verified email, at the phone step. */
  async function atPhoneStep(): Promise<{ customerId: string; browser: TestBrowser }> {
    const customerId = await insertBareCustomer(database());
    await database().query('UPDATE customers SET email_verified_at = now() WHERE id = $1', [customerId]);
    return { customerId, browser: await new TestBrowser(app).signInAs(database(), customerId) };
  }

  /** A customer signed in at the identity step, their own phone verified through the API. */
  async function atIdentityStep(): Promise<{ customerId: string; browser: TestBrowser }> {
    const customer = await atPhoneStep();
    const phone = uniqueTestPhone();
    expect((await askForCode(customer.browser, phone)).statusCode).toBe(200);
    expect((await customer.browser.post('/api/v1/onboarding/phone/verify', { code: await codeSentTo(phone) })).statusCode).toBe(200);
    return customer;
  }

  const askForCode = (browser: TestBrowser, e164: string) => browser.post('/api/v1/onboarding/phone', { countryCode: 'US', phoneNumber: e164.slice(2) });
  const codeSentTo = async (e164: string) => /\b(\d{4})\b/.exec((await lastMessageTo(database(), e164))?.text ?? '')?.[1] ?? '';
  const postIdentity = (browser: TestBrowser, fields: Record<string, string>) => {
    const { payload, contentType } = browserMultipart(fields, document);
    return browser.request({ method: 'POST', url: '/api/v1/onboarding/identity', headers: { 'content-type': contentType }, payload });
  };

  it('takes a two-line street posted with CRLF by a textarea, and keeps it with a line feed beside the kind of ID, birth date, city, state and ZIP', async () => {
    const { customerId, browser } = await atIdentityStep();
    const response = await postIdentity(browser, identityFields);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ next: 'profile-photo', user: { identityStatus: 'submitted' } });
    const [review] = await database().query<{ address: string; id_type: string; date_of_birth: string; city: string; state: string; zip_code: string }>(
      `SELECT address, id_type, to_char(date_of_birth, 'YYYY-MM-DD') AS date_of_birth, city, state, zip_code FROM identity_reviews WHERE customer_id = $1`,
      [customerId],
    );
    expect(review).toEqual({
      address: '1 Main Street\nApartment 4B',
      id_type: 'ssn',
      date_of_birth: '1985-06-15',
      city: 'Springfield',
      state: 'IL',
      zip_code: '62701-1234',
    });
  });

  it('refuses "abc" as a social security number, an emoji as a state, a minor and a bidi override in the street, field by field, and stores nothing', async () => {
    const { customerId, browser } = await atIdentityStep();
    const seventeen = new Date();
    seventeen.setUTCFullYear(seventeen.getUTCFullYear() - 17);
    const response = await postIdentity(browser, {
      ...identityFields,
      idNumber: 'abc',
      state: '🏳️‍🌈',
      dateOfBirth: seventeen.toISOString().slice(0, 10),
      address: '1 Main Street\r\nApt \u202E4B',
      zipCode: '6270',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({
      idNumber: identityMessages.ssnInvalid,
      state: identityMessages.stateInvalid,
      dateOfBirth: identityMessages.underAge,
      address: validationMessages.hiddenCharacters,
      zipCode: identityMessages.zipCodeInvalid,
    });
    const passport = await postIdentity(browser, { ...identityFields, idType: 'passport', idNumber: '123-45-6789' });
    expect(passport.json().error.fields).toEqual({ idNumber: identityMessages.passportInvalid });
    const neverIssued = await postIdentity(browser, { ...identityFields, idNumber: '666-12-3456' });
    expect(neverIssued.json().error.fields).toEqual({ idNumber: identityMessages.ssnInvalid });
    expect(await database().query('SELECT 1 FROM identity_reviews WHERE customer_id = $1', [customerId])).toHaveLength(0);
  });

  it("refuses at the code step a phone number another customer has verified: the code is spent, the phone stays unverified, and the customer's own number then works", async () => {
    const phone = uniqueTestPhone();
    await onboardedCustomer({ db: database(), storage: app.services.storage, encryptionKey: Buffer.alloc(32, 3) }, { phone });
    const { customerId, browser } = await atPhoneStep();
    // Nothing is said before the code proves the phone is in hand: typing a number tells nobody whose it is.
    expect((await askForCode(browser, phone)).statusCode).toBe(200);
    const code = await codeSentTo(phone);
    const refused = await browser.post('/api/v1/onboarding/phone/verify', { code });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'conflict',
      message: identityMessages.phoneTaken,
      fields: { phoneNumber: identityMessages.phoneTaken },
    });
    const [customer] = await database().query<{ phone_verified_at: Date | null }>('SELECT phone_verified_at FROM customers WHERE id = $1', [customerId]);
    expect(customer?.phone_verified_at).toBeNull();
    expect((await browser.get('/api/v1/me')).json()).toMatchObject({ next: 'phone' });
    const again = await browser.post('/api/v1/onboarding/phone/verify', { code });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.fields.code).toBe(onboardingMessages.codeExpired);
    const [audit] = await database().query<{ outcome: string; details: { outcome: string } }>(
      "SELECT outcome, details FROM audit_log WHERE actor_id = $1 AND action = 'onboarding.phone_verification' ORDER BY occurred_at ASC LIMIT 1",
      [customerId],
    );
    expect(audit).toMatchObject({ outcome: 'failure', details: { outcome: 'taken' } });

    const own = uniqueTestPhone();
    expect((await askForCode(browser, own)).statusCode).toBe(200);
    const verified = await browser.post('/api/v1/onboarding/phone/verify', { code: await codeSentTo(own) });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ next: 'identity', user: { phoneNumber: own, phoneVerified: true } });
  });

  it('lets a customer verify a number that another customer only typed in and never verified', async () => {
    const phone = uniqueTestPhone();
    const first = await atPhoneStep();
    expect((await askForCode(first.browser, phone)).statusCode).toBe(200);
    const second = await atPhoneStep();
    expect((await askForCode(second.browser, phone)).statusCode).toBe(200);
    const verified = await second.browser.post('/api/v1/onboarding/phone/verify', { code: await codeSentTo(phone) });
    expect(verified.statusCode, verified.body).toBe(200);
  });

  it('lets only one of two customers verifying one number at the same moment have it', async () => {
    const phone = uniqueTestPhone();
    const first = await atPhoneStep();
    expect((await askForCode(first.browser, phone)).statusCode).toBe(200);
    const firstCode = await codeSentTo(phone);
    const second = await atPhoneStep();
    expect((await askForCode(second.browser, phone)).statusCode).toBe(200);
    const secondCode = await codeSentTo(phone);
    const answers = await Promise.all([
      first.browser.post('/api/v1/onboarding/phone/verify', { code: firstCode }),
      second.browser.post('/api/v1/onboarding/phone/verify', { code: secondCode }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const owners = await database().query('SELECT id FROM customers WHERE phone_e164 = $1 AND phone_verified_at IS NOT NULL', [phone]);
    expect(owners).toHaveLength(1);
  });
});
