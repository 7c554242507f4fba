import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { testAppSuite } from '../../test/suite.ts';
import { TestBrowser } from '../../test/client.ts';
import { paymentKit } from '../../test/payments.ts';
import { describeEachDatabase } from '../../test/databases.ts';

describeEachDatabase('profile: saved preferences and a new profile photo (issue 15 items 1 and 2)', (database) => {
  let app: FastifyInstance;
  const kit = paymentKit(testAppSuite(database, (built) => ({ app } = built)));
  /** A new customer, signed in, from the account fixture (accounts empty). */
  const signedIn = () => kit.customer({ fundCents: 0n });

  it('answers the defaults, everything off, to a customer who never saved a switch', async () => {
    const { browser } = await signedIn();
    const response = await browser.get('/api/v1/me/preferences');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ newsletter: false, textMessages: false, phoneCalls: false });
  });

  it('saves the switches per customer, kept for a new session, and audits the change', async () => {
    const { browser, id: userId } = await signedIn();
    const saved = await browser.put('/api/v1/me/preferences', { newsletter: true, textMessages: false, phoneCalls: true });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ newsletter: true, textMessages: false, phoneCalls: true });

    const laterSession = await new TestBrowser(app).signInAs(database(), userId);
    expect((await laterSession.get('/api/v1/me/preferences')).json()).toEqual({ newsletter: true, textMessages: false, phoneCalls: true });
    const changed = await laterSession.put('/api/v1/me/preferences', { newsletter: false, textMessages: true, phoneCalls: true });
    expect(changed.json()).toEqual({ newsletter: false, textMessages: true, phoneCalls: true });
    expect((await browser.get('/api/v1/me/preferences')).json()).toEqual({ newsletter: false, textMessages: true, phoneCalls: true });

    const audit = await database().query<{ newsletter: string }>(
      "SELECT details->>'newsletter' AS newsletter FROM audit_log WHERE action = 'profile.preferences_saved' AND actor_id = $1 ORDER BY id",
      [userId],
    );
    expect(audit.map((row) => row.newsletter)).toEqual(['true', 'false']);
  });

  it("never shows or changes another customer's switches", async () => {
    const alice = await signedIn();
    const bob = await signedIn();
    await alice.browser.put('/api/v1/me/preferences', { newsletter: true, textMessages: true, phoneCalls: true });
    expect((await bob.browser.get('/api/v1/me/preferences')).json()).toEqual({ newsletter: false, textMessages: false, phoneCalls: false });
    await bob.browser.put('/api/v1/me/preferences', { newsletter: false, textMessages: false, phoneCalls: true });
    expect((await alice.browser.get('/api/v1/me/preferences')).json()).toEqual({ newsletter: true, textMessages: true, phoneCalls: true });
  });

  it('refuses a non-boolean, a missing or an unknown switch with 400 validation_failed, and saves nothing', async () => {
    const { browser } = await signedIn();
    await browser.put('/api/v1/me/preferences', { newsletter: true, textMessages: true, phoneCalls: true });
    const bad: [Record<string, unknown>, string][] = [
      [{ newsletter: 'true', textMessages: true, phoneCalls: true }, 'newsletter'],
      [{ newsletter: false, textMessages: 1, phoneCalls: true }, 'textMessages'],
      [{ newsletter: false, textMessages: false, phoneCalls: null }, 'phoneCalls'],
      [{ newsletter: false, textMessages: false }, 'phoneCalls'],
      [{ newsletter: false, textMessages: false, phoneCalls: false, marketingCalls: true }, ''],
    ];
    for (const [body, field] of bad) {
      const response = await browser.put('/api/v1/me/preferences', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.code).toBe('validation_failed');
      if (field) expect(Object.keys(response.json().error.fields ?? {})).toContain(field);
    }
    const notJson = await browser.request({
      method: 'PUT',
      url: '/api/v1/me/preferences',
      payload: 'newsletter=on',
      headers: { 'content-type': 'text/plain' },
    });
    expect(notJson.statusCode).toBeGreaterThanOrEqual(400);
    expect(notJson.statusCode).toBeLessThan(500);
    expect((await browser.get('/api/v1/me/preferences')).json()).toEqual({ newsletter: true, textMessages: true, phoneCalls: true });
  });

  it('answers 401 to a visitor and 403 to a PUT without the CSRF token', async () => {
    const visitor = new TestBrowser(app);
    expect((await visitor.get('/api/v1/me/preferences')).statusCode).toBe(401);
    expect((await visitor.put('/api/v1/me/preferences', { newsletter: true, textMessages: true, phoneCalls: true })).statusCode).toBe(401);
    const { browser } = await signedIn();
    const forged = await browser.request({
      method: 'PUT',
      url: '/api/v1/me/preferences',
      payload: { newsletter: true, textMessages: true, phoneCalls: true },
      headers: { 'x-csrf-token': 'forged' },
    });
    expect(forged.statusCode).toBe(403);
    expect((await browser.get('/api/v1/me/preferences')).json().newsletter).toBe(false);
  });

  it('changes the profile photo of an onboarded customer through the onboarding upload: re-encoded, the new one shown, the old one kept private', async () => {
    const { browser } = await signedIn();
    const before = (await browser.get('/api/v1/me')).json().user.profilePhotoUrl as string | null;
    const png = await sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 200, g: 30, b: 30 } } })
      .png()
      .toBuffer();
    const boundary = 'strongroom-test-boundary';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n`),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const upload = (payload: Buffer) =>
      browser.request({
        method: 'POST',
        url: '/api/v1/onboarding/profile-photo',
        payload,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
    const response = await upload(body);
    expect(response.statusCode, response.body).toBe(201);
    const after = response.json().user.profilePhotoUrl as string;
    expect(after).toMatch(/^\/api\/v1\/files\//);
    expect(after).not.toBe(before);
    expect((await browser.get('/api/v1/me')).json().user.profilePhotoUrl).toBe(after);
    const image = await browser.get(after);
    expect(image.statusCode).toBe(200);
    const metadata = await sharp(image.rawPayload).metadata();
    expect(Math.max(metadata.width ?? 0, metadata.height ?? 0)).toBeLessThanOrEqual(512);
    // Another customer cannot read it.
    const stranger = await signedIn();
    expect((await stranger.browser.get(after)).statusCode).toBe(404);

    const notAnImage = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n`),
      Buffer.from('GIF89a this is not a png'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const refused = await upload(notAnImage);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Image mime type is not valid');
    expect((await browser.get('/api/v1/me')).json().user.profilePhotoUrl).toBe(after);
  });
});
