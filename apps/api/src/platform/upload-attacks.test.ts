import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Config } from '../config.ts';
import { testAppSuite } from '../test/suite.ts';
import { TestBrowser } from '../test/client.ts';
import { identityFields, insertBareCustomer, onboardedCustomer, uniqueTestPhone } from '../test/customers.ts';
import { describeEachDatabase } from '../test/databases.ts';
import { staffBrowser } from '../test/staff.ts';
import { multipartLimits } from './uploads.ts';

/**
 * Issue 17 item 7: what an attacker uploads, on every upload route of the API's own document.
 * Each attack is refused (an SVG, a 20 MB file) or neutralised (a PNG that is also HTML, a JPEG
 * with GPS EXIF, a file named `../../etc/passwd`): the test says which and checks it, down to the
 * bytes stored and the headers the image is served back with. Decision record 039.
 */

/** Every multipart route, with the field its image goes in and the text fields it needs. */
const uploadRoutes = {
  '/api/v1/onboarding/identity': {
    field: 'document',
    fields: identityFields,
  },
  '/api/v1/onboarding/profile-photo': { field: 'photo', fields: {} },
} as const;
type UploadRoute = keyof typeof uploadRoutes;
/** Upload routes that keep what they store elsewhere than stored_files: the same attacks are tested beside their module, in the file named. */
const uploadRoutesTestedBesideTheirModule = { '/api/v1/disputes/{id}/evidence': 'modules/disputes/evidence-attacks.test.ts' } as const;

/** A multipart body written by hand, so a file name can hold what no browser's FormData would send. */
function multipartBody(route: UploadRoute, file: { bytes: Buffer; name: string; type: string }): { payload: Buffer; contentType: string } {
  const boundary = `----strongroom${randomUUID()}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(uploadRoutes[route].fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${uploadRoutes[route].field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      'latin1',
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

const script = '<html><body><script>window.__xss=1</script></body></html>';

/** A real PNG that is also an HTML page: the markup in a tEXt chunk and again after IEND. */
async function pngHtmlPolyglot(): Promise<Buffer> {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .png()
    .withMetadata()
    .toBuffer();
  const text = Buffer.from(`Comment\u0000${script}`, 'latin1');
  const chunk = Buffer.alloc(12 + text.length);
  chunk.writeUInt32BE(text.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  text.copy(chunk, 8);
  // The CRC is not checked by browsers sniffing for HTML; libpng only warns on an ancillary chunk.
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + text.length)), 8 + text.length);
  const headerEnd = 8 + 25; // signature + IHDR (length, type, 13 bytes, CRC)
  return Buffer.concat([png.subarray(0, headerEnd), chunk, png.subarray(headerEnd), Buffer.from(script)]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A JPEG whose EXIF holds a GPS position (IFD3 is the GPS directory in libvips' names). */
function jpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .jpeg()
    .withExif({
      IFD0: { Copyright: 'home address' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 2677/100', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 3976/100' },
    })
    .toBuffer();
}

/** Whether a TIFF-structured EXIF block's first directory points to a GPS directory (tag 0x8825). */
function exifHasGps(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  const tiff = exif.subarray(exif.indexOf('Exif\u0000\u0000', 0, 'latin1') + 6);
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (offset: number) => (little ? tiff.readUInt16LE(offset) : tiff.readUInt16BE(offset));
  const u32 = (offset: number) => (little ? tiff.readUInt32LE(offset) : tiff.readUInt32BE(offset));
  const directory = u32(4);
  for (let entry = 0; entry < u16(directory); entry++) if (u16(directory + 2 + entry * 12) === 0x8825) return true;
  return false;
}

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name)));
}

describeEachDatabase('upload attacks on every upload route', (database) => {
  let app: FastifyInstance;
  let config: Config;
  let compliance: TestBrowser;
  let listening: Promise<string> | undefined;

  // No automatic approval: the review stays in the queue, so the back office can fetch its document.
  testAppSuite(database, (built) => ({ app, config } = built), { environment: { KYC_AUTO_APPROVE_SECONDS: '3600' } });
  beforeAll(async () => {
    ({ browser: compliance } = await staffBrowser(app, database(), config, 'compliance'));
  });

  afterAll(async () => {
    if (listening) {
      app.server.closeAllConnections();
      await new Promise((resolve) => app.server.close(resolve));
    }
  });

  /** A signed-in customer at the step the route takes: identity for the document, onboarded for a photo ("Change photo"). */
  async function customerFor(route: UploadRoute): Promise<{ browser: TestBrowser; customerId: string }> {
    let customerId: string;
    if (route === '/api/v1/onboarding/identity') {
      customerId = await insertBareCustomer(database());
      await database().query('UPDATE customers SET email_verified_at = now(), phone_e164 = $2, phone_verified_at = now() WHERE id = $1', [
        customerId,
        uniqueTestPhone(),
      ]);
    } else {
      customerId = (await onboardedCustomer({ db: database(), storage: app.services.storage, encryptionKey: config.secrets.encryptionKey })).userId;
    }
    return { browser: await new TestBrowser(app).signInAs(database(), customerId), customerId };
  }

  async function upload(route: UploadRoute, file: { bytes: Buffer; name: string; type: string }, customer?: { browser: TestBrowser; customerId: string }) {
    const { browser, customerId } = customer ?? (await customerFor(route));
    const body = multipartBody(route, file);
    const response = await browser.request({ method: 'POST', url: route, headers: { 'content-type': body.contentType }, payload: body.payload });
    return { response, browser, customerId };
  }

  /** The customer's newest stored file, read back through the route that serves it to them. */
  async function servedBack(browser: TestBrowser, customerId: string) {
    const [file] = await database().query<{ id: string }>('SELECT id FROM stored_files WHERE owner_customer_id = $1 ORDER BY created_at DESC LIMIT 1', [
      customerId,
    ]);
    if (!file) throw new Error('nothing was stored');
    return browser.get(`/api/v1/files/${file.id}`);
  }

  const storedFileCount = async () => Number((await database().query<{ count: string }>('SELECT count(*)::text AS count FROM stored_files'))[0]?.count);

  it('knows every multipart route of the OpenAPI document (a new upload route must join this suite)', async () => {
    const paths = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json<{
      paths: Record<string, Record<string, { description?: string; requestBody?: { content: Record<string, unknown> } }>>;
    }>().paths;
    const multipart = Object.entries(paths).flatMap(([route, operations]) =>
      Object.values(operations)
        .filter(
          (operation) =>
            /multipart\/form-data/.test(operation.description ?? '') || Object.keys(operation.requestBody?.content ?? {}).includes('multipart/form-data'),
        )
        .map(() => `/api/v1${route.replace(/^\/api\/v1/, '')}`),
    );
    expect(multipart.sort()).toEqual([...Object.keys(uploadRoutes), ...Object.keys(uploadRoutesTestedBesideTheirModule)].sort());
  });

  for (const route of Object.keys(uploadRoutes) as UploadRoute[]) {
    const field = uploadRoutes[route].field;

    it(`${route}: neutralises a PNG/HTML polyglot: re-encoded without the markup, served as image/png with nosniff, a server-made name and a sandboxing CSP`, async () => {
      const polyglot = await pngHtmlPolyglot();
      expect(polyglot.includes('<script>')).toBe(true);
      expect((await sharp(polyglot).metadata()).format).toBe('png');
      const { response, browser, customerId } = await upload(route, { bytes: polyglot, name: 'id.html', type: 'text/html' });
      expect(response.statusCode, response.body).toBe(201);
      const served = await servedBack(browser, customerId);
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.includes('<script')).toBe(false);
      expect(served.rawPayload.includes('<html')).toBe(false);
      expect((await sharp(served.rawPayload).metadata()).format).toBe('png');
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['content-disposition']).toMatch(/^inline; filename="[0-9a-f-]{36}\.png"$/);
      expect(served.headers['content-security-policy']).toMatch(/default-src 'none'/);
      expect(served.headers['content-security-policy']).toMatch(/sandbox/);
      if (route === '/api/v1/onboarding/identity') {
        const [review] = await database().query<{ id: string }>('SELECT id FROM identity_reviews WHERE customer_id = $1', [customerId]);
        const staffCopy = await compliance.get(`/api/v1/staff/identity-reviews/${review?.id}/document`);
        expect(staffCopy.statusCode).toBe(200);
        expect(staffCopy.rawPayload.includes('<script')).toBe(false);
        expect(staffCopy.headers['content-type']).toBe('image/png');
        expect(staffCopy.headers['x-content-type-options']).toBe('nosniff');
        expect(staffCopy.headers['content-security-policy']).toMatch(/sandbox/);
      }
    });

    it(`${route}: refuses an SVG (it can carry script) with 400 on the ${field} field, storing nothing`, async () => {
      const customers = [await customerFor(route), await customerFor(route)];
      const before = await storedFileCount();
      for (const [index, svg] of [
        `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>window.__xss=1</script></svg>`,
        `<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>`,
      ].entries()) {
        const { response } = await upload(route, { bytes: Buffer.from(svg), name: 'photo.png', type: 'image/png' }, customers[index]);
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().error).toMatchObject({ code: 'validation_failed', fields: { [field]: 'Image mime type is not valid' } });
      }
      expect(await storedFileCount()).toBe(before);
    });

    it(`${route}: refuses a 20 MB file with 413 in the error shape, reading little more than the 5 MB limit of it`, async () => {
      const { browser } = await customerFor(route);
      const before = await storedFileCount();
      const boundary = `----strongroom${randomUUID()}`;
      const head = Buffer.from(
        `${Object.entries(uploadRoutes[route].fields)
          .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
          .join('')}--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
      );
      // Over a real socket on 127.0.0.1: the client writes as fast as the server reads, and notes how much it had written when the answer came.
      const total = 20 * 1024 * 1024;
      listening ??= app.listen({ host: '127.0.0.1', port: 0 });
      const address = await listening;
      let written = 0;
      let writtenWhenAnswered = -1;
      const response = await new Promise<{ statusCode: number; body: string; json: () => { error: Record<string, unknown> } }>((resolve, reject) => {
        const request = http.request(
          `${address}${route}`,
          {
            method: 'POST',
            headers: {
              'content-type': `multipart/form-data; boundary=${boundary}`,
              'content-length': String(head.length + total + `\r\n--${boundary}--\r\n`.length),
              cookie: Object.entries(browser.cookies)
                .map(([name, value]) => `${name}=${value}`)
                .join('; '),
              'x-csrf-token': browser.cookies.csrf ?? '',
            },
          },
          (answer) => {
            writtenWhenAnswered = written;
            let body = '';
            answer.setEncoding('utf8');
            answer.on('data', (text: string) => (body += text));
            answer.on('end', () => {
              request.destroy();
              resolve({ statusCode: answer.statusCode ?? 0, body, json: () => JSON.parse(body) });
            });
          },
        );
        request.on('error', (error) => (writtenWhenAnswered >= 0 ? undefined : reject(error)));
        const chunk = Buffer.alloc(64 * 1024, 0x41);
        const pump = () => {
          while (writtenWhenAnswered < 0 && written < total) {
            written += chunk.length;
            if (!request.write(chunk)) return void request.once('drain', pump);
          }
          if (writtenWhenAnswered < 0) request.end(`\r\n--${boundary}--\r\n`);
        };
        request.write(head);
        pump();
      });
      expect(response.statusCode, response.body).toBe(413);
      expect(response.json().error).toMatchObject({ code: 'payload_too_large', message: 'The image must be 5 MB or smaller' });
      expect(typeof response.json().error.requestId).toBe('string');
      expect(multipartLimits.fileSize).toBe(5 * 1024 * 1024);
      // The server stops at the limit: it answers while the client is still sending (5 MB read, plus what the loopback socket buffers hold), holding at most the limit.
      expect(writtenWhenAnswered).toBeLessThan(total * 0.7);
      console.info(`upload-attacks: ${route} answered 413 after the client had written ${(writtenWhenAnswered / 1024 / 1024).toFixed(1)} MB of 20 MB`);
      expect(await storedFileCount()).toBe(before);
    });

    it(`${route}: strips a JPEG's GPS EXIF: the stored and served image has no EXIF at all`, async () => {
      const jpeg = await jpegWithGps();
      expect(exifHasGps((await sharp(jpeg).metadata()).exif)).toBe(true);
      const { response, browser, customerId } = await upload(route, { bytes: jpeg, name: 'holiday.jpg', type: 'image/jpeg' });
      expect(response.statusCode, response.body).toBe(201);
      const [row] = await database().query<{ storage_key: string }>(
        'SELECT storage_key FROM stored_files WHERE owner_customer_id = $1 ORDER BY created_at DESC LIMIT 1',
        [customerId],
      );
      const stored = await app.services.storage.get(row?.storage_key ?? '');
      const served = await servedBack(browser, customerId);
      for (const bytes of [stored, served.rawPayload]) {
        const metadata = await sharp(bytes).metadata();
        expect(metadata.format).toBe('jpeg');
        expect(metadata.exif).toBeUndefined();
        expect(bytes.includes('Exif\u0000\u0000')).toBe(false);
      }
      expect(served.headers['content-type']).toBe('image/jpeg');
    });

    it(`${route}: ignores the client's file name (../../etc/passwd, ..\\..\\x.png, a NUL): a server-made key, nothing outside the storage directory`, async () => {
      const uploads = path.join(config.dataDirectory, 'uploads');
      const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#336699' } })
        .png()
        .toBuffer();
      const names = ['../../etc/passwd', '..\\..\\x.png', 'a\u0000b.png', '/tmp/../../root/.ssh/authorized_keys'];
      const customers = await Promise.all(names.map(() => customerFor(route)));
      const filesBefore = new Set(await filesUnder(config.dataDirectory));
      for (const [index, name] of names.entries()) {
        const { response, customerId } = await upload(route, { bytes: png, name, type: 'image/png' }, customers[index]);
        expect(response.statusCode, `${name}: ${response.body}`).toBe(201);
        const [row] = await database().query<{ storage_key: string; id: string }>(
          'SELECT storage_key, id FROM stored_files WHERE owner_customer_id = $1 ORDER BY created_at DESC LIMIT 1',
          [customerId],
        );
        expect(row?.storage_key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      }
      // No row anywhere keeps the client's name.
      const tables = (await database().query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).map(
        (table) => table.tablename,
      );
      const kept = await database().query<{ t: string }>(
        `SELECT t FROM (${tables.map((table) => `SELECT row_to_json(x)::text AS t FROM "${table}" x`).join(' UNION ALL ')}) rows(t)
         WHERE t LIKE '%passwd%' OR t LIKE '%authorized_keys%' OR t LIKE '%x.png%' OR t LIKE '%a\\\\u0000b%'`,
      );
      expect(kept).toEqual([]);
      // Every new file is an encrypted blob under uploads/, named by its key.
      const added = (await filesUnder(config.dataDirectory)).filter((file) => !filesBefore.has(file));
      expect(added).toHaveLength(names.length);
      for (const file of added) {
        expect(path.join(config.dataDirectory, file).startsWith(`${uploads}${path.sep}`)).toBe(true);
        expect(file).toMatch(/^uploads\/[0-9a-f]{2}\/[0-9a-f-]{36}\.bin$/);
      }
    });
  }
});
