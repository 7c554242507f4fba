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
  status: 'open',
  active: true,
  pendingDepositsCents: 20_000,
  pendingDepositsAvailableAt: availableAt,
  productId: '00000000-0000-4000-8000-00000000d001',
  productName: 'Easy Checking',
  interestRateBps: 0,
  apyBps: 0,
  interestThisMonthCents: 0,
  interestThisYearCents: 0,
};

const owing: Account = {
  id: 'a2',
  type: 'savings',
  number: '6927529963',
  name: 'Standard Savings',
  balanceCents: -1_250,
  availableCents: -1_250,
  status: 'open',
  active: true,
  pendingDepositsCents: 0,
  pendingDepositsAvailableAt: null,
  productId: '00000000-0000-4000-8000-00000000d004',
  productName: 'Standard Savings',
  interestRateBps: 150,
  apyBps: 151,
  interestThisMonthCents: 0,
  interestThisYearCents: 0,
};

/** A savings account that earned interest; named before its product became Package Money Market Savings. */
const earning: Account = {
  ...owing,
  id: 'a3',
  number: '6927529971',
  name: 'Rainy day savings',
  balanceCents: 3_000_000,
  availableCents: 3_000_000,
  productId: '00000000-0000-4000-8000-00000000d006',
  productName: 'Package Money Market Savings',
  interestRateBps: 300,
  apyBps: 304,
  interestThisMonthCents: 4_931,
  interestThisYearCents: 71_250,
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

  it('show each account’s rate and APY, and the interest it earned this month and this year', async () => {
    renderApp('/dashboard', { 'GET /api/v1/me': signedIn, 'GET /api/v1/accounts': { status: 200, body: [checking, owing, earning] } });
    const card = await cardOf('Rainy day savings');
    // The product is named beside the rate when the account's own name is not the product's.
    expect(within(card).getByText('Package Money Market Savings ·').closest('p')?.textContent).toBe('Package Money Market Savings · 3.00% interest, 3.04% APY');
    expect(within(card).getByText('Interest this month').nextElementSibling?.textContent).toBe('$49.31');
    expect(within(card).getByText('Interest this year').nextElementSibling?.textContent).toBe('$712.50');

    const savings = await cardOf('Standard Savings');
    expect(within(savings).getByText('1.50% interest').closest('p')?.textContent).toBe('1.50% interest, 1.51% APY');
    expect(within(savings).getByText('Interest this month').nextElementSibling?.textContent).toBe('$0.00');
    expect(within(savings).getByText('Interest this year').nextElementSibling?.textContent).toBe('$0.00');
  });

  it('say in words that an account earns no interest, without rows of zeros', async () => {
    renderApp('/dashboard', { 'GET /api/v1/me': signedIn, 'GET /api/v1/accounts': { status: 200, body: [checking] } });
    const card = await cardOf('Easy Checking');
    expect(within(card).getByText('No interest')).toBeTruthy();
    expect(within(card).queryByText(/Interest this/)).toBeNull();
  });

  it('show a closed account as closed, in words', async () => {
    renderApp('/dashboard', { 'GET /api/v1/me': signedIn, 'GET /api/v1/accounts': { status: 200, body: [{ ...earning, status: 'closed', active: false }] } });
    const card = await cardOf('Rainy day savings');
    expect(within(card).getByText('Closed').className).toContain('account__status--closed');
  });
});
