import { utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../test/databases.ts';
import { buildTestApp, productionAppOptions } from '../test/app.ts';
import { isAppPath } from './web-app.ts';

describe('isAppPath', () => {
  it('knows the public, customer and parameterised pages and nothing else', () => {
    for (const path of ['/', '/savings', '/verify/a@b.co', '/card-details/42', '/ops', '/ops/transfers']) {
      expect(isAppPath(path, 'production'), path).toBe(true);
    }
    for (const path of ['/nope', '/verify', '/verify/a/b', '/savingsx', '/dev/mail']) {
      expect(isAppPath(path, 'production'), path).toBe(false);
    }
    expect(isAppPath('/dev/mail', 'sandbox')).toBe(true);
  });
});

describeEachDatabase('serving the web app', (database) => {
  let sandbox: FastifyInstance;
  let production: FastifyInstance;
  beforeAll(async () => {
    ({ app: sandbox } = await buildTestApp(database(), { environment: { BANK_NAME: 'Acme <Savings> & Loan', BANK_TIME_ZONE: 'America/Chicago' } }));
    ({ app: production } = await buildTestApp(database(), productionAppOptions(database())));
  });

  it('serves the home page with the bank name escaped and the mode and time zone filled in', async () => {
    const response = await sandbox.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('<title>Acme &#60;Savings&#62; &#38; Loan</title>');
    expect(response.body).toContain('<meta name="bank-mode" content="sandbox">');
    // The browser dates money lines on the bank's calendar (docs/product.md, "Dates").
    expect(response.body).toContain('<meta name="bank-time-zone" content="America/Chicago">');
    expect(response.body).not.toContain('%BANK_');
  });

  it('serves a known page with 200 and an unknown one with the app and status 404', async () => {
    expect((await sandbox.inject({ method: 'GET', url: '/savings' })).statusCode).toBe(200);
    expect((await sandbox.inject({ method: 'GET', url: '/verify/a%40b.co' })).statusCode).toBe(200);
    const missing = await sandbox.inject({ method: 'GET', url: '/no-such-page' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('<div id="root">');
  });

  it('serves a rebuilt web app without a restart', async () => {
    const { app, config } = await buildTestApp(database());
    const indexFile = path.join(config.webDistDirectory, 'index.html');
    await writeFile(indexFile, '<!doctype html><html lang="en"><head><title>%BANK_NAME% rebuilt</title></head><body><div id="root"></div></body></html>');
    await utimes(indexFile, new Date(), new Date(Date.now() + 5_000));
    expect((await app.inject({ method: 'GET', url: '/' })).body).toContain('<title>Strongroom Demo Bank rebuilt</title>');
    await app.close();
  });

  it('sends a marketing page rendered at build time, filled in, and the app shell elsewhere', async () => {
    const savings = await sandbox.inject({ method: 'GET', url: '/savings' });
    expect(savings.statusCode).toBe(200);
    expect(savings.body).toContain('<h1>Savings accounts</h1>');
    expect(savings.body).toContain('<title>Savings | Acme &#60;Savings&#62; &#38; Loan</title>');
    expect((await sandbox.inject({ method: 'GET', url: '/cards' })).body).toContain('<div id="root"></div>');
    const raw = await sandbox.inject({ method: 'GET', url: '/prerendered/sandbox/savings.html' });
    expect(raw.body).not.toContain('%BANK_NAME%');
    expect((await production.inject({ method: 'GET', url: '/savings' })).body).not.toContain('Savings accounts');
  });

  it('compresses pages for browsers that accept it', async () => {
    const response = await sandbox.inject({ method: 'GET', url: '/savings', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(response.rawPayload).toString()).toContain('<h1>Savings accounts</h1>');
  });

  it('never serves the raw index.html template', async () => {
    const response = await sandbox.inject({ method: 'GET', url: '/index.html' });
    expect(response.body).not.toContain('%BANK_NAME%');
  });

  it('serves files as files, hashed assets cached for a year', async () => {
    const robots = await sandbox.inject({ method: 'GET', url: '/robots.txt' });
    expect(robots.statusCode).toBe(200);
    expect(robots.body).toContain('User-agent');
    const asset = await sandbox.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it("redirects the seed's checkings.html to the checking page", async () => {
    const response = await sandbox.inject({ method: 'GET', url: '/checkings.html' });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe('/current');
  });

  it('has the sandbox inbox in sandbox mode only', async () => {
    expect((await sandbox.inject({ method: 'GET', url: '/dev/mail' })).statusCode).toBe(200);
    expect((await sandbox.inject({ method: 'GET', url: '/api/v1/dev/outbox' })).statusCode).toBe(200);
    expect((await production.inject({ method: 'GET', url: '/dev/mail' })).statusCode).toBe(404);
    const api = await production.inject({ method: 'GET', url: '/api/v1/dev/outbox' });
    expect(api.statusCode).toBe(404);
    expect(api.json().error.code).toBe('not_found');
  });

  it('answers a non-GET to an unknown path with the JSON error shape', async () => {
    const response = await sandbox.inject({ method: 'POST', url: '/savings', payload: {} });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not_found');
  });
});
