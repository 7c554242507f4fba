import { screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { noAccountMessages, validationMessages } from '@strongroom/contracts/messages.ts';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, signedIn, type FakeApi } from '../../test/render-app.tsx';
import { apiError, checking, created, paymentOf, savings, sentRequestOf, type SentRequest } from '../../test/payment-fixtures.ts';

// The screen is a lazy chunk; loaded once here, no test spends its wait on the import.
beforeAll(() => import('./transfer-page.tsx'));

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

function api(extra: FakeApi = {}): FakeApi {
  return { 'GET /api/v1/me': signedIn, 'GET /api/v1/accounts': { status: 200, body: [checking, savings] }, ...extra };
}

async function fillOwnTransfer(user: UserEvent, amount: string) {
  await user.selectOptions(await screen.findByRole('combobox', { name: 'To account' }), savings.id);
  await user.type(screen.getByRole('textbox', { name: /^Amount/ }), amount);
  await user.type(screen.getByRole('textbox', { name: /^Message/ }), 'Saving up');
}

// Whole journeys through the app: generous time when the machine is busy running every suite at once.
describe('/transfer', { timeout: 20_000 }, () => {
  it('asks first where the money goes, and /send-account is the same screen', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp('/send-account', api());
    await user.click(await screen.findByRole('link', { name: /Transfer within my accounts/ }));
    const ownHeading = await screen.findByRole('heading', { level: 1, name: 'Transfer within my accounts' });
    // The chosen link is gone: focus is on the heading of the new step, not lost to the document.
    expect(document.activeElement).toBe(ownHeading);
    expect(screen.getByRole('combobox', { name: 'From account' })).toBeTruthy();
    await user.click(screen.getByRole('link', { name: 'Choose another kind of transfer' }));
    expect(screen.getByRole('link', { name: /Transfer to other bank/ })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Transfer' }));
  });

  it('tells a customer whose identity is being checked that their accounts open once it is, and shows no form', async () => {
    const waiting = { status: 200, body: { ...signedIn.body, user: { ...signedIn.body.user, identityStatus: 'submitted', accountVerified: false } } };
    renderApp('/transfer?to=other', { 'GET /api/v1/me': waiting, 'GET /api/v1/accounts': { status: 200, body: [] } });
    expect(await screen.findByText(noAccountMessages.identityPending)).toBeTruthy();
    expect(screen.queryByText(/customer care/i)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
  });

  it.each([
    ['', validationMessages.required],
    ['ten dollars', validationMessages.amountTypedInvalid],
    ['0.00', validationMessages.amountNotPositive],
    ['12.345', validationMessages.amountFractionalCent],
    ['1,000,000.01', validationMessages.amountTooLarge],
  ])('refuses the amount %j with %j', async (amount, message) => {
    const user = userEvent.setup({ delay: null });
    renderApp('/transfer?to=own', api());
    await user.type(await screen.findByRole('textbox', { name: /^Message/ }), 'Saving up');
    if (amount) await user.type(screen.getByRole('textbox', { name: /^Amount/ }), amount);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const amountBox = screen.getByRole('textbox', { name: /^Amount/ });
    expect(await screen.findByText(message)).toBeTruthy();
    expect(amountBox.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sends exact cents after the confirmation, shows the seed’s success words, clears the form and refreshes balances', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: SentRequest[] = [];
    const { fetchMock } = renderApp(
      '/transfer?to=own',
      api({
        'POST /api/v1/transfers': (init) => {
          sent.push(sentRequestOf(init));
          return created(paymentOf({ kind: 'own', amountCents: 100_050, toAccountId: savings.id }));
        },
      }),
    );
    await fillOwnTransfer(user, '1,000.50');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const confirm = await screen.findByRole('dialog', { name: 'Confirm the transfer' });
    expect(within(confirm).getByText('$1,000.50')).toBeTruthy();
    const accountReads = fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/api/v1/accounts')).length;
    await user.click(within(confirm).getByRole('button', { name: 'Confirm' }));

    const result = await screen.findByRole('dialog', { name: '$1,000.50 transferred successfully' });
    expect(within(result).getByText('Completed')).toBeTruthy();
    expect(sent[0]?.body).toEqual({ kind: 'own', fromAccountId: checking.id, amountCents: 100_050, message: 'Saving up', toAccountId: savings.id });
    expect(sent[0]?.idempotencyKey).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: /^Amount/ }).value).toBe('');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: /^Message/ }).value).toBe('');
    await vi.waitFor(() => expect(fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/api/v1/accounts')).length).toBeGreaterThan(accountReads));
  });

  it('tells the customer a held payment is in review, that staff check it and that nothing is asked of them', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp('/transfer?to=own', api({ 'POST /api/v1/transfers': created(paymentOf({ kind: 'own', status: 'in_review', amountCents: 400_000 })) }));
    await fillOwnTransfer(user, '4000');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirm the transfer' })).getByRole('button', { name: 'Confirm' }));

    const result = await screen.findByRole('dialog', { name: 'We are reviewing your payment of $4,000.00' });
    expect(within(result).getByText('In review')).toBeTruthy();
    expect(within(result).getByText(/short check by our staff/)).toBeTruthy();
    expect(within(result).getByText(/You do not need to do anything/)).toBeTruthy();
    expect(within(result).getByText(/We will never ask you for a tax, COT, IMF, TAC, NRC or BSA code/)).toBeTruthy();
  });

  it('says insufficient funds under the amount before Confirm when the available balance already shows it, and sends nothing', async () => {
    const user = userEvent.setup({ delay: null });
    const transfers = vi.fn(() => apiError(500, 'internal_error', 'not expected'));
    renderApp('/transfer?to=own', api({ 'POST /api/v1/transfers': transfers }));
    await fillOwnTransfer(user, '4250.01');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(
      await screen.findByText('Insufficient funds: Easy Checking has $4,250.00 available. Enter a smaller amount or choose another account.'),
    ).toBeTruthy();
    expect(screen.getByRole('textbox', { name: /^Amount/ }).getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(transfers).not.toHaveBeenCalled();
  });

  it('lets the message of a transfer between my accounts be left empty, marked optional, and sends it empty', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: SentRequest[] = [];
    renderApp(
      '/transfer?to=own',
      api({
        'POST /api/v1/transfers': (init) => {
          sent.push(sentRequestOf(init));
          return created(paymentOf({ kind: 'own', amountCents: 1_000, toAccountId: savings.id }));
        },
      }),
    );
    await user.selectOptions(await screen.findByRole('combobox', { name: 'To account' }), savings.id);
    await user.type(screen.getByRole('textbox', { name: /^Amount/ }), '10');
    const message = screen.getByRole<HTMLInputElement>('textbox', { name: /^Message/ });
    expect(message.required).toBe(false);
    expect(screen.getByText('(optional)')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirm the transfer' })).getByRole('button', { name: 'Confirm' }));
    await screen.findByRole('dialog', { name: '$10.00 transferred successfully' });
    expect(sent[0]?.body).toEqual({ kind: 'own', fromAccountId: checking.id, amountCents: 1_000, message: '', toAccountId: savings.id });
  });

  it('shows the server’s message in a modal when the money is not there, and keeps what was typed', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp(
      '/transfer?to=own',
      api({ 'POST /api/v1/transfers': apiError(422, 'insufficient_funds', 'Your available balance is not enough for this payment.') }),
    );
    // The balance the form knows allows it; the server knows it has moved since.
    await fillOwnTransfer(user, '4000');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirm the transfer' })).getByRole('button', { name: 'Confirm' }));

    const error = await screen.findByRole('alertdialog', { name: 'The transfer was not sent' });
    expect(within(error).getByText('Your available balance is not enough for this payment.')).toBeTruthy();
    await user.click(within(error).getByText('Close'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: /^Amount/ }).value).toBe('4000');
  });

  it('uses the same Idempotency-Key when a transfer whose outcome is unknown is sent again, and a new one once the form changes', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: SentRequest[] = [];
    renderApp(
      '/transfer?to=own',
      api({
        'POST /api/v1/transfers': (init) => {
          sent.push(sentRequestOf(init));
          return apiError(503, 'service_unavailable', 'The bank is busy; try again in a moment.');
        },
      }),
    );
    await fillOwnTransfer(user, '10');
    for (const _attempt of [1, 2]) {
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      await user.click(within(await screen.findByRole('dialog', { name: 'Confirm the transfer' })).getByRole('button', { name: 'Confirm' }));
      await user.click(within(await screen.findByRole('alertdialog')).getByText('Close'));
    }
    await user.type(screen.getByRole('textbox', { name: /^Amount/ }), '0');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirm the transfer' })).getByRole('button', { name: 'Confirm' }));
    await screen.findByRole('alertdialog');

    expect(sent).toHaveLength(3);
    expect(sent[1]?.idempotencyKey).toBe(sent[0]?.idempotencyKey);
    expect(sent[2]?.idempotencyKey).not.toBe(sent[0]?.idempotencyKey);
  });
});
