import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { jsonBodyOf, renderApp, signedIn, validationFailed } from '../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const saved = { newsletter: false, textMessages: true, phoneCalls: false };

describe('/settings', () => {
  it('lists the seed’s Accounts links, the security pages and Invite and Help, each to its screen', async () => {
    renderApp('/settings', { 'GET /api/v1/me': signedIn, 'GET /api/v1/me/preferences': { status: 200, body: saved } });
    const accounts = await screen.findByRole('region', { name: 'Accounts' });
    const hrefOf = (scope: HTMLElement, name: RegExp) => within(scope).getByRole('link', { name }).getAttribute('href');
    expect(hrefOf(accounts, /Change password/)).toBe('/settings/security');
    expect(hrefOf(accounts, /Notifications/)).toBe('/notifications');
    expect(hrefOf(accounts, /Privacy/)).toBe('/privacy');
    expect(hrefOf(accounts, /Payment/)).toBe('/deposit');
    const security = screen.getByRole('region', { name: 'Security' });
    expect(hrefOf(security, /^Security(?! activity)/)).toBe('/settings/security');
    expect(hrefOf(security, /Security activity/)).toBe('/settings/activity');
    expect(hrefOf(security, /Connected apps/)).toBe('/settings/connected-apps');
    const explore = screen.getByRole('region', { name: 'Explore' });
    expect(hrefOf(explore, /Invite a friend/)).toBe('/invite');
    expect(hrefOf(explore, /Help/)).toBe('/help');
  });

  it('shows the saved switches and saves a change at once', async () => {
    const user = userEvent.setup();
    const puts: unknown[] = [];
    renderApp('/settings', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/me/preferences': { status: 200, body: saved },
      'PUT /api/v1/me/preferences': (init) => {
        puts.push(jsonBodyOf(init));
        return { status: 200, body: jsonBodyOf(init) };
      },
    });
    const newsletter = await screen.findByRole('switch', { name: 'Newsletter' });
    expect(newsletter.getAttribute('aria-checked')).toBe('false');
    expect(screen.getByRole('switch', { name: 'Text Message' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByRole('switch', { name: 'Phone Call' }).getAttribute('aria-checked')).toBe('false');
    await user.click(newsletter);
    expect(newsletter.getAttribute('aria-checked')).toBe('true');
    await vi.waitFor(() => expect(puts).toEqual([{ newsletter: true, textMessages: true, phoneCalls: false }]));
  });

  it('moves a switch back and says so when the server refuses the change', async () => {
    const user = userEvent.setup();
    renderApp('/settings', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/me/preferences': { status: 200, body: saved },
      'PUT /api/v1/me/preferences': validationFailed({ phoneCalls: 'choose on or off' }),
    });
    const phone = await screen.findByRole('switch', { name: 'Phone Call' });
    await user.click(phone);
    expect(await screen.findByText(/Phone Call was not saved/)).toBeTruthy();
    await vi.waitFor(() => expect(phone.getAttribute('aria-checked')).toBe('false'));
  });

  it('offers Try again when the switches cannot be loaded', async () => {
    renderApp('/settings', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/me/preferences': { status: 500, body: { error: { code: 'internal_error', message: 'Something went wrong' } } },
    });
    expect(await screen.findByText('We could not load your choices', {}, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('signs out from the Accounts list', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp('/settings', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/me/preferences': { status: 200, body: saved },
      'POST /api/v1/auth/logout': { status: 204 },
    });
    await user.click(await screen.findByRole('button', { name: /Sign out/ }));
    await vi.waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(fetchMock.mock.calls.some(([url, init]) => String(url).endsWith('/auth/logout') && init?.method === 'POST')).toBe(true);
  });
});
