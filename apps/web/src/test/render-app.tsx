import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { App } from '../app/app.tsx';
import { defaultBankName, defaultBankTimeZone, type BankIdentity } from '../lib/bank-identity.ts';

/**
 * The modules the router loads on demand (app/app-routes.tsx: the areas in app/lazy-routes and the
 * feature pages). On a busy machine the first import of one can take longer than a findBy waits,
 * so a test that raced it failed for no fault of the screen.
 */
const lazyScreenModules = import.meta.glob(['../app/lazy-routes/*.tsx', '../features/**/*-page.tsx']);

/**
 * Loads every lazy screen before a file's tests start (setup.ts), so a test's first render only
 * renders: React.lazy then finds its module already loaded instead of racing the test's timeout.
 */
export async function loadLazyScreens(): Promise<void> {
  await Promise.all(Object.values(lazyScreenModules).map((load) => load()));
}

export interface FakeAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A fixed answer, or one worked out per request (an answer that changes, a check of the body). */
export type FakeApi = Record<string, FakeAnswer | ((init: RequestInit | undefined) => FakeAnswer)>;

export const publicSettings = {
  bankName: 'Strongroom Demo Bank',
  mode: 'sandbox',
  address: '1 Ledger Lane\nSpringfield',
  phone: '+1 202 555 0100',
  supportEmail: 'support@bank.test',
  homeCounters: [],
} as const;

export const signedIn = {
  status: 200,
  body: {
    user: {
      id: 'u1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      emailVerified: true,
      phoneNumber: '+12025550101',
      phoneVerified: true,
      country: 'US',
      identityStatus: 'approved',
      accountVerified: true,
      profilePhotoUrl: null,
    },
    next: 'dashboard',
  },
};

export const unauthenticated = { status: 401, body: { error: { code: 'unauthenticated', message: 'Please sign in' } } };

/** The signed-in customer at an earlier onboarding step, as `/me` and each step's answer give it. */
export function sessionAt(next: 'verify-email' | 'phone' | 'identity' | 'profile-photo' | 'dashboard') {
  return { status: 200, body: { ...signedIn.body, next } };
}

/** The API's 400 with messages for fields. */
export function validationFailed(fields: Record<string, string>) {
  return { status: 400, body: { error: { code: 'validation_failed', message: 'Some fields are not valid', fields } } };
}

/** The JSON body a request sent, for checking what a form posted. */
export function jsonBodyOf(init: RequestInit | undefined): unknown {
  return typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
}

/**
 * Renders the whole app at `path` against a fake API: each key is "METHOD /api/v1/path" (query
 * string ignored). Anything else answers the API's 404 shape, as the real server does.
 */
export function renderApp(path: string, api: FakeApi = {}, identity: Partial<BankIdentity> = {}) {
  const routes: FakeApi = { 'GET /api/v1/settings/public': { status: 200, body: publicSettings }, ...api };
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const route = routes[`${init?.method ?? 'GET'} ${url.pathname}`] ?? {
      status: 404,
      body: { error: { code: 'not_found', message: `No route for ${url.pathname}` } },
    };
    const answer = typeof route === 'function' ? route(init) : route;
    const body = answer.body === undefined ? null : JSON.stringify(answer.body);
    return new Response(body, { status: answer.status, headers: { 'content-type': 'application/json', ...answer.headers } });
  });
  vi.stubGlobal('fetch', fetchMock);
  window.history.replaceState({}, '', path);
  const view = render(<App bankIdentity={{ name: defaultBankName, mode: 'sandbox', timeZone: defaultBankTimeZone, ...identity }} />);
  return { ...view, fetchMock };
}
