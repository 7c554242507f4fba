import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rolePermissions } from '@strongroom/contracts/staff.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { renderApp, validationFailed } from '../../../test/render-app.tsx';
import { staffMe } from '../disputes/test-fixtures.ts';
import { balanceSheet, booksDays, incomeStatement, ok, trialBalance } from './test-fixtures.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const asked = (fetchMock: ReturnType<typeof renderApp>['fetchMock'], path: string) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith(`/api/v1${path}`));

describe('/ops/books, the reports', () => {
  it('opens on the last closed day: its trial balance with totals, that it balances, the closed-days status and the CSV and PDF links', async () => {
    const { fetchMock } = renderApp('/ops/books', {
      'GET /api/v1/staff/me': staffMe('finance'),
      'GET /api/v1/staff/books/days': ok(booksDays()),
      'GET /api/v1/staff/reports/trial-balance': ok(trialBalance()),
    });
    expect(await screen.findByText('Books closed through Nov 27, 2026; open day Nov 28, 2026')).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Trial balance as of Nov 27, 2026' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]?.textContent).toBe('1010Settlement account: ACH (Federal Reserve)$10,000.00$0.00');
    expect(rows.at(-1)?.textContent).toBe('Totals$10,000.00$10,000.00');
    expect(screen.getByText('Balanced')).toBeTruthy();
    expect(screen.getByText(/Debits equal credits: \$10,000\.00 on each side/)).toBeTruthy();
    expect(screen.getByText(/Closed day: these figures are final/)).toBeTruthy();
    expect(screen.queryByText(/Provisional/)).toBeNull();
    expect((screen.getByLabelText('As of') as HTMLInputElement).value).toBe('2026-11-27');
    expect(asked(fetchMock, '/staff/reports/trial-balance')).toEqual(['/api/v1/staff/reports/trial-balance?asOf=2026-11-27']);
    expect(screen.getByRole('link', { name: 'Download the trial balance as CSV' }).getAttribute('href')).toBe(
      '/api/v1/staff/reports/trial-balance?asOf=2026-11-27&format=csv',
    );
    expect(screen.getByRole('link', { name: 'Download the trial balance as PDF' }).getAttribute('href')).toBe(
      '/api/v1/staff/reports/trial-balance?asOf=2026-11-27&format=pdf',
    );
  });

  it('moves to the balance sheet with the arrow key: its sections and totals, balanced, and customer deposits tied to customer accounts', async () => {
    const user = userEvent.setup();
    renderApp('/ops/books', {
      'GET /api/v1/staff/me': staffMe('finance'),
      'GET /api/v1/staff/books/days': ok(booksDays()),
      'GET /api/v1/staff/reports/trial-balance': ok(trialBalance()),
      'GET /api/v1/staff/reports/balance-sheet': ok(balanceSheet()),
    });
    await screen.findByRole('table', { name: 'Trial balance as of Nov 27, 2026' });
    await user.click(screen.getByRole('tab', { name: 'Trial balance' }));
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Balance sheet' }).getAttribute('aria-selected')).toBe('true');
    const table = await screen.findByRole('table', { name: 'Balance sheet as of Nov 27, 2026' });
    const text = within(table)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(text).toEqual([
      'AccountNameBalance',
      'Assets',
      '1010Settlement account: ACH (Federal Reserve)$10,000.00',
      'Total assets$10,000.00',
      'Liabilities',
      '2111Customer deposits: Everyday Checking$9,950.00',
      'Total liabilities$9,950.00',
      'Equity',
      '3000Capital$0.00',
      '3200Net income, current year$50.00',
      'Total equity$50.00',
      'Total liabilities and equity$10,000.00',
    ]);
    expect(screen.getByText(/Assets \(\$10,000\.00\) equal liabilities plus equity/)).toBeTruthy();
    expect(screen.getByText('Customer deposits tie to customer accounts: $9,950.00 on the balance sheet, $9,950.00 in customer accounts.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download the balance sheet as CSV' }).getAttribute('href')).toBe(
      '/api/v1/staff/reports/balance-sheet?asOf=2026-11-27&format=csv',
    );
  });

  it('says so plainly, in words, when a balance sheet does not balance or its deposits do not tie', async () => {
    const user = userEvent.setup();
    renderApp('/ops/books', {
      'GET /api/v1/staff/me': staffMe('finance'),
      'GET /api/v1/staff/books/days': ok(booksDays()),
      'GET /api/v1/staff/reports/trial-balance': ok(trialBalance()),
      'GET /api/v1/staff/reports/balance-sheet': ok(
        balanceSheet({ balanced: false, customerDeposits: { balanceSheetCents: 995_000, customerAccountsCents: 995_001, tied: false } }),
      ),
    });
    await user.click(await screen.findByRole('tab', { name: 'Balance sheet' }));
    expect(await screen.findByText(/differ from liabilities plus equity/)).toBeTruthy();
    expect(screen.getAllByText('Not balanced')).toHaveLength(2);
    expect(
      screen.getByText(/Customer deposits do not tie to customer accounts: \$9,950\.00 on the balance sheet, \$9,950\.01 in customer accounts/),
    ).toBeTruthy();
  });

  it('marks an open day provisional, and with nothing closed yet opens on the open day', async () => {
    const { fetchMock } = renderApp('/ops/books', {
      'GET /api/v1/staff/me': staffMe('admin'),
      'GET /api/v1/staff/books/days': ok(booksDays({ closedThrough: null, openDay: '2026-11-28', days: [] })),
      'GET /api/v1/staff/reports/trial-balance': ok(trialBalance({ asOf: '2026-11-28', closed: false })),
    });
    expect(await screen.findByText('No day is closed yet; open day Nov 28, 2026')).toBeTruthy();
    expect(await screen.findByText('Provisional: this day is still open.')).toBeTruthy();
    expect(asked(fetchMock, '/staff/reports/trial-balance')).toEqual(['/api/v1/staff/reports/trial-balance?asOf=2026-11-28']);
  });

  it('asks for the day typed, and shows the server’s refusal of a day after the bank’s date at the As of field', async () => {
    const { fetchMock } = renderApp('/ops/books', {
      'GET /api/v1/staff/me': staffMe('finance'),
      'GET /api/v1/staff/books/days': ok(booksDays()),
      'GET /api/v1/staff/reports/trial-balance': () => {
        const last = String(fetchMock.mock.calls.at(-1)?.[0]);
        return last.includes('2026-12-31') ? validationFailed({ asOf: 'choose a day on or before the bank’s date, Nov 28, 2026' }) : ok(trialBalance());
      },
    });
    await screen.findByRole('table', { name: 'Trial balance as of Nov 27, 2026' });
    fireEvent.change(screen.getByLabelText('As of'), { target: { value: '2026-12-31' } });
    expect(await screen.findByText('choose a day on or before the bank’s date, Nov 28, 2026')).toBeTruthy();
    expect(screen.getByLabelText('As of').getAttribute('aria-invalid')).toBe('true');
    expect(asked(fetchMock, '/staff/reports/trial-balance').at(-1)).toBe('/api/v1/staff/reports/trial-balance?asOf=2026-12-31');
  });

  it('shows the income statement of the month so far, net income, and refuses a range that ends before it starts without asking', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp('/ops/books', {
      'GET /api/v1/staff/me': staffMe('finance'),
      'GET /api/v1/staff/books/days': ok(booksDays()),
      'GET /api/v1/staff/reports/trial-balance': ok(trialBalance()),
      'GET /api/v1/staff/reports/income-statement': ok(incomeStatement()),
    });
    await user.click(await screen.findByRole('tab', { name: 'Income statement' }));
    const table = await screen.findByRole('table', { name: 'Income statement, Nov 1, 2026 to Nov 27, 2026' });
    expect(within(table).getAllByRole('row').at(-1)?.textContent).toBe('Net income$50.00');
    expect(asked(fetchMock, '/staff/reports/income-statement')).toEqual(['/api/v1/staff/reports/income-statement?from=2026-11-01&to=2026-11-27']);
    expect(screen.getByRole('link', { name: 'Download the income statement as PDF' }).getAttribute('href')).toBe(
      '/api/v1/staff/reports/income-statement?from=2026-11-01&to=2026-11-27&format=pdf',
    );
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-28' } });
    expect(await screen.findByText('choose a first day on or before the last day')).toBeTruthy();
    expect(asked(fetchMock, '/staff/reports/income-statement')).toHaveLength(1);
  });

  it('says when the closed days or a report could not be loaded', async () => {
    const failure = { status: 500, body: { error: { code: 'internal_error', message: 'Something went wrong on our side' } } };
    renderApp('/ops/books', { 'GET /api/v1/staff/me': staffMe('finance'), 'GET /api/v1/staff/books/days': failure });
    expect(await screen.findByText('The closed days could not be loaded')).toBeTruthy();
    cleanup();
    queryClient.clear();
    renderApp('/ops/books', {
      'GET /api/v1/staff/me': staffMe('finance'),
      'GET /api/v1/staff/books/days': ok(booksDays()),
      'GET /api/v1/staff/reports/trial-balance': failure,
    });
    expect(await screen.findByText('The trial balance could not be loaded')).toBeTruthy();
    expect(screen.getByText('Something went wrong on our side')).toBeTruthy();
  });

  it('is in the navigation of finance and admin, with the adjusting entries and the reconciliation; support and operations opening it ask nothing', async () => {
    for (const role of ['finance', 'admin'] as const) {
      renderApp('/ops', { 'GET /api/v1/staff/me': staffMe(role) });
      const navigation = await screen.findByRole('navigation', { name: 'Back office' });
      expect(within(navigation).getByRole('link', { name: 'Books' }).getAttribute('href')).toBe('/ops/books');
      expect(within(navigation).getByRole('link', { name: 'Adjusting entries' }).getAttribute('href')).toBe('/ops/books/adjustments');
      expect(within(navigation).getByRole('link', { name: 'Reconciliation' }).getAttribute('href')).toBe('/ops/reconciliation');
      cleanup();
      queryClient.clear();
    }
    for (const role of ['support', 'operations'] as const) {
      expect(rolePermissions[role]).not.toContain('books.read');
      const { fetchMock } = renderApp('/ops/books', { 'GET /api/v1/staff/me': staffMe(role) });
      const navigation = await screen.findByRole('navigation', { name: 'Back office' });
      for (const name of ['Books', 'Adjusting entries', 'Reconciliation']) expect(within(navigation).queryByRole('link', { name })).toBeNull();
      expect(await screen.findByText(`Your role (${role}) cannot use this page: ask an administrator if you need it.`)).toBeTruthy();
      expect(fetchMock.mock.calls.some(([url]) => /\/staff\/(books|reports)/.test(String(url)))).toBe(false);
      cleanup();
      queryClient.clear();
    }
  });
});
