import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MonthlyStatement } from '@strongroom/contracts/monthly-statements.ts';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, type FakeAnswer } from '../../test/render-app.tsx';
import { accounts, historyApi, narrowMatchMedia } from './test-fixtures.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const november: MonthlyStatement = {
  id: '5a7e0000-0000-4000-8000-000000000011',
  periodStart: '2026-11-01',
  periodEnd: '2026-11-30',
  openingBalanceCents: 50_050,
  closingBalanceCents: 64_478,
  interestCents: 123,
  feesCents: 695,
  apyEarnedBps: 264,
  feeNote: 'Monthly maintenance fee of $6.95 charged.',
};
const october: MonthlyStatement = {
  ...november,
  id: '5a7e0000-0000-4000-8000-000000000010',
  periodStart: '2026-10-01',
  periodEnd: '2026-10-31',
  closingBalanceCents: 50_050,
  interestCents: 50,
  feesCents: 0,
  apyEarnedBps: 5,
  feeNote: 'Monthly maintenance fee of $6.95 waived: the balance stayed at or above $1,500.00 every day.',
};

function statementsOf(answers: Record<string, FakeAnswer>) {
  return Object.fromEntries(Object.entries(answers).map(([accountId, answer]) => [`GET /api/v1/accounts/${accountId}/statements`, answer]));
}

async function section(): Promise<HTMLElement> {
  return screen.findByRole('region', { name: 'Monthly statements' });
}

describe('History: monthly statements', () => {
  it('lists each month newest first with its figures and PDF, CSV and OFX downloads by cookie, no token in the address', async () => {
    renderApp('/transaction-history', historyApi(undefined, statementsOf({ [accounts[0].id]: { status: 200, body: { items: [november, october] } } })));
    const region = await section();
    const months = await within(region).findAllByRole('heading', { level: 3 });
    expect(months.map((heading) => heading.textContent)).toEqual(['November 2026', 'October 2026']);
    const first = within(region)
      .getAllByRole('listitem')
      .find((item) => item.getAttribute('aria-labelledby')?.endsWith(november.id)) as HTMLElement;
    expect(within(first).getByText('2026-11-01 to 2026-11-30')).toBeTruthy();
    expect(
      within(first)
        .getAllByRole('term')
        .map((term) => term.textContent),
    ).toEqual(['Closing balance', 'Interest earned', 'Fees', 'APY earned']);
    expect(
      within(first)
        .getAllByRole('definition')
        .map((value) => value.textContent),
    ).toEqual(['$644.78', '$1.23', '$6.95', '2.64%']);
    // What happened to the monthly fee, and which waiver a month met.
    expect(within(first).getByText('Monthly maintenance fee of $6.95 charged.')).toBeTruthy();
    expect(within(region).getByText(/waived: the balance stayed at or above \$1,500.00 every day/)).toBeTruthy();
    const base = `/api/v1/accounts/${accounts[0].id}/statements/${november.id}`;
    for (const format of ['PDF', 'CSV', 'OFX']) {
      const link = within(first).getByRole('link', { name: `Download the November 2026 statement as ${format}` });
      expect(link.getAttribute('href')).toBe(`${base}?format=${format.toLowerCase()}`);
      expect(link.hasAttribute('download')).toBe(true);
    }
  });

  it('says when an account has no statement yet, and follows the account chosen from the keyboard', async () => {
    const user = userEvent.setup();
    renderApp(
      '/transaction-history',
      historyApi(
        undefined,
        statementsOf({ [accounts[0].id]: { status: 200, body: { items: [november] } }, [accounts[1].id]: { status: 200, body: { items: [] } } }),
      ),
    );
    const region = await section();
    await within(region).findByRole('heading', { name: 'November 2026' });
    const picker = within(region).getByRole('combobox', { name: 'Monthly statements of' });
    picker.focus();
    await user.selectOptions(picker, accounts[1].id);
    expect(await within(region).findByText('No monthly statements yet: the first arrives after the end of this month.')).toBeTruthy();
    expect(within(region).queryByRole('link')).toBeNull();
  });

  it('shows loading, then the error with a way to try again', async () => {
    const user = userEvent.setup();
    let calls = 0;
    const { fetchMock } = renderApp(
      '/transaction-history',
      historyApi(undefined, {
        [`GET /api/v1/accounts/${accounts[0].id}/statements`]: () => {
          calls += 1;
          return calls === 1
            ? { status: 429, body: { error: { code: 'rate_limited', message: 'Too many requests: try again in a minute' } } }
            : { status: 200, body: { items: [october] } };
        },
      }),
    );
    // The first answer waits until the loading line has been seen.
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const answer = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input).endsWith('/statements') && calls === 0) await gate;
      return answer!(input, init);
    });
    const region = await section();
    expect(await within(region).findByText('Loading your monthly statements…')).toBeTruthy();
    release();
    expect(await within(region).findByRole('heading', { name: 'We could not load your monthly statements' })).toBeTruthy();
    expect(within(region).getByText('Too many requests: try again in a minute')).toBeTruthy();
    await user.click(within(region).getByRole('button', { name: 'Try again' }));
    expect(await within(region).findByRole('heading', { name: 'October 2026' })).toBeTruthy();
  });

  it('opens on the account a "Your statement is ready" notification names, scrolled to the statements', async () => {
    // jsdom has no layout: the link's anchor is scrolled to through this (app/scroll-reset.tsx).
    const scrollIntoView = vi.fn();
    Element.prototype.scrollIntoView = scrollIntoView;
    renderApp(
      `/transaction-history?statementAccount=${accounts[1].id}#monthly-statements-title`,
      historyApi(
        undefined,
        statementsOf({ [accounts[0].id]: { status: 200, body: { items: [] } }, [accounts[1].id]: { status: 200, body: { items: [october] } } }),
      ),
    );
    const region = await section();
    expect(await within(region).findByRole('heading', { name: 'October 2026' })).toBeTruthy();
    expect((within(region).getByRole('combobox', { name: 'Monthly statements of' }) as HTMLSelectElement).value).toBe(accounts[1].id);
    expect(within(region).getByRole('link', { name: 'Download the October 2026 statement as CSV' }).getAttribute('href')).toBe(
      `/api/v1/accounts/${accounts[1].id}/statements/${october.id}?format=csv`,
    );
    await vi.waitFor(() => expect(scrollIntoView.mock.contexts).toContain(document.getElementById('monthly-statements-title')));
  });

  it('reads the same on a 390 px screen: the months stay a list, not a table', async () => {
    vi.stubGlobal('matchMedia', narrowMatchMedia);
    renderApp('/transaction-history', historyApi(undefined, statementsOf({ [accounts[0].id]: { status: 200, body: { items: [november] } } })));
    const region = await section();
    await within(region).findByRole('heading', { name: 'November 2026' });
    expect(within(region).queryByRole('table')).toBeNull();
    expect(within(region).getByRole('link', { name: 'Download the November 2026 statement as PDF' })).toBeTruthy();
  });
});
