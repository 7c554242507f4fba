import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { App } from '../app/app.tsx';
import type { BankIdentity } from '../lib/bank-identity.ts';

export type FakeApi = Record<string, { status: number; body: unknown }>;

export const publicSettings = {
  bankName: 'Strongroom Demo Bank',
  mode: 'sandbox',
  address: '1 Ledger Lane\nSpringfield',
  phone: '+1 202 555 0100',
  supportEmail: 'support@bank.test',
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

/**
 * Renders the whole app at `path` against a fake API: each key is "METHOD /api/v1/path" (query
 * string ignored). Anything else answers the API's 404 shape, as the real server does.
 */
export function renderApp(path: string, api: FakeApi = {}, identity: BankIdentity = { name: 'Strongroom Demo Bank', mode: 'sandbox' }) {
  const routes: FakeApi = { 'GET /api/v1/settings/public': { status: 200, body: publicSettings }, ...api };
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const answer = routes[`${init?.method ?? 'GET'} ${url.pathname}`] ?? {
      status: 404,
      body: { error: { code: 'not_found', message: `No route for ${url.pathname}` } },
    };
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  window.history.replaceState({}, '', path);
  const view = render(<App bankIdentity={identity} />);
  return { ...view, fetchMock };
}
