import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { scheduleMessages } from '@strongroom/contracts/scheduled-payments.ts';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, validationFailed } from '../../test/render-app.tsx';
import { checking, savings, sentRequestOf, stepUpRequired, type SentRequest } from '../../test/payment-fixtures.ts';
import { cityWater, scheduleApi, scheduleOf, today } from './test-fixtures.ts';
import { scheduleFormMessages } from './schedule-form-schema.ts';

beforeAll(() => import('./schedule-payment-page.tsx'));

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

async function setDate(user: UserEvent, name: RegExp | string, value: string) {
  const input = await screen.findByLabelText(name);
  await user.clear(input);
  if (value) await user.type(input, value);
}

/** A monthly bill of $45.00 on the 14th, from Saturday 14 March, until cancelled. */
async function fillMonthlyBill(user: UserEvent) {
  await user.click(await screen.findByRole('radio', { name: 'A bill' }));
  await user.selectOptions(screen.getByRole('combobox', { name: /^Bill payee/ }), cityWater.id);
  await user.type(screen.getByRole('textbox', { name: /^Amount/ }), '45');
  await user.click(screen.getByRole('radio', { name: 'Repeating' }));
  await setDate(user, /^First payment date/, '2026-03-14');
  await user.selectOptions(screen.getByRole('combobox', { name: /^Day of the month/ }), '14');
  await user.click(screen.getByRole('radio', { name: 'Until I cancel' }));
}

describe('/payments/scheduled/new', { timeout: 20_000 }, () => {
  it('asks who is paid, when the payments end, and refuses a bad amount, each under its field', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp('/payments/scheduled/new', scheduleApi());
    await user.click(await screen.findByRole('radio', { name: 'Repeating' }));
    await user.type(screen.getByRole('textbox', { name: /^Amount/ }), '12.345');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(scheduleFormMessages.chooseKind)).toBeTruthy();
    expect(screen.getByText(scheduleFormMessages.chooseEnd)).toBeTruthy();
    expect(screen.getByText(validationMessages.amountFractionalCent)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('refuses an end date before the first payment, a date in the past and one more than a year ahead', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp('/payments/scheduled/new?kind=own', scheduleApi());
    await user.selectOptions(await screen.findByRole('combobox', { name: /^To account/ }), savings.id);
    await user.type(screen.getByRole('textbox', { name: /^Amount/ }), '10');
    await user.click(screen.getByRole('radio', { name: 'Repeating' }));
    await setDate(user, /^First payment date/, '2026-04-01');
    await user.click(screen.getByRole('radio', { name: 'On a date' }));
    await setDate(user, /^Last payment date/, '2026-03-20');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(scheduleMessages.endBeforeStart)).toBeTruthy();

    await setDate(user, /^First payment date/, '2026-03-02');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(scheduleMessages.startInPast)).toBeTruthy();

    await setDate(user, /^First payment date/, '2027-03-11');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(scheduleMessages.tooFarAhead)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('after today’s cut-off, says so and dates a payment the next business day at the earliest', async () => {
    const user = userEvent.setup({ delay: null });
    const afterCutoff = { ...today, pastCutoff: true, earliestPaymentDate: '2026-03-10' };
    renderApp('/payments/scheduled/new?kind=own', scheduleApi({ 'GET /api/v1/calendar/today': { status: 200, body: afterCutoff } }));
    expect(await screen.findByText(/Today’s cut-off has passed: the earliest date is Tue 10 Mar 2026\./)).toBeTruthy();
    expect(screen.getByLabelText(/^Payment date/)).toHaveProperty('value', '2026-03-10');
    await setDate(user, /^Payment date/, '2026-03-09');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('A payment made now can be dated Tue 10 Mar 2026 at the earliest')).toBeTruthy();
  });

  it('refuses a number of payments that is not 1 to 520', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp(`/payments/scheduled/new?kind=bill&billPayeeId=${cityWater.id}`, scheduleApi());
    await user.type(await screen.findByRole('textbox', { name: /^Amount/ }), '45');
    await user.click(screen.getByRole('radio', { name: 'Repeating' }));
    await user.click(screen.getByRole('radio', { name: 'After a number of payments' }));
    await user.type(screen.getByRole('textbox', { name: /^Number of payments/ }), '0');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(scheduleFormMessages.count)).toBeTruthy();
  });

  it('checks a person’s fields with the transfer form’s own rules', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp('/payments/scheduled/new?kind=external', scheduleApi());
    expect(await screen.findByRole('radio', { name: 'Another bank' })).toHaveProperty('checked', true);
    await user.type(screen.getByRole('textbox', { name: /^Amount/ }), '20');
    await user.type(screen.getByRole('textbox', { name: /^Message/ }), 'Rent');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const routing = screen.getByRole('textbox', { name: /^Routing number/ });
    // The form validates asynchronously after the click: wait for the field to be marked, not one tick.
    await waitFor(() => expect(routing.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('schedules a weekly payment to a person at this bank with the transfer form’s fields, for a number of payments', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: SentRequest[] = [];
    renderApp(
      '/payments/scheduled/new?kind=internal',
      scheduleApi({
        'POST /api/v1/scheduled-payments': (init) => {
          sent.push(sentRequestOf(init));
          return {
            status: 201,
            body: {
              schedule: scheduleOf({
                frequency: 'weekly',
                dayOfMonth: null,
                count: 4,
                payment: { kind: 'internal', fromAccountId: checking.id, amountCents: 2_000, message: 'Lunch' },
              }),
            },
          };
        },
      }),
    );
    expect(await screen.findByRole('radio', { name: /^This bank/ })).toHaveProperty('checked', true);
    await user.type(screen.getByRole('textbox', { name: /^Account number/ }), '6111222333');
    await user.type(screen.getByRole('textbox', { name: /^Holder name/ }), 'Grace Hopper');
    await user.type(screen.getByRole('textbox', { name: /^Amount/ }), '20');
    await user.type(screen.getByRole('textbox', { name: /^Message/ }), 'Lunch');
    await user.click(screen.getByRole('radio', { name: 'Repeating' }));
    await user.selectOptions(screen.getByRole('combobox', { name: /^Repeats/ }), 'weekly');
    await user.click(screen.getByRole('radio', { name: 'After a number of payments' }));
    await user.type(screen.getByRole('textbox', { name: /^Number of payments/ }), '4');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const review = await screen.findByRole('dialog', { name: 'Confirm the scheduled payment' });
    expect(within(review).getByText('Every week, from Mon 9 Mar 2026, 4 payments')).toBeTruthy();
    await user.click(within(review).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('heading', { name: 'Payment scheduled' })).toBeTruthy();
    expect(sent[0]?.body).toEqual({
      payment: {
        kind: 'internal',
        fromAccountId: checking.id,
        amountCents: 2_000,
        message: 'Lunch',
        toAccountNumber: '6111222333',
        accountName: 'Grace Hopper',
        addToFavorites: false,
      },
      startDate: '2026-03-09',
      frequency: 'weekly',
      count: 4,
    });
  });

  it('previews the next dates and says when one moves off a weekend, with the cut-off and the arrival', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp('/payments/scheduled/new', scheduleApi());
    await fillMonthlyBill(user);
    const preview = await screen.findByRole('region', { name: 'Next payments' });
    expect(await within(preview).findByText('due Sat 14 Mar, paid Fri 13 Mar (the business day before)')).toBeTruthy();
    expect(within(preview).getByText('Fri 13 Mar 2026')).toBeTruthy();
    expect(within(preview).getByText('arrives by Mon 16 Mar')).toBeTruthy();
    expect(within(preview).getByText('Tue 14 Apr 2026')).toBeTruthy();
    expect(screen.getByText(/Payments made after 5:00 PM ET go the next business day\./)).toBeTruthy();
  });

  it('explains a 31st in a shorter month', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp('/payments/scheduled/new?kind=own', scheduleApi());
    await user.click(await screen.findByRole('radio', { name: 'Repeating' }));
    await setDate(user, /^First payment date/, '2026-03-31');
    await user.selectOptions(screen.getByRole('combobox', { name: /^Day of the month/ }), '31');
    const preview = await screen.findByRole('region', { name: 'Next payments' });
    expect(await within(preview).findByText('Apr has no 31st: due on its last day, Thu 30 Apr')).toBeTruthy();
  });

  it('reviews the schedule, asks for the code, sends it again with the same Idempotency-Key, then lists the next dates', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: SentRequest[] = [];
    renderApp(
      '/payments/scheduled/new',
      scheduleApi({
        'POST /api/v1/scheduled-payments': (init) => {
          const request = sentRequestOf(init);
          sent.push(request);
          return request.stepUp === 'ch-9' ? { status: 201, body: { schedule: scheduleOf() } } : stepUpRequired('ch-9');
        },
        'POST /api/v1/step-up/ch-9': { status: 200, body: { verified: true } },
      }),
    );
    await fillMonthlyBill(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const review = await screen.findByRole('dialog', { name: 'Confirm the scheduled payment' });
    expect(within(review).getByText('Every month on day 14, from Sat 14 Mar 2026, until you cancel')).toBeTruthy();
    expect(within(review).getByText('Home water (City Water, account ending 4821)')).toBeTruthy();
    expect(within(review).getByText('due Sat 14 Mar, paid Fri 13 Mar (the business day before)')).toBeTruthy();
    await user.click(within(review).getByRole('button', { name: 'Confirm' }));

    const code = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.click(within(code).getByRole('textbox', { name: 'Digit 1 of 6' }));
    await user.keyboard('123456');

    expect(await screen.findByRole('heading', { name: 'Payment scheduled' })).toBeTruthy();
    expect(screen.getByText('due Sat 14 Mar, paid Fri 13 Mar (the business day before)')).toBeTruthy();
    expect(screen.getByText('Thu 14 May 2026')).toBeTruthy();
    expect(sent).toHaveLength(2);
    expect(sent[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]?.idempotencyKey).toBe(sent[0]?.idempotencyKey);
    expect(sent[1]?.stepUp).toBe('ch-9');
    expect(sent[0]?.body).toEqual({
      payment: { kind: 'bill', fromAccountId: checking.id, amountCents: 4_500, message: '', billPayeeId: cityWater.id },
      startDate: '2026-03-14',
      frequency: 'monthly',
      dayOfMonth: 14,
    });
  });

  it('puts the server’s field message under its field', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp('/payments/scheduled/new', scheduleApi({ 'POST /api/v1/scheduled-payments': validationFailed({ startDate: 'the bank is closed for a year' }) }));
    await fillMonthlyBill(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirm the scheduled payment' })).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('the bank is closed for a year')).toBeTruthy();
  });

  it('says when the bank’s calendar cannot be loaded', async () => {
    renderApp(
      '/payments/scheduled/new',
      scheduleApi({ 'GET /api/v1/calendar/today': { status: 500, body: { error: { code: 'internal_error', message: 'down' } } } }),
    );
    expect(await screen.findByRole('heading', { name: 'We could not load the bank’s calendar' })).toBeTruthy();
  });
});
