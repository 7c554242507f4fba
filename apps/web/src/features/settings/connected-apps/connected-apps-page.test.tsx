import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConnectedAppConsent } from '@strongroom/contracts/connected-apps.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { renderApp, signedIn } from '../../../test/render-app.tsx';
import { initialsOf } from '../../../lib/connected-app-identity.ts';
import { noConnectedAppsText } from './connected-apps-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const pennywise: ConnectedAppConsent = {
  consentId: 'c-1',
  app: { id: 'r-1', name: 'Pennywise', logoUrl: null },
  scopes: ['fdx:accountdetailed:read', 'fdx:transactions:read'],
  accounts: [
    { id: 'a-1', name: 'Everyday Checking', maskedNumber: 'Everyday Checking ••4821' },
    { id: 'a-2', name: 'Savings', maskedNumber: 'Savings ••0377' },
  ],
  createdAt: '2026-11-02T10:00:00.000Z',
  expiresAt: '2027-11-02T10:00:00.000Z',
  lastUsedAt: null,
};
const taxPal: ConnectedAppConsent = {
  consentId: 'c-2',
  app: { id: 'r-2', name: 'Tax Pal', logoUrl: 'https://tax.example/logo.png' },
  scopes: ['fdx:statements:read'],
  accounts: [{ id: 'a-1', name: 'Everyday Checking', maskedNumber: 'Everyday Checking ••4821' }],
  createdAt: '2026-10-01T10:00:00.000Z',
  expiresAt: '2027-01-01T10:00:00.000Z',
  lastUsedAt: '2026-11-20T15:30:00.000Z',
};

const listed = (...items: ConnectedAppConsent[]) => ({ status: 200, body: { items } });

function deletesOf(fetchMock: ReturnType<typeof renderApp>['fetchMock']) {
  return fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE');
}

describe('/settings/connected-apps', () => {
  it('shows each app with what it can see, which accounts, since and until when, and when it was last used', async () => {
    renderApp('/settings/connected-apps', { 'GET /api/v1/me': signedIn, 'GET /api/v1/me/connected-apps': listed(pennywise, taxPal) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Connected apps' })).toBeTruthy();
    const items = within(await screen.findByRole('list', { name: 'Connected apps' })).getAllByRole('listitem', { name: /Pennywise|Tax Pal/ });
    expect(items).toHaveLength(2);
    const first = within(items[0] as HTMLElement);
    expect(first.getByRole('heading', { level: 3, name: 'Pennywise' })).toBeTruthy();
    expect(first.getByText('Account details and balances')).toBeTruthy();
    expect(first.getByText('Transactions')).toBeTruthy();
    expect(first.getByText('Everyday Checking ••4821')).toBeTruthy();
    expect(first.getByText('Savings ••0377')).toBeTruthy();
    expect(first.getByText('Nov 2, 2026')).toBeTruthy();
    expect(first.getByText('Nov 2, 2027')).toBeTruthy();
    expect(first.getByText('Never used')).toBeTruthy();
    expect(first.getByText('P')).toBeTruthy();
    const second = within(items[1] as HTMLElement);
    expect(second.getByText('Statements')).toBeTruthy();
    expect(second.queryByText('Transactions')).toBeNull();
    expect(second.getByText(/^Nov 20, 2026/)).toBeTruthy();
    // A logo on another origin is not loaded (the CSP allows only the bank's own images): initials instead.
    expect(second.getByText('TP')).toBeTruthy();
    expect(document.querySelector('img[src^="https://tax.example"]')).toBeNull();
  });

  it('revokes only after a confirmation that says what it does, then removes the app and announces it', async () => {
    const user = userEvent.setup();
    let revoked = false;
    const { fetchMock } = renderApp('/settings/connected-apps', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/me/connected-apps': () => (revoked ? listed(taxPal) : listed(pennywise, taxPal)),
      'DELETE /api/v1/me/connected-apps/c-1': () => {
        revoked = true;
        return { status: 204 };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Revoke access for Pennywise' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke access for Pennywise?' });
    expect(within(dialog).getByText('Pennywise will no longer see your data. Apps you revoke must ask again.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(deletesOf(fetchMock)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Revoke access for Pennywise' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Revoke access for Pennywise?' })).getByRole('button', { name: 'Revoke access' }));
    expect(within(screen.getByRole('status')).getByText('Pennywise can no longer see your data')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Pennywise' })).toBeNull());
    expect(screen.getByRole('heading', { name: 'Tax Pal' })).toBeTruthy();
    expect(deletesOf(fetchMock)).toHaveLength(1);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Connected apps' })));
  });

  it('takes an app whose access had already ended off the list, and shows any other failure without removing it', async () => {
    const user = userEvent.setup();
    let endedElsewhere = false;
    renderApp('/settings/connected-apps', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/me/connected-apps': () => (endedElsewhere ? listed(taxPal) : listed(pennywise, taxPal)),
      'DELETE /api/v1/me/connected-apps/c-1': () => {
        endedElsewhere = true;
        return { status: 404, body: { error: { code: 'not_found', message: 'No such connected app' } } };
      },
      'DELETE /api/v1/me/connected-apps/c-2': { status: 500, body: { error: { code: 'internal_error', message: 'Something went wrong on our side' } } },
    });
    await user.click(await screen.findByRole('button', { name: 'Revoke access for Tax Pal' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Revoke access for Tax Pal?' })).getByRole('button', { name: 'Revoke access' }));
    const problem = await screen.findByRole('alertdialog', { name: 'Access was not revoked' });
    expect(within(problem).getByText('Something went wrong on our side')).toBeTruthy();
    await user.click(within(problem).getAllByRole('button', { name: 'Close' })[1] as HTMLElement);
    expect(screen.getByRole('heading', { name: 'Tax Pal' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Revoke access for Pennywise' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Revoke access for Pennywise?' })).getByRole('button', { name: 'Revoke access' }));
    expect(await screen.findByText('Pennywise could no longer see your data: its access had already ended')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Pennywise' })).toBeNull());
    expect(screen.getByRole('heading', { name: 'Tax Pal' })).toBeTruthy();
  });

  it('says when no app is connected', async () => {
    renderApp('/settings/connected-apps', { 'GET /api/v1/me': signedIn, 'GET /api/v1/me/connected-apps': listed() });
    expect(await screen.findByRole('heading', { name: 'No connected apps' })).toBeTruthy();
    expect(screen.getByText(noConnectedAppsText)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Revoke access/ })).toBeNull();
  });

  it('says so when the list cannot be loaded, and offers to try again', async () => {
    renderApp('/settings/connected-apps', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/me/connected-apps': { status: 500, body: { error: { code: 'internal_error', message: 'Something went wrong on our side' } } },
    });
    expect(await screen.findByRole('heading', { name: 'We could not load your connected apps' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /try again/i })).toBeTruthy();
  });

  it('makes initials of the first two words of an app name', () => {
    expect(initialsOf('Pennywise')).toBe('P');
    expect(initialsOf('Pennywise (sandbox)')).toBe('PS');
    expect(initialsOf(' tax  pal pro ')).toBe('TP');
    expect(initialsOf('')).toBe('?');
  });
});
