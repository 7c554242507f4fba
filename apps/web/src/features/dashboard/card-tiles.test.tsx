import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, signedIn } from '../../test/render-app.tsx';
import { cardOf } from '../../test/card-fixtures.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const summary = {
  month: '2026-11',
  moneyInCents: 0,
  moneyOutCents: 0,
  spendingByCategory: [],
  recentTransactions: [],
  cardCount: 2,
  loanCount: 0,
  interestEarnedCents: 0,
  interestEarnedYearCents: 0,
  feesPaidCents: 0,
  feesPaidYearCents: 0,
};

describe('the dashboard’s cards', () => {
  it('shows each usable card as a masked tile leading to its page, with the count, and leaves out closed ones', async () => {
    renderApp('/dashboard', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/accounts': { status: 200, body: [] },
      'GET /api/v1/dashboard': { status: 200, body: summary },
      'GET /api/v1/cards': {
        status: 200,
        body: {
          items: [
            cardOf({ id: '11111111-1111-4111-8111-111111111111', last4: '1111' }),
            cardOf({ id: '22222222-2222-4222-8222-222222222222', last4: '2222', status: 'frozen', type: 'credit', network: 'mastercard' }),
            cardOf({ id: '33333333-3333-4333-8333-333333333333', last4: '3333', status: 'closed' }),
          ],
        },
      },
    });
    const tiles = await screen.findByRole('list', { name: 'Your cards' });
    expect(within(tiles).getByRole('link', { name: 'Debit Card ending 1111' }).getAttribute('href')).toBe('/card-details/11111111-1111-4111-8111-111111111111');
    expect(within(tiles).getByRole('link', { name: 'Credit Card ending 2222, Frozen' })).toBeTruthy();
    expect(within(tiles).queryByText(/3333/)).toBeNull();
    expect(within(tiles).getByText('•••• 1111')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Cards (2)', level: 2 })).toBeTruthy();
  });
});
