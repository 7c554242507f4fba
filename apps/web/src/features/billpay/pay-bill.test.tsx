import { screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { checking, created, paymentOf, sentRequestOf, stepUpRequired, type SentRequest } from '../../test/payment-fixtures.ts';
import { renderApp, validationFailed } from '../../test/render-app.tsx';
import { billPayApi, cityPower, homePower } from './test-fixtures.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const billPayment = paymentOf({
  kind: 'bill',
  status: 'pending',
  amountCents: 4_250,
  counterparty: { name: cityPower.name, accountNumber: null, bankName: null, routeNumber: null, country: null },
  message: 'INV-2026-03',
  expectedSettlementAt: '2026-03-06T12:00:00.000Z',
});

async function openPayForm(user: UserEvent) {
  await user.click(await screen.findByRole('link', { name: 'Pay Home electricity' }));
  return screen.findByRole('form', { name: 'Pay Home electricity' });
}

describe('paying a bill now', { timeout: 20_000 }, () => {
  it('reviews the payment, asks for a code the first time, and says when it arrives', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: SentRequest[] = [];
    renderApp(
      '/billpay/electricity',
      billPayApi([homePower], {
        'POST /api/v1/transfers': (init) => {
          const request = sentRequestOf(init);
          sent.push(request);
          return request.stepUp === 'ch-9' ? created(billPayment) : stepUpRequired('ch-9');
        },
        'POST /api/v1/step-up/ch-9': { status: 200, body: { verified: true } },
      }),
    );
    const form = await openPayForm(user);
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Pay Home electricity' }));
    expect(within(form).getByRole<HTMLSelectElement>('combobox', { name: /^From account/ }).value).toBe(checking.id);
    await user.type(within(form).getByRole('textbox', { name: /^Amount/ }), '42.50');
    await user.type(within(form).getByRole('textbox', { name: /^Memo/ }), 'INV-2026-03');
    await user.click(within(form).getByRole('button', { name: 'Continue' }));

    const review = await screen.findByRole('dialog', { name: 'Confirm the bill payment' });
    expect(within(review).getByText('City Power & Light, account ending 4821')).toBeTruthy();
    expect(within(review).getByText('$42.50')).toBeTruthy();
    expect(within(review).getByText(/arrives by the next business day/)).toBeTruthy();
    expect(sent).toHaveLength(0);
    await user.click(within(review).getByRole('button', { name: 'Confirm' }));

    const code = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.click(within(code).getByRole('textbox', { name: 'Digit 1 of 6' }));
    await user.keyboard('123456');

    const result = await screen.findByRole('dialog', { name: 'Your payment of $42.50 to City Power & Light is on its way: it arrives by Mar 6, 2026' });
    expect(within(result).getByText('Pending')).toBeTruthy();
    expect(sent.map((request) => request.stepUp)).toEqual([null, 'ch-9']);
    expect(sent[1]?.idempotencyKey).toBe(sent[0]?.idempotencyKey);
    expect(sent[0]?.body).toEqual({ kind: 'bill', fromAccountId: checking.id, billPayeeId: homePower.id, amountCents: 4_250, message: 'INV-2026-03' });
  });

  it('checks the amount in the browser and shows the server’s field message', async () => {
    const user = userEvent.setup({ delay: null });
    const transfers = vi.fn(() => validationFailed({ amountCents: 'this amount is over your daily limit of $5,000.00' }));
    renderApp('/billpay/electricity', billPayApi([homePower], { 'POST /api/v1/transfers': transfers }));
    const form = await openPayForm(user);
    const amount = within(form).getByRole('textbox', { name: /^Amount/ });
    await user.type(amount, '12.345');
    await user.click(within(form).getByRole('button', { name: 'Continue' }));
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.clear(amount);
    await user.type(amount, '50000');
    await user.click(within(form).getByRole('button', { name: 'Continue' }));
    expect(await within(form).findByText(/^Insufficient funds: Easy Checking has \$4,250\.00 available/)).toBeTruthy();

    await user.clear(amount);
    await user.type(amount, '20');
    await user.click(within(form).getByRole('button', { name: 'Continue' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirm the bill payment' })).getByRole('button', { name: 'Confirm' }));
    expect(await within(form).findByText('this amount is over your daily limit of $5,000.00')).toBeTruthy();
    expect(transfers).toHaveBeenCalledTimes(1);
  });

  it('links to scheduling or repeating the payment to this payee', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp('/billpay/electricity', billPayApi([homePower]));
    await openPayForm(user);
    expect(screen.getByRole('link', { name: 'Schedule or repeat this payment' }).getAttribute('href')).toBe(
      `/payments/scheduled/new?kind=bill&billPayeeId=${homePower.id}`,
    );
    expect(screen.getAllByRole('link', { name: 'Electricity' }).map((link) => link.getAttribute('href'))).toContain('/billpay/electricity');
  });

  it('says so when the payee in the address is not the customer’s any more', async () => {
    renderApp(`/billpay/electricity?pay=${homePower.id}`, billPayApi([]));
    expect(await screen.findByText(/This payee is not among your Electricity payees any more/)).toBeTruthy();
    expect(screen.queryByRole('form')).toBeNull();
  });
});
