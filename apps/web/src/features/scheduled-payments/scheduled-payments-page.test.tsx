import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { jsonBodyOf, renderApp } from '../../test/render-app.tsx';
import { apiError } from '../../test/payment-fixtures.ts';
import { scheduleApi, scheduleOf, upcomingOf } from './test-fixtures.ts';

beforeAll(() => import('./scheduled-payments-page.tsx'));

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const schedule = scheduleOf();

describe('/payments/scheduled', { timeout: 20_000 }, () => {
  it('lists the next 90 days’ payments, with the moved date, the arrival and a retry, and the schedules with a link to each', async () => {
    renderApp(
      '/payments/scheduled',
      scheduleApi({
        'GET /api/v1/scheduled-payments/upcoming': {
          status: 200,
          body: { items: [upcomingOf(), upcomingOf({ date: '2026-03-16', dueDate: '2026-03-16', arrivesBy: '2026-03-17', retry: true, changeable: false })] },
        },
        'GET /api/v1/scheduled-payments': { status: 200, body: { items: [schedule] } },
      }),
    );
    const upcoming = await screen.findByRole('region', { name: 'Upcoming (next 90 days)' });
    const rows = await within(upcoming).findAllByRole('listitem');
    expect(rows).toHaveLength(2);
    const [first, second] = rows;
    if (!first || !second) throw new Error('two rows expected');
    expect(within(first).getByText('Fri 13 Mar 2026')).toBeTruthy();
    expect(within(first).getByText('arrives by Mon 16 Mar; due Sat 14 Mar, paid Fri 13 Mar (the business day before)')).toBeTruthy();
    expect(within(first).getByText('$45.00')).toBeTruthy();
    expect(within(first).getByRole('button', { name: 'Skip the payment of $45.00 on Fri 13 Mar 2026' })).toBeTruthy();
    expect(within(second).getByText('Retry')).toBeTruthy();
    expect(within(second).queryByRole('button', { name: /Skip/ })).toBeNull();

    const schedules = screen.getByRole('region', { name: 'Your schedules' });
    const link = await within(schedules).findByRole('link', { name: schedule.description });
    expect(link.getAttribute('href')).toBe(`/payments/scheduled/${schedule.id}`);
    expect(within(schedules).getByText('Every month on day 14, from Sat 14 Mar 2026, until you cancel')).toBeTruthy();
  });

  it('skips one payment only after the customer confirms', async () => {
    const user = userEvent.setup({ delay: null });
    const skipped: unknown[] = [];
    renderApp(
      '/payments/scheduled',
      scheduleApi({
        'GET /api/v1/scheduled-payments/upcoming': { status: 200, body: { items: [upcomingOf()] } },
        'GET /api/v1/scheduled-payments': { status: 200, body: { items: [schedule] } },
        [`POST /api/v1/scheduled-payments/${schedule.id}/skip`]: (init) => {
          skipped.push(jsonBodyOf(init));
          return { status: 200, body: { schedule } };
        },
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Skip the payment of $45.00 on Fri 13 Mar 2026' }));
    const dialog = await screen.findByRole('dialog', { name: 'Skip this payment?' });
    expect(within(dialog).getByText(/will not be paid\. The schedule goes on/)).toBeTruthy();
    expect(skipped).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Skip the payment on Fri 13 Mar 2026' }));
    expect(await screen.findByText('The payment on Fri 13 Mar 2026 is skipped.')).toBeTruthy();
    expect(skipped).toEqual([{ date: '2026-03-13' }]);
  });

  it('says in words why a payment could not be skipped', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp(
      '/payments/scheduled',
      scheduleApi({
        'GET /api/v1/scheduled-payments/upcoming': { status: 200, body: { items: [upcomingOf()] } },
        'GET /api/v1/scheduled-payments': { status: 200, body: { items: [schedule] } },
        [`POST /api/v1/scheduled-payments/${schedule.id}/skip`]: apiError(409, 'past_cutoff', 'past_cutoff'),
      }),
    );
    await user.click(await screen.findByRole('button', { name: /^Skip the payment/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Skip this payment?' });
    await user.click(within(dialog).getByRole('button', { name: /^Skip the payment on/ }));
    expect(await within(dialog).findByText(/Today’s cut-off has passed for this payment/)).toBeTruthy();
  });

  it('says there are no scheduled payments, and offers to schedule one', async () => {
    renderApp(
      '/payments/scheduled',
      scheduleApi({
        'GET /api/v1/scheduled-payments/upcoming': { status: 200, body: { items: [] } },
        'GET /api/v1/scheduled-payments': { status: 200, body: { items: [] } },
      }),
    );
    expect(await screen.findByRole('heading', { name: 'No scheduled payments' })).toBeTruthy();
    expect(await screen.findByText('You have no schedules yet.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Schedule a payment' }).getAttribute('href')).toBe('/payments/scheduled/new');
  });

  it('says when the lists cannot be loaded, with a way to try again', async () => {
    renderApp(
      '/payments/scheduled',
      scheduleApi({
        'GET /api/v1/scheduled-payments/upcoming': apiError(500, 'internal_error', 'The bank is having trouble'),
        'GET /api/v1/scheduled-payments': apiError(500, 'internal_error', 'The bank is having trouble'),
      }),
    );
    expect(await screen.findByRole('heading', { name: 'We could not load your upcoming payments' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'We could not load your schedules' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Try again' })).toHaveLength(2);
  });

  it('is reached from the menu and from the transfer page', async () => {
    renderApp('/transfer', scheduleApi());
    expect((await screen.findByRole('link', { name: /Schedule or repeat a transfer/ })).getAttribute('href')).toBe('/payments/scheduled/new');
    expect(screen.getAllByRole('link', { name: 'Scheduled payments' })[0]?.getAttribute('href')).toBe('/payments/scheduled');
  });
});
