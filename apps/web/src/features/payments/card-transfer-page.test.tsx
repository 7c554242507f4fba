import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, signedIn } from '../../test/render-app.tsx';
import { alanElsewhere, checking, created, paymentOf, sentRequestOf, type SentRequest } from '../../test/payment-fixtures.ts';

// The screen is a lazy chunk; loaded once here, no test spends its wait on the import.
beforeAll(() => import('./card-transfer-page.tsx'));

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

// Whole journeys through the app: generous time when the machine is busy running every suite at once.
describe('/send-card', { timeout: 20_000 }, () => {
  it('names the card type, fills the holder from a favourite, confirms the details and sends the card digits only', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: SentRequest[] = [];
    renderApp('/send-card', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/accounts': { status: 200, body: [checking] },
      'GET /api/v1/beneficiaries': { status: 200, body: { items: [alanElsewhere] } },
      'POST /api/v1/transfers': (init) => {
        sent.push(sentRequestOf(init));
        return created(paymentOf({ kind: 'card', amountCents: 4_000 }));
      },
    });
    await user.selectOptions(await screen.findByRole('combobox', { name: /^Favorites/ }), alanElsewhere.id);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Holder name' }).value).toBe('Alan Turing');

    const cardNumber = screen.getByRole('textbox', { name: /^Card number/ });
    await user.type(cardNumber, '4111 1111 1111 1112');
    await user.type(screen.getByRole('textbox', { name: /^Amount/ }), '40');
    await user.type(screen.getByRole('textbox', { name: /^Message/ }), 'Birthday');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(validationMessages.cardNumberInvalid)).toBeTruthy();

    await user.clear(cardNumber);
    await user.type(cardNumber, '4111 1111 1111 1111');
    expect(screen.getByText('Card type: Visa')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const confirm = await screen.findByRole('dialog', { name: 'Confirm the details' });
    expect(within(confirm).getByText('Visa •••• 1111')).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByRole('dialog', { name: '$40.00 transferred successfully' })).toBeTruthy();
    expect(sent[0]?.body).toEqual({
      kind: 'card',
      fromAccountId: checking.id,
      amountCents: 4_000,
      message: 'Birthday',
      cardNumber: '4111111111111111',
      accountName: 'Alan Turing',
    });
  });

  it('says insufficient funds before the confirmation when the amount is above what the account has available', async () => {
    const user = userEvent.setup({ delay: null });
    const transfers = vi.fn(() => created(paymentOf({ kind: 'card' })));
    renderApp('/send-card', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/accounts': { status: 200, body: [checking] },
      'GET /api/v1/beneficiaries': { status: 200, body: { items: [] } },
      'POST /api/v1/transfers': transfers,
    });
    await user.type(await screen.findByRole('textbox', { name: 'Holder name' }), 'Alan Turing');
    await user.type(screen.getByRole('textbox', { name: /^Card number/ }), '4111 1111 1111 1111');
    await user.type(screen.getByRole('textbox', { name: /^Amount/ }), '5000');
    await user.type(screen.getByRole('textbox', { name: /^Message/ }), 'Birthday');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(/^Insufficient funds: Easy Checking has \$4,250\.00 available/)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(transfers).not.toHaveBeenCalled();
  });
});
