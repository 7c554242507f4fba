import { screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { queryClient } from '../../lib/query-client.ts';
import { jsonBodyOf, renderApp, signedIn, type FakeApi } from '../../test/render-app.tsx';
import { alanElsewhere, checking, created, graceAtThisBank, paymentOf, savings, sentRequestOf, type SentRequest } from '../../test/payment-fixtures.ts';

// The screen is a lazy chunk; loaded once here, no test spends its wait on the import.
beforeAll(() => import('./transfer-page.tsx'));

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

function api(extra: FakeApi = {}): FakeApi {
  return {
    'GET /api/v1/me': signedIn,
    'GET /api/v1/accounts': { status: 200, body: [checking, savings] },
    'GET /api/v1/beneficiaries': { status: 200, body: { items: [graceAtThisBank, alanElsewhere] } },
    ...extra,
  };
}

function textbox(name: string | RegExp): HTMLInputElement {
  return screen.getByRole<HTMLInputElement>('textbox', { name });
}

async function fillAmountAndMessage(user: UserEvent) {
  await user.type(textbox(/^Amount/), '25');
  await user.type(textbox(/^Message/), 'Rent');
}

async function confirmDialog() {
  return screen.findByRole('dialog', { name: 'Confirm the transfer' });
}

// Whole journeys through the app: generous time when the machine is busy running every suite at once.
describe('/transfer to other bank', { timeout: 20_000 }, () => {
  it('fills holder name, routing number, country and account type from a favourite, and empties them when it is cleared', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp('/transfer?to=other', api());
    await user.click(await screen.findByRole('switch', { name: 'Favorite list' }));
    const favourite = await screen.findByRole('combobox', { name: 'Favorite' });

    await user.selectOptions(favourite, graceAtThisBank.id);
    expect(textbox('Holder name').value).toBe('Grace Hopper');
    expect(textbox('Routing number').value).toBe('123456780');
    expect(textbox('Country').value).toBe('United States');
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Account type' }).value).toBe('savings');

    await user.selectOptions(favourite, alanElsewhere.id);
    expect(textbox('Holder name').value).toBe('Alan Turing');
    expect(textbox('Country').value).toBe('United Kingdom');
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Account type' }).value).toBe('');

    await user.selectOptions(favourite, '');
    expect(textbox('Holder name').value).toBe('');
    expect(screen.queryByRole('textbox', { name: 'Country' })).toBeNull();
  });

  it('pays a favourite at another bank as an external transfer once the required account type is chosen', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: SentRequest[] = [];
    renderApp(
      '/transfer?to=other',
      api({
        'POST /api/v1/transfers': (init) => {
          sent.push(sentRequestOf(init));
          return created(paymentOf({ status: 'pending', expectedSettlementAt: '2026-03-10T15:00:00.000Z' }));
        },
      }),
    );
    await user.click(await screen.findByRole('switch', { name: 'Favorite list' }));
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Favorite' }), alanElsewhere.id);
    await fillAmountAndMessage(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(validationMessages.required)).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Account type' }).getAttribute('aria-invalid')).toBe('true');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Account type' }), 'checking');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(within(await confirmDialog()).getByRole('button', { name: 'Confirm' }));

    const result = await screen.findByRole('dialog', { name: 'Your payment of $25.00 is on its way: it settles by Mar 10, 2026' });
    expect(within(result).getByText('Pending')).toBeTruthy();
    expect(within(result).getByText(/expected by Mar 10, 2026/)).toBeTruthy();
    expect(sent[0]?.body).toEqual({
      kind: 'external',
      fromAccountId: checking.id,
      amountCents: 2_500,
      message: 'Rent',
      toAccountNumber: alanElsewhere.accountNumber,
      accountName: 'Alan Turing',
      routeNumber: alanElsewhere.routeNumber,
      nameOfBank: alanElsewhere.bankName,
      nameOfCountry: alanElsewhere.nameOfCountry,
      addToFavorites: false,
    });
  });

  it('shows the details for confirmation; Modify goes back with everything kept, and Confirm sends them', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: SentRequest[] = [];
    renderApp(
      '/transfer?to=other',
      api({
        'POST /api/v1/transfers': (init) => {
          sent.push(sentRequestOf(init));
          return created(paymentOf());
        },
      }),
    );
    await user.type(await screen.findByRole('textbox', { name: 'Account number' }), '99887766');
    await user.type(textbox('Holder name'), 'Alan Turing');
    await user.type(textbox('Bank name'), 'Bletchley Savings');
    const country = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Country name' });
    expect(within(country).queryByRole('option', { name: 'Narnia' })).toBeNull();
    await user.selectOptions(country, 'United Kingdom');
    await user.type(textbox(/^Routing number/), 'DEUTDEFF');
    await user.tab();
    expect(await screen.findByText(validationMessages.routeNumberIsSwift)).toBeTruthy();
    await user.clear(textbox(/^Routing number/));
    await user.type(textbox(/^Routing number/), '021000021');
    await fillAmountAndMessage(user);
    await user.click(screen.getByRole('checkbox', { name: 'Add to favorites' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    const confirm = await confirmDialog();
    expect(within(confirm).getByText('Bletchley Savings')).toBeTruthy();
    expect(within(confirm).getByText('021000021')).toBeTruthy();
    expect(within(confirm).getByText('$25.00')).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Modify' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(textbox('Bank name').value).toBe('Bletchley Savings');
    expect(textbox(/^Amount/).value).toBe('25');
    expect(sent).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(within(await confirmDialog()).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('dialog', { name: '$25.00 transferred successfully' })).toBeTruthy();
    expect(sent[0]?.body).toMatchObject({ kind: 'external', nameOfBank: 'Bletchley Savings', addToFavorites: true });
    expect(textbox('Bank name').value).toBe('');
  });

  it('checks the name of a payee at this bank, and a close match can be taken over in one click', async () => {
    const user = userEvent.setup({ delay: null });
    const checks: unknown[] = [];
    const sent: SentRequest[] = [];
    renderApp(
      '/transfer?to=other',
      api({
        'POST /api/v1/transfers/payee-check': (init) => {
          const body = jsonBodyOf(init);
          checks.push(body);
          const exact = typeof body === 'object' && body !== null && 'accountName' in body && body.accountName === 'Grace Hopper';
          return { status: 200, body: exact ? { result: 'match' } : { result: 'close_match', accountName: 'Grace Hopper' } };
        },
        'POST /api/v1/transfers': (init) => {
          sent.push(sentRequestOf(init));
          return created(paymentOf({ kind: 'internal' }));
        },
      }),
    );
    await user.click(await screen.findByRole('radio', { name: 'This bank (Strongroom Demo Bank)' }));
    expect(screen.queryByRole('textbox', { name: 'Bank name' })).toBeNull();
    await user.type(textbox('Account number'), '6111222333');
    await user.type(textbox('Holder name'), 'Grace Hoper');
    await fillAmountAndMessage(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    const confirm = await confirmDialog();
    expect(await within(confirm).findByText('Grace Hopper', { selector: 'strong' })).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Use this name' }));
    expect(await within(confirm).findByText('The name matches the account.')).toBeTruthy();
    expect(textbox('Holder name').value).toBe('Grace Hopper');
    expect(checks).toEqual([
      { accountNumber: '6111222333', accountName: 'Grace Hoper' },
      { accountNumber: '6111222333', accountName: 'Grace Hopper' },
    ]);

    await user.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('dialog', { name: '$25.00 transferred successfully' })).toBeTruthy();
    expect(sent[0]?.body).toEqual({
      kind: 'internal',
      fromAccountId: checking.id,
      amountCents: 2_500,
      message: 'Rent',
      toAccountNumber: '6111222333',
      accountName: 'Grace Hopper',
      addToFavorites: false,
    });
  });

  it('warns when the name does not match, which is also all it says of a number no account has, and lets the customer decide', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: SentRequest[] = [];
    renderApp(
      '/transfer?to=other',
      api({
        'POST /api/v1/transfers/payee-check': () => ({ status: 200, body: { result: 'no_match' } }),
        'POST /api/v1/transfers': (init) => {
          sent.push(sentRequestOf(init));
          return created(paymentOf({ kind: 'internal' }));
        },
      }),
    );
    await user.click(await screen.findByRole('radio', { name: 'This bank (Strongroom Demo Bank)' }));
    await user.type(textbox('Account number'), '6111222333');
    await user.type(textbox('Holder name'), 'Someone Else');
    await fillAmountAndMessage(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    const confirm = await confirmDialog();
    expect(await within(confirm).findByText(/The name does not match the account/)).toBeTruthy();
    expect(within(confirm).getByText(/Check the name and the account number/)).toBeTruthy();
    expect(within(confirm).queryByText(/There is no account with this number/)).toBeNull();
    const confirmButton = within(confirm).getByRole<HTMLButtonElement>('button', { name: 'Confirm' });
    expect(confirmButton.disabled).toBe(false);
    await user.click(confirmButton);
    expect(await screen.findByRole('dialog', { name: '$25.00 transferred successfully' })).toBeTruthy();
    expect(sent[0]?.body).toMatchObject({ kind: 'internal', toAccountNumber: '6111222333', accountName: 'Someone Else' });
  });
});
