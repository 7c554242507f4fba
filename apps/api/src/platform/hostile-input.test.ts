import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import type { Config } from '../config.ts';
import { testAppSuite } from '../test/suite.ts';
import { TestBrowser } from '../test/client.ts';
import { createTestStaff } from '../test/staff.ts';
import { onboardedCustomer } from '../test/customers.ts';
import { describeEachDatabase } from '../test/databases.ts';
import { discriminatorsOf, variantsOf, type JsonSchema, type OpenApiDocument } from '../test/openapi.ts';
import { ownTransfer, paymentKit, validExternal } from '../test/payments.ts';

/**
 * Every text field the API takes, found in its own OpenAPI document, gets the characters a
 * prober sends first: a NUL (PostgreSQL refuses it in text, which used to be a 500) and the
 * bidirectional overrides and isolates that make a name or a message read as something else.
 */
const hostileValues = {
  nul: 'ab\u0000cd',
  'right-to-left override': 'ab\u202Ecd',
  'left-to-right embedding': 'ab\u202Acd',
  'first strong isolate': 'ab\u2068cd',
  'escape (C0)': 'ab\u001Bcd',
  'carriage return': 'ab\rcd',
  'next line (C1)': 'ab\u0085cd',
} as const;

interface FieldCase {
  label: string;
  method: string;
  url: string;
  field: string;
  payload?: Record<string, unknown>;
}

const isString = (schema: JsonSchema) => schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'));
const validUuid = '00000000-0000-4000-8000-000000000000';

function fillPath(path: string, values: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? validUuid));
}

function casesFrom(paths: OpenApiDocument['paths'], value: string) {
  const bodyAndQuery: FieldCase[] = [];
  const pathParameters: FieldCase[] = [];
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const upper = method.toUpperCase();
      const json = operation.requestBody?.content['application/json']?.schema;
      for (const variant of json ? variantsOf(json) : []) {
        const fixed = discriminatorsOf(variant);
        for (const [field, property] of Object.entries(variant.properties ?? {})) {
          if (!isString(property) || field in fixed) continue;
          bodyAndQuery.push({
            label: `${upper} ${path} body.${field}${Object.keys(fixed).length ? ` (${JSON.stringify(fixed)})` : ''}`,
            method: upper,
            url: fillPath(path),
            field,
            payload: { ...fixed, [field]: value },
          });
        }
      }
      for (const parameter of operation.parameters ?? []) {
        if (!isString(parameter.schema)) continue;
        if (parameter.in === 'query') {
          const url = `${fillPath(path)}?${new URLSearchParams({ [parameter.name]: value }).toString()}`;
          bodyAndQuery.push({ label: `${upper} ${path} ?${parameter.name}`, method: upper, url, field: parameter.name });
        } else if (parameter.in === 'path') {
          pathParameters.push({
            label: `${upper} ${path} {${parameter.name}}`,
            method: upper,
            url: fillPath(path, { [parameter.name]: value }),
            field: parameter.name,
          });
        }
      }
    }
  }
  return { bodyAndQuery, pathParameters };
}

let nextAddress = 1;
/** Each request from its own address, so the per-address limits of sign-in and sign-up stay out of the way. */
const freshAddress = () => `203.0.${Math.floor(nextAddress / 250) % 250}.${(nextAddress++ % 250) + 1}`;

describeEachDatabase('hostile characters in every text field', (database) => {
  let app: FastifyInstance;
  let config: Config;
  let browser: TestBrowser;
  let paths: OpenApiDocument['paths'];
  const kit = paymentKit(testAppSuite(database, (built) => ({ app, config } = built)));

  beforeAll(async () => {
    const customer = await onboardedCustomer({ db: database(), storage: app.services.storage, encryptionKey: config.secrets.encryptionKey });
    browser = await new TestBrowser(app).signInAs(database(), customer.userId);
    // Staff routes check the session and the permission before the body: the same browser is an admin too.
    await browser.signInAsStaff(database(), (await createTestStaff(database(), config, 'admin')).id);
    paths = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json<{ paths: typeof paths }>().paths;
  });

  const send = (fieldCase: FieldCase) =>
    browser.request({
      method: fieldCase.method,
      url: fieldCase.url,
      remoteAddress: freshAddress(),
      headers: { 'idempotency-key': randomUUID() },
      ...(fieldCase.payload ? { payload: fieldCase.payload } : {}),
    });

  for (const [name, value] of Object.entries(hostileValues)) {
    it(`refuses a ${name} in every string field of every body and query string with 400 validation_failed on that field`, async () => {
      const { bodyAndQuery } = casesFrom(paths, value);
      expect(bodyAndQuery.length).toBeGreaterThan(40);
      const wrong: string[] = [];
      for (const fieldCase of bodyAndQuery) {
        const response = await send(fieldCase);
        const error = response.statusCode === 400 ? response.json<{ error: { code: string; fields?: Record<string, string> } }>().error : undefined;
        if (error?.code !== 'validation_failed' || !error.fields?.[fieldCase.field])
          wrong.push(`${fieldCase.label}: ${response.statusCode} ${response.body.slice(0, 160)}`);
      }
      expect(wrong).toEqual([]);
    });

    it(`never answers 500 for a ${name} in a path parameter`, async () => {
      const { pathParameters } = casesFrom(paths, value);
      expect(pathParameters.length).toBeGreaterThan(5);
      const wrong: string[] = [];
      for (const fieldCase of pathParameters) {
        const response = await send(fieldCase);
        if (response.statusCode >= 500 || response.statusCode === 200) wrong.push(`${fieldCase.label}: ${response.statusCode} ${response.body.slice(0, 160)}`);
      }
      expect(wrong).toEqual([]);
    });
  }

  /** The contact form sent with `payload`, `field` the one under test. */
  const sendContact = (field: string, payload: Record<string, string>) => send({ label: 'contact', method: 'POST', url: '/api/v1/contact', field, payload });

  it('names the hidden characters in the message of a free-text field', async () => {
    const response = await sendContact('name', { name: 'Mallory\u202Eecnarf', email: 'm@example.com', phone: '202 555 0101', subject: 'hi', message: 'hello' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({ name: validationMessages.hiddenCharacters });
  });

  it('refuses a NUL and an override in the text fields of the identity form (multipart)', async () => {
    for (const value of [hostileValues.nul, hostileValues['right-to-left override']]) {
      const boundary = `----strongroom${randomUUID()}`;
      const part = (name: string, text: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${text}\r\n`;
      const payload = `${part('idNumber', 'AB 123')}${part('country', 'US')}${part('state', value)}${part('address', `1 Main St ${value}`)}--${boundary}--\r\n`;
      const response = await browser.request({
        method: 'POST',
        url: '/api/v1/onboarding/identity',
        remoteAddress: freshAddress(),
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.fields).toMatchObject({ state: validationMessages.hiddenCharacters, address: validationMessages.hiddenCharacters });
    }
  });

  it('still takes tabs, newlines and right-to-left scripts where text is free', async () => {
    const response = await sendContact('message', {
      name: 'نورا',
      email: 'nora@example.com',
      phone: '202 555 0101',
      subject: 'שלום',
      message: 'Line one\n\tindented line two',
    });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('answers a NUL in a complete transfer, deposit, beneficiary, sign-up and history search with 400 on that field, storing nothing', async () => {
    const dana = await kit.customer({ fundCents: 10_000n });
    const erin = await kit.customer();
    const paymentsBefore = await database().query('SELECT 1 FROM payments');
    const cases: { path: string; field: string; send: () => ReturnType<TestBrowser['request']> }[] = [
      {
        path: '/transfers (own)',
        field: 'message',
        send: () => kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 100, 'ab\u0000cd')),
      },
      {
        path: '/transfers (internal)',
        field: 'accountName',
        send: () =>
          kit.pay(dana, '/transfers', {
            kind: 'internal',
            fromAccountId: dana.checking.id,
            toAccountNumber: erin.checking.number,
            accountName: 'Erin\u202E',
            amountCents: 100,
            message: 'Lunch',
          }),
      },
      {
        path: '/transfers (external)',
        field: 'message',
        send: () =>
          kit.pay(dana, '/transfers', {
            kind: 'external',
            fromAccountId: dana.checking.id,
            toAccountNumber: '12345678',
            accountName: 'Ada Lovelace',
            amountCents: 100,
            ...validExternal,
            message: 'ab\u0000cd',
          }),
      },
      { path: '/deposits', field: 'reason', send: () => kit.pay(dana, '/deposits', { accountId: dana.checking.id, amountCents: 100, reason: 'ab\u0000cd' }) },
      {
        path: '/withdrawals',
        field: 'bankAddress',
        send: () =>
          kit.pay(dana, '/withdrawals', {
            fromAccountId: dana.checking.id,
            amountCents: 100,
            country: 'US',
            nameOfBank: 'Bank',
            accountName: 'Dana',
            accountNumber: '12345678',
            stateName: 'Ohio',
            bankAddress: '1 Main\u0000',
            routeNumber: '011000015',
          }),
      },
      {
        path: '/beneficiaries',
        field: 'accountName',
        send: () =>
          dana.browser.post('/api/v1/beneficiaries', {
            bankName: 'Bletchley Savings',
            accountName: 'ab\u0000cd',
            accountNumber: '12345678',
            nameOfCountry: 'United Kingdom',
            routeNumber: '011000015',
            bankType: 'otherbank',
          }),
      },
      {
        path: '/auth/signup',
        field: 'firstName',
        send: () =>
          new TestBrowser(app).post('/api/v1/auth/signup', {
            firstName: 'ab\u0000cd',
            lastName: 'Lovelace',
            email: `${randomUUID()}@example.com`,
            password: 'analytical engine',
            confirmPassword: 'analytical engine',
            acceptTerms: true,
          }),
      },
      { path: '/transactions?q=', field: 'q', send: () => dana.browser.get('/api/v1/transactions?q=ab%00cd') },
    ];
    for (const { path, field, send } of cases) {
      const response = await send();
      expect(response.statusCode, `${path}: ${response.body}`).toBe(400);
      expect(response.json().error, path).toMatchObject({ code: 'validation_failed', fields: { [field]: validationMessages.hiddenCharacters } });
    }
    expect(await database().query('SELECT 1 FROM payments')).toHaveLength(paymentsBefore.length);
    expect(await database().query("SELECT 1 FROM customers WHERE first_name LIKE 'ab%'")).toHaveLength(0);
  });
});
