import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Account } from '@strongroom/contracts/accounts.ts';
import { formatDate } from '../../lib/dates.ts';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, signedIn } from '../../test/render-app.tsx';
import { welcomeStorageKey } from '../../lib/welcome.ts';

beforeEach(() => {
  // The welcome is tested on its own; here the customer has already seen it.
  window.localStorage.setItem(welcomeStorageKey(signedIn.body.user.id), '2026-01-01T00:00:00.000Z');
});

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
  window.localStorage.clear();
});

const availableAt = '2026-11-27T15:00:00.000Z';

const checking: Account = {
  id: 'a1',
  type: 'checking',
  number: '6043797155',
  name: 'Easy Checking',
  balanceCents: 100_000,
  availableCents: 100_000,
  status: 'active',
  pendingDepositsCents: 20_000,
  pendingDepositsAvailableAt: availableAt,
};

const owing: Account = {
  id: 'a2',
  type: 'savings',
  number: '6927529963',
  name: 'Standard Savings',
  balanceCents: -1_250,
  availableCents: -1_250,
  status: 'active',
  pendingDepositsCents: 0,
  pendingDepositsAvailableAt: null,
};

async function cardOf(name: string): Promise<HTMLElement> {
  const card = (await screen.findByRole('heading', { level: 3, name })).closest('li');
  if (!card) throw new Error('the account is not a list item');
  return card;
}

describe('dashboard account cards', () => {
  it('show deposits on their way beside the balances, not in them, with the day they are available', async () => {
    renderApp('/dashboard', { 'GET /api/v1/me': signedIn, 'GET /api/v1/accounts': { status: 200, body: [checking, owing] } });
    const card = await cardOf('Easy Checking');
    expect(within(card).getByText('Balance').nextElementSibling?.textContent).toBe('$1,000.00');
    expect(within(card).getByText('Available balance').nextElementSibling?.textContent).toBe('$1,000.00');
    expect(within(card).getByText('On its way').nextElementSibling?.textContent).toBe('$200.00');
    expect(within(card).getByText(`Deposits from your other banks, available on ${formatDate(availableAt)}. Not in your balance until then.`)).toBeTruthy();
    // Nothing on its way, nothing said.
    expect(within(await cardOf('Standard Savings')).queryByText('On its way')).toBeNull();
  });

  it('show a balance below zero in red and say in words why payments out are paused', async () => {
    renderApp('/dashboard', { 'GET /api/v1/me': signedIn, 'GET /api/v1/accounts': { status: 200, body: [checking, owing] } });
    const card = await cardOf('Standard Savings');
    const balance = within(card).getByText('Balance').nextElementSibling;
    expect(balance?.textContent).toBe('-$12.50');
    expect(balance?.className).toContain('account__money--negative');
    expect(within(card).getByText('Below zero after a returned deposit: payments out are paused until you pay in the difference.')).toBeTruthy();
    expect(within(await cardOf('Easy Checking')).queryByText(/Below zero/)).toBeNull();
  });
});
