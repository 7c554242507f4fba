import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp } from '../../test/render-app.tsx';
import { apiError, checking, sentRequestOf, type SentRequest } from '../../test/payment-fixtures.ts';
import { cityWater, detailOf, scheduleApi, scheduleOf } from './test-fixtures.ts';

beforeAll(() => import('./schedule-detail-page.tsx'));

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const schedule = scheduleOf({
  startDate: '2026-01-14',
  next: ['2026-03-13', '2026-04-14'],
  upcoming: [
    { date: '2026-03-09', dueDate: '2026-03-09', arrivesBy: '2026-03-10', changeable: false },
    { date: '2026-03-13', dueDate: '2026-03-14', arrivesBy: '2026-03-16', changeable: true },
    { date: '2026-04-14', dueDate: '2026-04-14', arrivesBy: '2026-04-15', changeable: true },
  ],
});
const detail = detailOf(schedule, [
  { date: '2026-01-14', status: 'paid', transferId: 'f0e1d2c3-b4a5-4968-8776-655443322110' },
  { date: '2026-02-13', status: 'failed', reason: 'Not enough money, twice: this payment was not made.' },
  { date: '2026-03-09', status: 'scheduled' },
  { date: '2026-03-13', status: 'scheduled' },
  { date: '2026-04-14', status: 'scheduled' },
]);
const path = `/payments/scheduled/${schedule.id}`;
const detailRoute = `GET /api/v1/scheduled-payments/${schedule.id}`;
const scheduleRoute = `/api/v1/scheduled-payments/${schedule.id}`;

describe('/payments/scheduled/:id', { timeout: 20_000 }, () => {
  it('shows each payment’s status in words, why a failed one was not paid, and Skip only while one can be changed', async () => {
    renderApp(path, scheduleApi({ [detailRoute]: { status: 200, body: detail } }));
    expect(await screen.findByRole('heading', { level: 1, name: schedule.description })).toBeTruthy();
    const payments = screen.getByRole('region', { name: 'Payments' });
    const rows = within(payments).getAllByRole('listitem');
    expect(rows).toHaveLength(5);
    const [paid, failed, onItsWay, moved] = rows;
    if (!paid || !failed || !onItsWay || !moved) throw new Error('rows expected');
    expect(within(paid).getByText('Paid')).toBeTruthy();
    expect(within(paid).getByRole('link', { name: 'See it in your history' })).toBeTruthy();
    expect(within(failed).getByText('Failed')).toBeTruthy();
    expect(within(failed).getByText('Not enough money, twice: this payment was not made.')).toBeTruthy();
    expect(within(onItsWay).queryByRole('button', { name: /Skip/ })).toBeNull();
    expect(within(moved).getByText('due Sat 14 Mar, paid Fri 13 Mar (the business day before)')).toBeTruthy();
    expect(within(moved).getByRole('button', { name: 'Skip the payment of $45.00 on Fri 13 Mar 2026' })).toBeTruthy();
  });

  it('cancels the series only after a confirmation saying which payments stop and that one past the cut-off still goes', async () => {
    const user = userEvent.setup({ delay: null });
    let deletes = 0;
    renderApp(
      path,
      scheduleApi({
        [detailRoute]: { status: 200, body: detail },
        [`DELETE ${scheduleRoute}`]: () => {
          deletes += 1;
          return { status: 204 };
        },
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Cancel the series' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this schedule?' });
    expect(within(dialog).getByText('These payments are cancelled: Fri 13 Mar 2026, Tue 14 Apr 2026, and every one after them.')).toBeTruthy();
    expect(within(dialog).getByText('Past today’s cut-off, Mon 9 Mar 2026 is already on its way and still goes.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Keep the schedule' }));
    expect(deletes).toBe(0);

    await user.click(screen.getByRole('button', { name: 'Cancel the series' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Cancel this schedule?' })).getByRole('button', { name: 'Cancel the payments' }));
    expect(await screen.findByText('The schedule is cancelled.')).toBeTruthy();
    expect(deletes).toBe(1);
  });

  it.each([
    ['schedule_ended', 'This schedule has ended: there is nothing left to change.'],
    ['past_cutoff', 'Today’s cut-off has passed for this payment: it is already on its way and can no longer be changed.'],
  ])('says in words why the series could not be cancelled (%s)', async (code, words) => {
    const user = userEvent.setup({ delay: null });
    renderApp(path, scheduleApi({ [detailRoute]: { status: 200, body: detail }, [`DELETE ${scheduleRoute}`]: apiError(409, code, code) }));
    await user.click(await screen.findByRole('button', { name: 'Cancel the series' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this schedule?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the payments' }));
    expect(await within(dialog).findByText(words)).toBeTruthy();
  });

  it('says in words that a date is not one of the schedule’s payments', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp(path, scheduleApi({ [detailRoute]: { status: 200, body: detail }, [`POST ${scheduleRoute}/skip`]: apiError(422, 'not_an_occurrence', 'x') }));
    await user.click(await screen.findByRole('button', { name: 'Skip the payment of $45.00 on Fri 13 Mar 2026' }));
    const dialog = await screen.findByRole('dialog', { name: 'Skip this payment?' });
    await user.click(within(dialog).getByRole('button', { name: 'Skip the payment on Fri 13 Mar 2026' }));
    expect(await within(dialog).findByText(/That date is not one of this schedule’s payments/)).toBeTruthy();
  });

  it('edits the schedule in the same form, filled in, and sends it with PUT', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: SentRequest[] = [];
    renderApp(
      path,
      scheduleApi({
        [detailRoute]: { status: 200, body: detail },
        [`PUT ${scheduleRoute}`]: (init) => {
          sent.push(sentRequestOf(init));
          return { status: 200, body: { schedule: scheduleOf({ payment: { ...schedule.payment, amountCents: 5_000 } }) } };
        },
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const amount = await screen.findByRole('textbox', { name: /^Amount/ });
    expect(amount).toHaveProperty('value', '45.00');
    expect(screen.getByRole('combobox', { name: /^Bill payee/ })).toHaveProperty('value', cityWater.id);
    expect(screen.getByRole('radio', { name: 'Until I cancel' })).toHaveProperty('checked', true);
    await user.clear(amount);
    await user.type(amount, '50');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirm the scheduled payment' })).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('heading', { name: 'Schedule changed' })).toBeTruthy();
    expect(sent[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[0]?.body).toEqual({
      payment: { kind: 'bill', fromAccountId: checking.id, amountCents: 5_000, message: '', billPayeeId: cityWater.id },
      startDate: '2026-03-14',
      frequency: 'monthly',
      dayOfMonth: 14,
    });
  });

  it('answers another customer’s schedule, or a missing one, with "not found"', async () => {
    renderApp(path, scheduleApi({ [detailRoute]: apiError(404, 'not_found', 'Not found') }));
    expect(await screen.findByRole('heading', { name: 'We could not find this schedule' })).toBeTruthy();
  });
});
