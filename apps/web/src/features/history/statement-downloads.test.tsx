import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp } from '../../test/render-app.tsx';
import { daysInPeriod, monthPeriod, recentMonths } from './statement-period.ts';
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

  it('offers this month first and the 23 before it by name', () => {
    const months = recentMonths(new Date(2026, 0, 20));
    expect(months).toHaveLength(24);
    expect(months.slice(0, 2)).toEqual([
      { value: '2026-01', label: 'January 2026' },
      { value: '2025-12', label: 'December 2025' },
    ]);
    expect(months.at(-1)).toEqual({ value: '2024-02', label: 'February 2024' });
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
    renderApp('/transaction-history', historyApi());
    const section = await statements();
    await user.selectOptions(within(section).getByRole('combobox', { name: 'Statement account' }), accounts[1].id);
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

describe('statements from an account', () => {
  it('preselects the account named in the address, as the dashboard account card links to it', async () => {
    renderApp(`/transaction-history?account=${accounts[1].id}`, historyApi());
    const section = await statements();
    expect((within(section).getByRole('combobox', { name: 'Statement account' }) as HTMLSelectElement).value).toBe(accounts[1].id);
    expect(downloads(section).CSV).toContain(`/api/v1/accounts/${accounts[1].id}/statement?`);
  });
});
