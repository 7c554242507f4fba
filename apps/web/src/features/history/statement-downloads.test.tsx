import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp } from '../../test/render-app.tsx';
import { daysInPeriod, monthChoices, monthPeriod } from './statement-period.ts';
import { accounts, historyApi } from './test-fixtures.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  queryClient.clear();
});

/** Each format's download address, or null while its button is unavailable. */
function downloads(section: HTMLElement): Record<string, string | null> {
  return Object.fromEntries(
    ['PDF', 'CSV', 'OFX'].map((format) => {
      const link = within(section).queryByRole('link', { name: `Download ${format}` });
      if (link) return [format, link.hasAttribute('download') ? link.getAttribute('href') : 'not a download'];
      expect((within(section).getByRole('button', { name: `Download ${format}` }) as HTMLButtonElement).disabled).toBe(true);
      return [format, null];
    }),
  );
}

async function statements(): Promise<HTMLElement> {
  const section = await screen.findByRole('region', { name: 'Statements' });
  await within(section).findByRole('combobox', { name: 'Statement account' });
  return section;
}

describe('statement periods', () => {
  it('covers a whole past month, and this month up to today', () => {
    const today = new Date(2026, 2, 14);
    expect(monthPeriod('2026-02', today)).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(monthPeriod('2024-02', today)).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(monthPeriod('2026-03', today)).toEqual({ from: '2026-03-01', to: '2026-03-14' });
  });

  it('counts both ends of a period, across a leap day and a change of clocks', () => {
    expect(daysInPeriod({ from: '2026-03-01', to: '2026-03-01' })).toBe(1);
    expect(daysInPeriod({ from: '2024-01-01', to: '2024-12-31' })).toBe(366);
    expect(daysInPeriod({ from: '2026-03-01', to: '2026-03-31' })).toBe(31);
  });

  it('names each month the server offers, in its order', () => {
    expect(monthChoices(['2026-01', '2025-12'])).toEqual([
      { value: '2026-01', label: 'January 2026' },
      { value: '2025-12', label: 'December 2025' },
    ]);
  });
});

describe('statement downloads', () => {
  it('links the first account’s statement for this month in PDF, CSV and OFX', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 2, 14, 10, 0));
    renderApp('/transaction-history', historyApi());
    const section = await statements();
    expect((within(section).getByRole('combobox', { name: 'Period' }) as HTMLSelectElement).value).toBe('2026-03');
    const base = `/api/v1/accounts/${accounts[0].id}/statement?from=2026-03-01&to=2026-03-14`;
    expect(downloads(section)).toEqual({ PDF: `${base}&format=pdf`, CSV: `${base}&format=csv`, OFX: `${base}&format=ofx` });
  });

  it('follows the account and the month chosen', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 2, 14, 10, 0));
    const user = userEvent.setup();
    renderApp('/transaction-history', historyApi(undefined, monthsApi({ [accounts[1].id]: ['2026-03', '2026-02', '2026-01'] })));
    const section = await statements();
    await user.selectOptions(within(section).getByRole('combobox', { name: 'Statement account' }), accounts[1].id);
    await within(section).findByRole('option', { name: 'January 2026' });
    await user.selectOptions(within(section).getByRole('combobox', { name: 'Period' }), '2026-01');
    expect(downloads(section).CSV).toBe(`/api/v1/accounts/${accounts[1].id}/statement?from=2026-01-01&to=2026-01-31&format=csv`);
  });

  it('takes a date range, and offers no download until both dates are there and in order', async () => {
    const user = userEvent.setup();
    renderApp('/transaction-history', historyApi());
    const section = await statements();
    await user.selectOptions(within(section).getByRole('combobox', { name: 'Period' }), 'dates');
    expect(within(section).getByText('Choose both dates to download a statement.')).toBeTruthy();
    expect(downloads(section)).toEqual({ PDF: null, CSV: null, OFX: null });

    fireEvent.change(within(section).getByLabelText('Statement from'), { target: { value: '2025-07-01' } });
    fireEvent.change(within(section).getByLabelText('Statement to'), { target: { value: '2025-06-30' } });
    expect(within(section).getByText('The end date must be on or after the start date.')).toBeTruthy();
    expect(downloads(section).PDF).toBeNull();

    fireEvent.change(within(section).getByLabelText('Statement to'), { target: { value: '2026-07-02' } });
    expect(within(section).getByText('A statement covers at most 366 days; choose a shorter period.')).toBeTruthy();
    expect(downloads(section).CSV).toBeNull();

    fireEvent.change(within(section).getByLabelText('Statement to'), { target: { value: '2025-12-31' } });
    expect(downloads(section).OFX).toBe(`/api/v1/accounts/${accounts[0].id}/statement?from=2025-07-01&to=2025-12-31&format=ofx`);
  });
});

/** The statement months the server offers for each account. */
function monthsApi(monthsByAccount: Record<string, readonly string[]>) {
  return Object.fromEntries(
    Object.entries(monthsByAccount).map(([accountId, months]) => [`GET /api/v1/accounts/${accountId}/statement/months`, { status: 200, body: { months } }]),
  );
}

function periodNames(section: HTMLElement): string[] {
  return within(within(section).getByRole('combobox', { name: 'Period' }))
    .getAllByRole('option')
    .map((option) => option.textContent ?? '');
}

describe('statement months', () => {
  it('starts the picker at the month the account opened, and follows the account chosen', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 2, 14, 10, 0));
    const user = userEvent.setup();
    renderApp(
      '/transaction-history',
      historyApi(undefined, monthsApi({ [accounts[0].id]: ['2026-03', '2026-02'], [accounts[1].id]: ['2026-03', '2026-02', '2026-01', '2025-12'] })),
    );
    const section = await statements();
    await within(section).findByRole('option', { name: 'February 2026' });
    expect(periodNames(section)).toEqual(['March 2026', 'February 2026', 'Choose dates…']);

    await user.selectOptions(within(section).getByRole('combobox', { name: 'Statement account' }), accounts[1].id);
    await within(section).findByRole('option', { name: 'December 2025' });
    expect(periodNames(section)).toEqual(['March 2026', 'February 2026', 'January 2026', 'December 2025', 'Choose dates…']);
    await user.selectOptions(within(section).getByRole('combobox', { name: 'Period' }), '2025-12');
    expect(downloads(section).CSV).toBe(`/api/v1/accounts/${accounts[1].id}/statement?from=2025-12-01&to=2025-12-31&format=csv`);

    // Back on an account that did not exist in December, the picker goes back to its newest month.
    await user.selectOptions(within(section).getByRole('combobox', { name: 'Statement account' }), accounts[0].id);
    await within(section).findByRole('option', { name: 'February 2026' });
    expect(periodNames(section)).toEqual(['March 2026', 'February 2026', 'Choose dates…']);
    expect(downloads(section).CSV).toBe(`/api/v1/accounts/${accounts[0].id}/statement?from=2026-03-01&to=2026-03-14&format=csv`);
  });

  it('offers only this month, and dates, while the months cannot be read: never a month before the account', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 2, 14, 10, 0));
    renderApp('/transaction-history', historyApi());
    const section = await statements();
    expect(periodNames(section)).toEqual(['March 2026', 'Choose dates…']);
  });
});

describe('statements from an account', () => {
  it('preselects the account named in the address, as the dashboard account card links to it', async () => {
    renderApp(`/transaction-history?account=${accounts[1].id}`, historyApi());
    const section = await statements();
    expect((within(section).getByRole('combobox', { name: 'Statement account' }) as HTMLSelectElement).value).toBe(accounts[1].id);
    expect(downloads(section).CSV).toContain(`/api/v1/accounts/${accounts[1].id}/statement?`);
  });
});
