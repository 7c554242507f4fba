import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, signedIn } from '../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const dashboard = { status: 200, body: { moneyInCents: 0, moneyOutCents: 0, spendingByCategory: [], recentTransactions: [], cardCount: 0, loanCount: 0 } };

describe('the frozen-account banner', () => {
  it('tells a frozen customer why, that no money moves, and how to reach the bank; the reason is shown as text', async () => {
    renderApp('/notifications', {
      'GET /api/v1/me': { status: 200, body: { ...signedIn.body, frozen: { reason: '<b>Suspicious</b> sign-ins', since: '2026-11-20T10:00:00.000Z' } } },
      'GET /api/v1/notifications': { status: 200, body: { items: [], unreadCount: 0 } },
      'GET /api/v1/dashboard': dashboard,
    });
    expect(await screen.findByText('Your account is frozen')).toBeTruthy();
    expect(screen.getByText('Reason: <b>Suspicious</b> sign-ins')).toBeTruthy();
    expect(screen.getByText(/no money can move/)).toBeTruthy();
    expect((await screen.findByRole('link', { name: 'support@bank.test' })).getAttribute('href')).toBe('mailto:support@bank.test');
    expect(screen.getByRole('link', { name: '+1 202 555 0100' }).getAttribute('href')).toBe('tel:+12025550100');
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
