import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, ApiError, readCookie, readCsrfToken } from './api-client.ts';

const fetchMock = vi.fn<typeof fetch>();

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function lastRequest(): { url: string; init: RequestInit; headers: Headers } {
  const call = fetchMock.mock.calls.at(-1);
  if (!call) throw new Error('fetch was not called');
  const [url, init = {}] = call;
  return { url: String(url), init, headers: new Headers(init.headers) };
}

const passThrough = (data: unknown) => data;

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  document.cookie = 'csrf=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
});

describe('apiRequest', () => {
  it('calls the API under /api/v1 with same-origin credentials and a query string', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { items: [] }));
    await apiRequest('/dev/outbox', { query: { to: 'ada@example.com', limit: 50, cursor: undefined }, parse: passThrough });
    const { url, init, headers } = lastRequest();
    expect(url).toBe('/api/v1/dev/outbox?to=ada%40example.com&limit=50');
    expect(init.credentials).toBe('same-origin');
    expect(headers.get('accept')).toBe('application/json');
  });

  it('sends the csrf cookie back as X-CSRF-Token on unsafe methods only', async () => {
    document.cookie = 'csrf=token-123';
    fetchMock.mockResolvedValue(jsonResponse(201, { message: 'ok' }));

    await apiRequest('/contact', { method: 'POST', body: { name: 'Ada' }, parse: passThrough });
    let request = lastRequest();
    expect(request.headers.get('x-csrf-token')).toBe('token-123');
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(request.init.body).toBe('{"name":"Ada"}');

    await apiRequest('/me', { parse: passThrough });
    request = lastRequest();
    expect(request.headers.has('x-csrf-token')).toBe(false);
  });

  it('sends a FormData body as multipart: no JSON content type (the browser adds the boundary), the CSRF header kept', async () => {
    document.cookie = 'csrf=token-456';
    fetchMock.mockResolvedValue(jsonResponse(201, { ok: true }));
    const form = new FormData();
    form.set('idNumber', '123-45-6789');
    form.set('document', new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'id.png', { type: 'image/png' }));

    await apiRequest('/onboarding/identity', { method: 'POST', body: form, parse: passThrough });
    const { init, headers } = lastRequest();
    expect(init.body).toBe(form);
    expect(headers.has('content-type')).toBe(false);
    expect(headers.get('x-csrf-token')).toBe('token-456');
    expect(headers.get('accept')).toBe('application/json');
  });

  it('keeps how long to wait from a 429’s Retry-After header', async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ error: { code: 'rate_limited', message: 'We just sent a link.' } }), {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '42' },
      }),
    );
    await expect(apiRequest('/auth/signup/resend', { method: 'POST', parse: passThrough })).rejects.toMatchObject({
      status: 429,
      code: 'rate_limited',
      message: 'We just sent a link.',
      retryAfterSeconds: 42,
    });
  });

  it('passes the answer through the endpoint’s parser', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { count: 2 }));
    const parse = vi.fn((data: unknown) => ({ parsed: data }));
    await expect(apiRequest('/thing', { parse })).resolves.toEqual({ parsed: { count: 2 } });
    expect(parse).toHaveBeenCalledWith({ count: 2 });
  });

  it('turns the API error shape into an ApiError with code, message and fields', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(400, {
        error: { code: 'validation_failed', message: 'Some fields are not valid', fields: { email: 'email is not valid' } },
      }),
    );
    const error = await apiRequest('/contact', { method: 'POST', body: {}, parse: passThrough }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Some fields are not valid',
      fields: { email: 'email is not valid' },
    });
  });

  it('keeps the challenge id of a step-up answer', async () => {
    fetchMock.mockResolvedValue(jsonResponse(403, { error: { code: 'step_up_required', message: 'Enter the code', challengeId: 'ch_1' } }));
    await expect(apiRequest('/transfers', { method: 'POST', body: {}, parse: passThrough })).rejects.toMatchObject({
      code: 'step_up_required',
      challengeId: 'ch_1',
    });
  });

  it('gives a readable error when the answer is not the API’s error shape', async () => {
    fetchMock.mockResolvedValue(new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(apiRequest('/me', { parse: passThrough })).rejects.toMatchObject({
      status: 502,
      code: 'internal_error',
      message: 'The server answered with status 502',
    });
  });

  it('reports a request that never got an answer as "network error"', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(apiRequest('/me', { parse: passThrough })).rejects.toMatchObject({
      status: 0,
      code: 'network_error',
      message: 'network error',
    });
  });
});

describe('readCookie', () => {
  it('finds one cookie among several and decodes it', () => {
    expect(readCookie('csrf', 'session=abc; csrf=a%2Bb; theme=dark')).toBe('a+b');
    expect(readCookie('csrf', 'session=abc')).toBeUndefined();
  });
});

describe('readCsrfToken', () => {
  it('reads the __Host-csrf cookie of an HTTPS site as well as the csrf cookie of http://localhost', () => {
    expect(readCsrfToken('__Host-session=abc; __Host-csrf=https-token')).toBe('https-token');
    expect(readCsrfToken('session=abc; csrf=http-token')).toBe('http-token');
    expect(readCsrfToken('csrf=left-over; __Host-csrf=https-token')).toBe('https-token');
    expect(readCsrfToken('session=abc')).toBeUndefined();
  });
});
