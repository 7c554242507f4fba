import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp } from '../test/app.ts';
import { describeEachDatabase } from '../test/databases.ts';

/** The reverse proxy in front of the bank, as the socket shows it; clients are further out. */
const proxyAddress = '10.0.0.2';
const clientAddress = '203.0.113.7';
const opsToken = 'ops-token-for-this-test-only-0123456789abcdef';
const passwordResetLimit = 5;

describeEachDatabase('the client address behind a reverse proxy', (database) => {
  const apps: FastifyInstance[] = [];
  const build = async (trustProxy: string) => {
    const { app } = await buildTestApp(database(), { environment: { TRUST_PROXY: trustProxy }, dependencies: { opsToken } });
    apps.push(app);
    return app;
  };
  let oneProxy: FastifyInstance;
  beforeAll(async () => {
    oneProxy = await build('1');
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  const failedSignInAddress = async (app: FastifyInstance, request: { remoteAddress: string; forwardedFor?: string }) => {
    const email = `nobody-${Math.random().toString(36).slice(2)}@example.com`;
    await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: request.remoteAddress,
      headers: request.forwardedFor ? { 'x-forwarded-for': request.forwardedFor } : {},
      payload: { email, password: 'not the password' },
    });
    const [row] = await database().query<{ ip: string }>("SELECT ip FROM audit_log WHERE action = 'auth.login' ORDER BY id DESC LIMIT 1");
    return row?.ip;
  };

  it('takes the address the trusted proxy saw, not the left-most X-Forwarded-For entry the client wrote', async () => {
    expect(await failedSignInAddress(oneProxy, { remoteAddress: proxyAddress, forwardedFor: `127.0.0.1, ${clientAddress}` })).toBe(clientAddress);
    expect(await failedSignInAddress(oneProxy, { remoteAddress: clientAddress })).toBe(clientAddress);
  });

  it('does not let a rotating first X-Forwarded-For hop beat the password-reset limit', async () => {
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= passwordResetLimit + 3; attempt++) {
      const response = await oneProxy.inject({
        method: 'POST',
        url: '/api/v1/auth/password-reset',
        remoteAddress: proxyAddress,
        headers: { 'x-forwarded-for': `198.51.100.${attempt}, ${clientAddress}` },
        payload: { email: 'grace@example.com' },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([...Array<number>(passwordResetLimit).fill(200), 429, 429, 429]);
  });

  it('trusts a listed proxy only: a client that is not one cannot name its own address', async () => {
    const listed = await build(`${proxyAddress}, 192.0.2.0/24`);
    expect(await failedSignInAddress(listed, { remoteAddress: proxyAddress, forwardedFor: `127.0.0.1, ${clientAddress}` })).toBe(clientAddress);
    expect(await failedSignInAddress(listed, { remoteAddress: '192.0.2.44', forwardedFor: `${clientAddress}, ${proxyAddress}` })).toBe(clientAddress);
    expect(await failedSignInAddress(listed, { remoteAddress: clientAddress, forwardedFor: '127.0.0.1' })).toBe(clientAddress);
  });

  it('keeps the X-Request-Id a trusted proxy passes on, and gives any other client a fresh id, in its answer and in its audit row', async () => {
    const written = 'written-by-the-sender-0001';
    const signIn = (app: FastifyInstance, remoteAddress: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        remoteAddress,
        headers: { 'x-request-id': written },
        payload: { email: `nobody-${Math.random().toString(36).slice(2)}@example.com`, password: 'not the password' },
      });
    const auditedRequestId = async (answer: { headers: Record<string, unknown> }) => {
      const rows = await database().query<{ request_id: string }>("SELECT request_id FROM audit_log WHERE action = 'auth.login' AND request_id = $1", [
        answer.headers['x-request-id'],
      ]);
      return rows[0]?.request_id;
    };
    const listed = await build(proxyAddress);
    const throughProxy = await signIn(listed, proxyAddress);
    expect(throughProxy.headers['x-request-id']).toBe(written);
    expect(await auditedRequestId(throughProxy)).toBe(written);
    const malformed = await listed.inject({
      method: 'GET',
      url: '/api/v1/health',
      remoteAddress: proxyAddress,
      headers: { 'x-request-id': 'bad id\nwith newline' },
    });
    expect(malformed.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    const untrusted = await build('false');
    for (const [app, remoteAddress] of [
      [listed, clientAddress],
      [untrusted, proxyAddress],
      [untrusted, '127.0.0.1'],
    ] as const) {
      const direct = await signIn(app, remoteAddress);
      expect(direct.headers['x-request-id'], remoteAddress).toMatch(/^[0-9a-f-]{36}$/);
      expect(await auditedRequestId(direct)).toBe(direct.headers['x-request-id']);
    }
  });

  it('answers /metrics on a loopback socket only, whatever the forwarding headers say', async () => {
    const metrics = (app: FastifyInstance, remoteAddress: string, forwardedFor?: string) =>
      app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });
    expect((await metrics(oneProxy, '127.0.0.1')).statusCode).toBe(200);
    expect((await metrics(oneProxy, clientAddress, '127.0.0.1')).statusCode).toBe(404);
    expect((await metrics(oneProxy, clientAddress, `127.0.0.1, ${clientAddress}`)).statusCode).toBe(404);
    // A proxy on the same host: the socket is loopback, the client it reports is not.
    expect((await metrics(oneProxy, '127.0.0.1', clientAddress)).statusCode).toBe(404);
    const everyHopListed = await build(`${clientAddress}, loopback`);
    expect((await metrics(everyHopListed, clientAddress, '127.0.0.1')).statusCode).toBe(404);
  });

  it('opens the ops endpoint on a loopback socket only, whatever the forwarding headers say', async () => {
    const run = (remoteAddress: string, forwardedFor?: string) =>
      oneProxy.inject({
        method: 'POST',
        url: '/internal/ops/status',
        remoteAddress,
        headers: { authorization: `Bearer ${opsToken}`, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
        payload: { args: [] },
      });
    expect((await run(clientAddress, '127.0.0.1')).statusCode).toBe(404);
    expect((await run('127.0.0.1', clientAddress)).statusCode).toBe(404);
    expect((await run('127.0.0.1')).statusCode).toBe(200);
  });
});
