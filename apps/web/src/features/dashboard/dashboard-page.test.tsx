import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { checking as checkingAccount, savings as savingsAccount } from '../../test/payment-fixtures.ts';
import { renderApp, signedIn } from '../../test/render-app.tsx';
import { welcomeStorageKey } from '../../lib/welcome.ts';

beforeEach(() => {
  // The welcome is tested on its own; elsewhere the customer has already seen it.
  window.localStorage.setItem(welcomeStorageKey(signedIn.body.user.id), '2026-01-01T00:00:00.000Z');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  queryClient.clear();
  window.localStorage.clear();
});

const accounts = [
  { ...checkingAccount, id: 'a1' },
  { ...savingsAccount, id: 'a2', balanceCents: 0, availableCents: 0, active: false },
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
    expect(within(checking).getByRole('link', { name: 'Statements of Easy Checking 6043797155' }).getAttribute('href')).toBe(
      '/transaction-history?account=a1#statements-title',
    );

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

const summary = {
  month: '2026-03',
  moneyInCents: 525_000,
  moneyOutCents: 160_050,
  spendingByCategory: [
    { category: 'Withdrawals', amountCents: 40_000 },
    { category: 'Transfers', amountCents: 120_050 },
    { category: 'Card payments', amountCents: 0 },
  ],
  cardCount: 2,
  loanCount: 1,
  interestEarnedCents: 1_300,
  interestEarnedYearCents: 3_725,
  feesPaidCents: 800,
  feesPaidYearCents: 1_495,
  recentTransactions: [
    {
      id: 't1-out',
      transferId: 't1',
      accountId: 'a1',
      kind: 'external',
      status: 'in_review',
      amountCents: -1_000_000,
      description: 'Transfer to Alan Turing',
      category: 'Transfer',
      createdAt: '2026-03-14T12:00:00.000Z',
    },
    {
      id: 't2-in',
      transferId: 't2',
      accountId: 'a1',
      kind: 'deposit',
      status: 'completed',
      amountCents: 525_000,
      description: 'Salary',
      category: 'Deposit',
      createdAt: '2026-03-02T12:00:00.000Z',
    },
  ],
};

function dashboardApi(overrides: Partial<typeof summary> = {}) {
  return {
    'GET /api/v1/me': signedIn,
    'GET /api/v1/accounts': { status: 200, body: accounts },
    'GET /api/v1/dashboard': { status: 200, body: { ...summary, ...overrides } },
  };
}

function definition(term: string): string | null | undefined {
  return screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
}

describe('dashboard figures', () => {
  it('shows this month’s money in and out, and the number of cards and loans', async () => {
    renderApp('/dashboard', dashboardApi());
    expect(await screen.findByRole('heading', { level: 2, name: 'This month March 2026' })).toBeTruthy();
    expect(definition('Money in')).toBe('$5,250.00');
    expect(definition('Money out')).toBe('$1,600.50');
    expect(definition('Cards')).toBe('2');
    expect(definition('Loans')).toBe('1');
  });

  it('shows the interest earned and the fees paid this month, each with its year so far', async () => {
    renderApp('/dashboard', dashboardApi());
    expect(await screen.findByRole('heading', { level: 2, name: 'This month March 2026' })).toBeTruthy();
    const interest = screen.getByText('Interest earned', { selector: 'dt' });
    expect(interest.nextElementSibling?.textContent).toBe('$13.00');
    expect(interest.nextElementSibling?.className).toContain('money-in');
    expect(interest.nextElementSibling?.nextElementSibling?.textContent).toBe('$37.25 this year');
    const fees = screen.getByText('Fees paid', { selector: 'dt' });
    expect(fees.nextElementSibling?.textContent).toBe('$8.00');
    expect(fees.nextElementSibling?.className).toContain('money-out');
    expect(fees.nextElementSibling?.nextElementSibling?.textContent).toBe('$14.95 this year');
    // Money in and out have no year beneath them.
    expect(screen.getByText('Money in', { selector: 'dt' }).nextElementSibling?.nextElementSibling).toBeNull();
  });

  it('draws spending by category from the summary, with a legend that gives each amount and share in words', async () => {
    renderApp('/dashboard', dashboardApi());
    const chart = await screen.findByRole('img', { name: /^Spending in March 2026/ });
    expect(chart.getAttribute('aria-labelledby')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Spending in March 2026: Transfers $1,200.50 (75%), Withdrawals $400.00 (25%)' })).toBe(chart);
    // A category without spending is neither drawn nor listed.
    expect(chart.querySelectorAll('.spending-chart__slice')).toHaveLength(2);
    const legend = chart.closest('figure')?.querySelector('figcaption');
    if (!legend) throw new Error('the chart has no legend');
    const rows = within(legend)
      .getAllByRole('listitem')
      .map((row) => row.textContent);
    expect(rows).toEqual(['Transfers$1,200.5075%', 'Withdrawals$400.0025%']);
    expect(within(legend).getByText('Total').nextElementSibling?.textContent).toBe('$1,600.50');
  });

  it('says honestly that there was no spending this month instead of drawing a chart', async () => {
    renderApp('/dashboard', dashboardApi({ moneyOutCents: 0, spendingByCategory: [] }));
    expect(await screen.findByRole('heading', { name: 'No spending this month yet' })).toBeTruthy();
    expect(screen.queryByRole('img', { name: /Spending in/ })).toBeNull();
  });

  it('lists recent transactions with status in words, date, description, category and signed amount', async () => {
    renderApp('/dashboard', dashboardApi());
    const table = await screen.findByRole('table', { name: 'Latest transactions, newest first' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['In review', '2026-03-14', 'Transfer to Alan Turing', 'Transfer', '-$10,000.00'],
      ['Completed', '2026-03-02', 'Salary', 'Deposit', '$5,250.00'],
    ]);
    expect(within(rows[0] as HTMLElement).getByText('-$10,000.00').className).toContain('money-out');
    expect(within(rows[1] as HTMLElement).getByText('$5,250.00').className).toContain('money-in');
  });

  it('says when there are no transactions yet', async () => {
    renderApp('/dashboard', dashboardApi({ recentTransactions: [] }));
    expect(await screen.findByText(/No transactions yet/)).toBeTruthy();
  });

  it('lists recent transactions on a phone with the amount on each line’s first row, and no table to scroll sideways', async () => {
    // A screen narrower than 600 px, as far as CSS media queries go (the history screen's breakpoint).
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width: 599.98px'),
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    renderApp('/dashboard', dashboardApi());
    const list = await screen.findByRole('list', { name: 'Latest transactions, newest first' });
    expect(screen.queryByRole('table', { name: 'Latest transactions, newest first' })).toBeNull();
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.firstElementChild?.textContent)).toEqual(['Transfer to Alan Turing-$10,000.00', 'Salary$5,250.00']);
    expect(items.map((item) => item.lastElementChild?.textContent)).toEqual(['In review2026-03-14Transfer', 'Completed2026-03-02Deposit']);
    expect(within(items[0] as HTMLElement).getByText('-$10,000.00').className).toContain('money-out');
  });
});

describe('dashboard greeting and welcome', () => {
  it.each([
    [9, 'Good morning, Ada'],
    [14, 'Good afternoon, Ada'],
    [19, 'Good evening, Ada'],
    [23, 'Good night, Ada'],
  ])('at %i o’clock it says “%s”', async (hour, greeting) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 2, 14, hour, 30));
    renderApp('/dashboard', dashboardApi());
    expect(await screen.findByText(greeting)).toBeTruthy();
  });

  it('welcomes the customer on their first visit only, and the welcome closes with its button', async () => {
    const user = userEvent.setup();
    window.localStorage.clear();
    const first = renderApp('/dashboard', dashboardApi());
    const welcome = await screen.findByRole('dialog', { name: 'Welcome to Strongroom Demo Bank, Ada' });
    await user.click(within(welcome).getByRole('button', { name: 'Get started' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    first.unmount();
    queryClient.clear();

    renderApp('/dashboard', dashboardApi());
    expect(await screen.findByRole('heading', { level: 1, name: 'Your dashboard' })).toBeTruthy();
    await screen.findByText('$5,250.00', { selector: 'dd' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes the welcome with Escape and remembers it', async () => {
    const user = userEvent.setup();
    const newcomer = { status: 200, body: { ...signedIn.body, user: { ...signedIn.body.user, id: 'u-new', firstName: 'Grace' } } };
    renderApp('/dashboard', { ...dashboardApi(), 'GET /api/v1/me': newcomer });
    expect(await screen.findByRole('dialog', { name: 'Welcome to Strongroom Demo Bank, Grace' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(window.localStorage.getItem(welcomeStorageKey('u-new'))).not.toBeNull();
  });
});
