import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, signedIn } from '../../test/render-app.tsx';
import { welcomeStorageKey } from '../../lib/welcome.ts';
import { accounts, allLines, cashOut, historyApi, line, listQueries, narrowMatchMedia, page, rentOut, salaryIn } from './test-fixtures.ts';
import { printDocumentTitle } from './use-print-statement.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
  queryClient.clear();
});

function cellsOf(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent ?? ''),
    );
}

async function historyTable(): Promise<HTMLElement> {
  return screen.findByRole('table', { name: 'Recent transactions' });
}

describe('/transaction-history', () => {
  it('is the History screen, with History active in the menu', async () => {
    renderApp('/transaction-history', historyApi());
    expect(await screen.findByRole('heading', { level: 1, name: 'History' })).toBeTruthy();
    const menu = screen.getByRole('navigation', { name: 'Online banking' });
    expect(within(menu).getByRole('link', { name: 'History' }).className).toContain('bank-nav__link--active');
    await waitFor(() => expect(document.title).toBe('History | Strongroom Demo Bank'));
  });

  it('lists each line newest first as the seed formats it (status word, YYYY-MM-DD, description, category), money out written -$1,234.00', async () => {
    renderApp('/transaction-history', historyApi());
    const table = await historyTable();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Status', 'Date', 'Description', 'Category', 'Amount']);
    expect(cellsOf(table)).toEqual([
      ['In review', '2026-03-14', 'Rent for March', 'Transfer', '-$1,234.00'],
      ['Completed', '2026-03-10', 'Salary', 'Credit', '$5,250.00'],
      ['Pending', '2026-03-09', 'Card to Ada', 'Debit', '-$49.99'],
      ['Returned', '2026-03-08', 'Cash', 'Withdrawal', '-$200.00'],
      ['Rejected', '2026-03-07', 'Savings jar', 'Deposit', '$1,000.00'],
      ['Completed', '2026-03-01', 'Opening deposit', 'Funding', '$5,000.00'],
    ]);
  });

  it('gives completed lines a green dot and every other state a grey one, always with the word', async () => {
    renderApp('/transaction-history', historyApi());
    const table = await historyTable();
    const statuses = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[0]?.firstElementChild);
    expect(statuses.map((status) => [status?.textContent, status?.className])).toEqual([
      ['In review', 'history-status history-status--other'],
      ['Completed', 'history-status history-status--completed'],
      ['Pending', 'history-status history-status--other'],
      ['Returned', 'history-status history-status--other'],
      ['Rejected', 'history-status history-status--other'],
      ['Completed', 'history-status history-status--completed'],
    ]);
    for (const status of statuses) expect(status?.querySelector('.history-status__dot')?.getAttribute('aria-hidden')).toBe('true');
  });

  it('shows Transfer, Debit and Withdrawal amounts in red, the other categories in green, and a rejected line in neither', async () => {
    renderApp('/transaction-history', historyApi());
    const table = await historyTable();
    const tones = Object.fromEntries(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => {
          const cells = within(row).getAllByRole('cell');
          return [cells[3]?.textContent, cells[4]?.firstElementChild?.className];
        }),
    );
    expect(tones).toEqual({
      Transfer: 'tabular money-out',
      Credit: 'tabular money-in',
      Debit: 'tabular money-out',
      Withdrawal: 'tabular money-out',
      // The deposit was rejected: nothing came in, so its amount is struck through, not green.
      Deposit: 'tabular money-none',
      Funding: 'tabular money-in',
    });
  });

  it('asks for the first page with no filters, then for the account, category and dates chosen', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp('/transaction-history', historyApi());
    await historyTable();
    const first = listQueries(fetchMock)[0];
    expect(first && Object.fromEntries(first)).toEqual({ limit: '20' });

    await user.selectOptions(screen.getByRole('combobox', { name: 'Account' }), accounts[1].id);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Category' }), 'Withdrawal');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-31' } });

    await waitFor(() => {
      const last = listQueries(fetchMock).at(-1);
      expect(last && Object.fromEntries(last)).toEqual({
        accountId: accounts[1].id,
        category: 'Withdrawal',
        from: '2026-03-01',
        to: '2026-03-31',
        limit: '20',
      });
    });
  });

  it('sends the search once typing pauses, not once per letter', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp('/transaction-history', historyApi());
    await historyTable();
    const searchbox = screen.getByRole('searchbox', { name: 'Search descriptions' });
    // The search finds the other party's name too (decision 061), and the field says so.
    const hint = document.getElementById(searchbox.getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toBe('Finds a word in a line’s description or in the name of who it was with.');
    await user.type(searchbox, 'rent');
    await waitFor(() => expect(listQueries(fetchMock).at(-1)?.get('q')).toBe('rent'));
    expect(listQueries(fetchMock).map((query) => query.get('q'))).toEqual([null, 'rent']);
  });

  it('does not ask for an end date before the start date, and says why', async () => {
    const { fetchMock } = renderApp('/transaction-history', historyApi());
    await historyTable();
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-20' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-01' } });
    expect(await screen.findByText('The end date must be on or after the start date')).toBeTruthy();
    // Settled: the list was asked for the valid start date, and nothing is being fetched since the invalid end date.
    await waitFor(() => {
      expect(listQueries(fetchMock).at(-1)?.get('from')).toBe('2026-03-20');
      expect(queryClient.isFetching()).toBe(0);
    });
    expect(listQueries(fetchMock).some((query) => query.get('to') === '2026-03-01')).toBe(false);
  });

  it('resets every filter, the search box included', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp('/transaction-history', historyApi());
    await historyTable();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Category' }), 'Credit');
    await user.type(screen.getByRole('searchbox', { name: 'Search descriptions' }), 'salary{Enter}');
    await waitFor(() => expect(listQueries(fetchMock).at(-1)?.get('q')).toBe('salary'));

    await user.click(screen.getByRole('button', { name: 'Reset filters' }));
    expect((screen.getByRole('searchbox', { name: 'Search descriptions' }) as HTMLInputElement).value).toBe('');
    expect((screen.getByRole('combobox', { name: 'Category' }) as HTMLSelectElement).value).toBe('');
    // The first page without filters is in the cache already; nothing new needs asking.
    await waitFor(() => expect(cellsOf(screen.getByRole('table', { name: 'Recent transactions' }))).toHaveLength(allLines.length));
  });

  it('loads the next page with the cursor of the last one and adds it below', async () => {
    const user = userEvent.setup();
    const older = line({ id: 't9:out', description: 'Older bill', createdAt: '2026-02-01T12:00:00.000Z' });
    const { fetchMock } = renderApp(
      '/transaction-history',
      historyApi([], {
        // The request being answered is the last one the fake has seen.
        'GET /api/v1/transactions': () => (listQueries(fetchMock).at(-1)?.get('cursor') === 'cursor-2' ? page([older]) : page([rentOut, salaryIn], 'cursor-2')),
      }),
    );
    const table = await historyTable();
    expect(cellsOf(table)).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(cellsOf(screen.getByRole('table', { name: 'Recent transactions' }))).toHaveLength(3));
    expect(cellsOf(screen.getByRole('table', { name: 'Recent transactions' })).at(-1)?.[2]).toBe('Older bill');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(listQueries(fetchMock).at(-1)?.get('cursor')).toBe('cursor-2');
  });

  it('shows a list instead of a table on a screen narrower than 600 px', async () => {
    vi.stubGlobal('matchMedia', narrowMatchMedia);
    renderApp('/transaction-history', historyApi([rentOut, cashOut]));
    const list = await screen.findByRole('region', { name: 'Recent transactions' });
    expect(screen.queryByRole('table')).toBeNull();
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(['Rent for March-$1,234.00In review2026-03-14Transfer', 'Cash-$200.00Returned2026-03-08Withdrawal']);
    expect(within(items[0] as HTMLElement).getByText('-$1,234.00').className).toContain('money-out');
  });

  it('says so when there are no transactions yet', async () => {
    renderApp('/transaction-history', historyApi([]));
    expect(await screen.findByRole('heading', { name: 'No transactions yet' })).toBeTruthy();
  });

  it('says so when nothing matches the filters, and offers to reset them', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp('/transaction-history', {
      ...historyApi(),
      'GET /api/v1/transactions': () => page(listQueries(fetchMock).at(-1)?.get('category') === 'Funding' ? [] : allLines),
    });
    await historyTable();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Category' }), 'Funding');
    const empty = await screen.findByRole('heading', { name: 'No transactions match these filters' });
    await user.click(within(empty.parentElement as HTMLElement).getByRole('button', { name: 'Reset filters' }));
    expect(await historyTable()).toBeTruthy();
  });

  it('shows the server’s message in the error dialog when the history cannot be loaded', async () => {
    const user = userEvent.setup();
    renderApp(
      '/transaction-history',
      historyApi([], { 'GET /api/v1/transactions': { status: 404, body: { error: { code: 'not_found', message: 'No such account' } } } }),
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Your transactions could not be loaded' });
    expect(within(dialog).getByText('No such account')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'We could not load your transactions' })).toBeTruthy();
    const [, closeButton] = within(dialog).getAllByRole('button', { name: 'Close' });
    await user.click(closeButton as HTMLElement);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});

describe('the way in', () => {
  it('is where the dashboard’s “See all” next to recent transactions leads', async () => {
    const user = userEvent.setup();
    window.localStorage.setItem(welcomeStorageKey(signedIn.body.user.id), '2026-01-01T00:00:00.000Z');
    const summary = {
      month: '2026-03',
      moneyInCents: 0,
      moneyOutCents: 0,
      spendingByCategory: [],
      cardCount: 0,
      loanCount: 0,
      recentTransactions: [rentOut],
      interestEarnedCents: 0,
      interestEarnedYearCents: 0,
      feesPaidCents: 0,
      feesPaidYearCents: 0,
    };
    renderApp('/dashboard', historyApi(allLines, { 'GET /api/v1/dashboard': { status: 200, body: summary } }));
    await user.click(await screen.findByRole('link', { name: 'See all transactions' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'History' })).toBeTruthy();
    expect(window.location.pathname).toBe('/transaction-history');
    window.localStorage.clear();
  });
});

describe('print statement', () => {
  it('prints after the 500 ms delay under the title “Visitor Pass”, then gives the page its title back', async () => {
    renderApp('/transaction-history', historyApi());
    await historyTable();
    await waitFor(() => expect(document.title).toBe('History | Strongroom Demo Bank'));
    const titlesWhenPrinted: string[] = [];
    const print = vi.spyOn(window, 'print').mockImplementation(() => titlesWhenPrinted.push(document.title));
    vi.useFakeTimers();

    fireEvent.click(screen.getByRole('button', { name: 'print statement' }));
    vi.advanceTimersByTime(499);
    expect(print).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(print).toHaveBeenCalledTimes(1);
    expect(titlesWhenPrinted).toEqual([printDocumentTitle]);
    expect(printDocumentTitle).toBe('Visitor Pass');
    expect(document.title).toBe('History | Strongroom Demo Bank');
  });

  it('prints once however often the button is pressed during the delay', async () => {
    renderApp('/transaction-history', historyApi());
    await historyTable();
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    vi.useFakeTimers();
    const button = screen.getByRole('button', { name: 'print statement' });
    fireEvent.click(button);
    fireEvent.click(button);
    vi.advanceTimersByTime(1_000);
    expect(print).toHaveBeenCalledTimes(1);
  });
});
