import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, signedIn } from '../../test/render-app.tsx';
import { welcomeStorageKey } from '../../lib/welcome.ts';
import { accounts, historyApi, line, narrowMatchMedia } from './test-fixtures.ts';

beforeEach(() => {
  // The dashboard's welcome is tested on its own; here the customer has already seen it.
  window.localStorage.setItem(welcomeStorageKey(signedIn.body.user.id), '2026-01-01T00:00:00.000Z');
});

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
  window.localStorage.clear();
});

const rentToGrace = line({ id: 'p1:out', description: 'Rent for May', party: 'To Grace Landlord' });
const dinnerFromAda = line({ id: 'p2:in', kind: 'internal', amountCents: 4_200, description: 'Dinner', party: 'From Ada Lovelace', category: 'Credit' });
const cardBill = line({ id: 'p3:out', kind: 'card', amountCents: -3_000, description: 'May bill', party: 'Credit card payment', category: 'Debit' });
// The party without a reason is the description already: named once.
const noReason = line({ id: 'p4:out', description: 'To Frank Payee', party: 'To Frank Payee' });
// A line from before the API named parties.
const older = line({ id: 'p5:out', description: 'Groceries' });
const lines = [rentToGrace, dinnerFromAda, cardBill, noReason, older];
const headings = ['To Grace Landlord · Rent for May', 'From Ada Lovelace · Dinner', 'Credit card payment · May bill', 'To Frank Payee', 'Groceries'];

describe('history says who', () => {
  it('names the other party before the description in the history table', async () => {
    renderApp('/transaction-history', historyApi(lines));
    const table = await screen.findByRole('table', { name: 'Recent transactions' });
    const descriptions = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[2]?.textContent);
    expect(descriptions).toEqual(headings);
  });

  it('names the other party in the history list on a phone', async () => {
    vi.stubGlobal('matchMedia', narrowMatchMedia);
    renderApp('/transaction-history', historyApi(lines));
    const list = await screen.findByRole('region', { name: 'Recent transactions' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.history-list__description')?.textContent)).toEqual(headings);
  });

  it('names the other party in the dashboard’s latest transactions, in the table and on a phone', async () => {
    const api = {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/accounts': { status: 200, body: accounts },
      'GET /api/v1/dashboard': {
        status: 200,
        body: {
          month: '2026-03',
          moneyInCents: 0,
          moneyOutCents: 0,
          spendingByCategory: [],
          cardCount: 0,
          loanCount: 0,
          recentTransactions: lines,
          interestEarnedCents: 0,
          interestEarnedYearCents: 0,
          feesPaidCents: 0,
          feesPaidYearCents: 0,
        },
      },
    };
    const { unmount } = renderApp('/dashboard', api);
    const table = await screen.findByRole('table', { name: 'Latest transactions, newest first' });
    const descriptions = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[2]?.textContent);
    expect(descriptions).toEqual(headings);
    unmount();

    vi.stubGlobal('matchMedia', narrowMatchMedia);
    renderApp('/dashboard', api);
    const list = await screen.findByRole('list', { name: 'Latest transactions, newest first' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('.recent-transactions__description')?.textContent),
    ).toEqual(headings);
  });
});
