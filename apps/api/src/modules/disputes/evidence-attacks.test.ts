import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentSuite, type PayingCustomer } from '../../test/payments.ts';

/**
 * What an attacker sends as a dispute's evidence (platform/upload-attacks.test.ts lists this route
 * and the file that tests it): each attack is refused (an SVG) or neutralised (a PNG that is also
 * HTML, a JPEG with GPS EXIF, a file named `../../etc/passwd`), down to the bytes stored and the
 * headers the file is served back with. A file over the limit is refused in disputes.test.ts.
 */
describeEachDatabase('dispute evidence: upload attacks', (database) => {
  let app: FastifyInstance;
  const kit = paymentSuite(database, (built) => ({ app } = built));

  async function disputeOf(who: PayingCustomer): Promise<string> {
    const paid = await kit.payOtherBank(who, { toAccountNumber: '123456789', accountName: 'Grace Landlord', amountCents: 2_000, message: 'Rent' });
    expect(paid.statusCode, paid.body).toBe(201);
    const reported = await who.browser.post('/api/v1/disputes', {
      transferId: paid.json().transfer.id,
      reason: 'not_received',
      description: 'The rent never reached my landlord.',
    });
    expect(reported.statusCode, reported.body).toBe(201);
    return reported.json().dispute.id;
  }

  function send(who: PayingCustomer, disputeId: string, file: { bytes: Buffer; name: string; type: string }) {
    const boundary = `----strongroom${randomUUID()}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`, 'latin1'),
      file.bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return who.browser.request({
      method: 'POST',
      url: `/api/v1/disputes/${disputeId}/evidence`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
  }

  const storedRows = (disputeId: string) =>
    database().query<{ id: string; storage_key: string; file_name: string }>(
      'SELECT id, storage_key, file_name FROM dispute_evidence WHERE dispute_id = $1 ORDER BY created_at',
      [disputeId],
    );

  describe('neutralised', () => {
    it('re-encodes a PNG that is also an HTML page, and serves it as a download with nosniff, a server-made name and a sandboxing CSP', async () => {
      const dana = await kit.customer();
      const id = await disputeOf(dana);
      const png = await sharp({ create: { width: 48, height: 48, channels: 3, background: { r: 30, g: 120, b: 200 } } })
        .png()
        .toBuffer();
      const polyglot = Buffer.concat([png, Buffer.from('<html><body><script>window.__xss=1</script></body></html>')]);
      const response = await send(dana, id, { bytes: polyglot, name: 'receipt.html', type: 'text/html' });
      expect(response.statusCode, response.body).toBe(201);
      const served = await dana.browser.get(`/api/v1/disputes/${id}/evidence/${response.json().evidence.id}`);
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.includes('<script')).toBe(false);
      expect((await sharp(served.rawPayload).metadata()).format).toBe('png');
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['content-disposition']).toBe('attachment; filename="evidence-1.png"');
      expect(served.headers['content-security-policy']).toMatch(/default-src 'none'.*sandbox/);
    });

    it("strips a JPEG's GPS EXIF: the stored and the served file have no EXIF at all", async () => {
      const dana = await kit.customer();
      const id = await disputeOf(dana);
      const jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 200, g: 80, b: 40 } } })
        .jpeg()
        .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 2677/100', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 3976/100' } })
        .toBuffer();
      expect((await sharp(jpeg).metadata()).exif).toBeDefined();
      const response = await send(dana, id, { bytes: jpeg, name: 'holiday.jpg', type: 'image/jpeg' });
      expect(response.statusCode, response.body).toBe(201);
      const [row] = await storedRows(id);
      const stored = await app.services.storage.get(row?.storage_key ?? '');
      const served = await dana.browser.get(`/api/v1/disputes/${id}/evidence/${row?.id}`);
      for (const bytes of [stored, served.rawPayload]) {
        const metadata = await sharp(bytes).metadata();
        expect(metadata.format).toBe('jpeg');
        expect(metadata.exif).toBeUndefined();
      }
      expect(served.headers['content-type']).toBe('image/jpeg');
    });

    it("ignores the client's file name (../../etc/passwd): a server-made name and storage key", async () => {
      const dana = await kit.customer();
      const id = await disputeOf(dana);
      const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#336699' } })
        .png()
        .toBuffer();
      const response = await send(dana, id, { bytes: png, name: '../../etc/passwd', type: 'image/png' });
      expect(response.statusCode, response.body).toBe(201);
      const [row] = await storedRows(id);
      expect(row?.file_name).toBe('evidence-1.png');
      expect(row?.storage_key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    });
  });

  describe('refused', () => {
    it('refuses an SVG named .png and a page named .pdf (415), storing nothing', async () => {
      const dana = await kit.customer();
      const id = await disputeOf(dana);
      const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>window.__xss=1</script></svg>';
      for (const file of [
        { bytes: Buffer.from(svg), name: 'photo.png', type: 'image/png' },
        { bytes: Buffer.from('<html><script>alert(1)</script></html>'), name: 'letter.pdf', type: 'application/pdf' },
      ]) {
        const response = await send(dana, id, file);
        expect(response.statusCode, response.body).toBe(415);
        expect(response.json().error).toMatchObject({ code: 'unsupported_media_type', message: 'Send an image (PNG or JPEG) or a PDF.' });
      }
      expect(await storedRows(id)).toEqual([]);
    });

    it('takes at most five files per dispute (409 conflict for the sixth)', async () => {
      const dana = await kit.customer();
      const id = await disputeOf(dana);
      const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
      for (let file = 1; file <= 5; file += 1) expect((await send(dana, id, { bytes: pdf, name: 'a.pdf', type: 'application/pdf' })).statusCode).toBe(201);
      const sixth = await send(dana, id, { bytes: pdf, name: 'a.pdf', type: 'application/pdf' });
      expect(sixth.statusCode).toBe(409);
      expect(sixth.json().error.code).toBe('conflict');
      expect(await storedRows(id)).toHaveLength(5);
    });
  });
});
