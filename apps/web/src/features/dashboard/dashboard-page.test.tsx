import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, signedIn } from '../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const accounts = [
  { id: 'a1', type: 'checking', number: '6043797155', name: 'Easy Checking', balanceCents: 475_000, availableCents: 425_000, status: 'active' },
  { id: 'a2', type: 'savings', number: '6927529963', name: 'Standard Savings', balanceCents: 0, availableCents: 0, status: 'inactive' },
];

describe('dashboard accounts', () => {
  it('lists each account with its type, number, balance and available balance, and its status in words', async () => {
    renderApp('/dashboard', { 'GET /api/v1/me': signedIn, 'GET /api/v1/accounts': { status: 200, body: accounts } });
    const checking = (await screen.findByRole('heading', { level: 3, name: 'Easy Checking' })).closest('li');
    if (!checking) throw new Error('the account is not a list item');
    expect(within(checking).getByText('Checking')).toBeTruthy();
    expect(within(checking).getByText('6043797155')).toBeTruthy();
    expect(within(checking).getByText('Balance').nextElementSibling?.textContent).toBe('$4,750.00');
    expect(within(checking).getByText('Available balance').nextElementSibling?.textContent).toBe('$4,250.00');
    expect(within(checking).getByText('Active').className).toContain('account__status--active');

    const savings = screen.getByRole('heading', { level: 3, name: 'Standard Savings' }).closest('li');
    if (!savings) throw new Error('the account is not a list item');
    expect(within(savings).getByText('Inactive').className).toContain('account__status--inactive');
    expect(within(savings).getAllByText('$0.00')).toHaveLength(2);
  });

  it('says honestly that there are no accounts yet while the identity is being checked', async () => {
    renderApp('/dashboard', { 'GET /api/v1/me': signedIn, 'GET /api/v1/accounts': { status: 200, body: [] } });
    expect(await screen.findByRole('heading', { name: 'No accounts yet' })).toBeTruthy();
    expect(screen.getByText(/as soon as your identity has been checked/)).toBeTruthy();
  });
});
