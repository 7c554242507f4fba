import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, signedIn } from '../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const dashboard = { status: 200, body: { moneyInCents: 0, moneyOutCents: 0, spendingByCategory: [], recentTransactions: [], cardCount: 0, loanCount: 0 } };

describe('the frozen-account banner', () => {
  it("shows the customer's message staff chose (as text), that no money moves, and how to reach the bank", async () => {
    const message = "<b>We're reviewing</b> your account. Some features are paused while we do this; we'll be in touch when it's done.";
    renderApp('/notifications', {
      'GET /api/v1/me': { status: 200, body: { ...signedIn.body, frozen: { message, since: '2026-11-20T10:00:00.000Z' } } },
      'GET /api/v1/notifications': { status: 200, body: { items: [], unreadCount: 0 } },
      'GET /api/v1/dashboard': dashboard,
    });
    const banner = (await screen.findByText('Your account is frozen')).closest<HTMLElement>('.frozen-account-banner');
    if (!banner) throw new Error('no banner');
    expect(within(banner).getByText(message)).toBeTruthy();
    expect(within(banner).queryByText(/Reason/)).toBeNull();
    expect(within(banner).getByText(/no money can move/)).toBeTruthy();
    expect(within(banner).getByRole('link', { name: 'Messages' }).getAttribute('href')).toBe('/messages');
    expect((await within(banner).findByRole('link', { name: 'support@bank.test' })).getAttribute('href')).toBe('mailto:support@bank.test');
    expect(within(banner).getByRole('link', { name: '+1 202 555 0100' }).getAttribute('href')).toBe('tel:+12025550100');
  });

  it('is absent for a customer who is not frozen', async () => {
    renderApp('/notifications', {
      'GET /api/v1/me': { status: 200, body: { ...signedIn.body, frozen: null } },
      'GET /api/v1/notifications': { status: 200, body: { items: [], unreadCount: 0 } },
    });
    expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
    expect(screen.queryByText('Your account is frozen')).toBeNull();
  });
});
