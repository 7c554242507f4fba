import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { apiError } from '../../test/payment-fixtures.ts';
import { jsonBodyOf, renderApp, signedIn, validationFailed } from '../../test/render-app.tsx';
import { billPayApi, cityPower, homePower, sunnyGrid, waterPayee } from './test-fixtures.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const newPayee = {
  ...homePower,
  id: '5a4f3b2c-1d0e-4f9a-8b7c-6d5e4f3a2b1c',
  billerId: sunnyGrid.id,
  billerName: sunnyGrid.name,
  nickname: 'Cabin power',
  accountEnding: '3456',
};

describe('/billpay/:category', { timeout: 20_000 }, () => {
  it('shows the customer’s payees of the category first, with Pay, then the category’s billers', async () => {
    const { fetchMock } = renderApp('/billpay/electricity', billPayApi());
    const payees = await screen.findByRole('region', { name: 'Your payees' });
    const payee = await within(payees).findByRole('listitem');
    expect(within(payee).getByRole('heading', { name: 'Home electricity' })).toBeTruthy();
    expect(within(payee).getByText('City Power & Light, account ending 4821')).toBeTruthy();
    expect(within(payee).getByRole('link', { name: 'Pay Home electricity' }).getAttribute('href')).toBe(`/billpay/electricity?pay=${homePower.id}`);
    // The water payee belongs to another tile.
    expect(screen.queryByText(waterPayee.nickname)).toBeNull();

    const billers = await screen.findByRole('region', { name: 'Billers' });
    const items = await within(billers).findAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual([cityPower.name, sunnyGrid.name]);
    expect(within(billers).getByText('SG-123456')).toBeTruthy();
    expect(payees.compareDocumentPosition(billers) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const billerRequest = fetchMock.mock.calls.find(([input]) => String(input).startsWith('/api/v1/billers'));
    expect(String(billerRequest?.[0])).toBe('/api/v1/billers?category=electricity');
  });

  it('says when a category has no billers yet, and when the customer has no payee in it', async () => {
    renderApp('/billpay/movie', billPayApi([homePower], { 'GET /api/v1/billers': { status: 200, body: { items: [] } } }));
    expect(await screen.findByRole('heading', { name: 'No billers in this category yet' })).toBeTruthy();
    expect(await screen.findByText('No payees here yet: add one from the billers below.')).toBeTruthy();
  });

  it('says so when the billers or the payees cannot be loaded, and offers to try again', async () => {
    const user = userEvent.setup();
    let billerAnswers = 0;
    renderApp(
      '/billpay/electricity',
      billPayApi([], {
        'GET /api/v1/billers': () => {
          billerAnswers += 1;
          return billerAnswers === 1
            ? apiError(429, 'rate_limited', 'Too many requests: try again in a minute')
            : { status: 200, body: { items: [cityPower] } };
        },
        // A 4xx is not retried by the query client: the error shows at once.
        'GET /api/v1/bill-payees': apiError(429, 'rate_limited', 'Too many requests: try again in a minute'),
      }),
    );
    expect(await screen.findByRole('heading', { name: 'We could not load your payees' })).toBeTruthy();
    const billers = screen.getByRole('region', { name: 'Billers' });
    expect(await within(billers).findByRole('heading', { name: 'We could not load the billers' })).toBeTruthy();
    expect(within(billers).getByText('Too many requests: try again in a minute')).toBeTruthy();
    await user.click(within(billers).getByRole('button', { name: 'Try again' }));
    expect(await within(billers).findByRole('heading', { name: cityPower.name })).toBeTruthy();
  });

  it('tells an account number that does not match the biller’s pattern, naming the example, and sends nothing', async () => {
    const user = userEvent.setup();
    const create = vi.fn(() => ({ status: 201, body: { payee: newPayee } }));
    renderApp('/billpay/electricity', billPayApi([], { 'POST /api/v1/bill-payees': create }));
    await user.click(await screen.findByRole('button', { name: 'Add Sunny Grid Energy as a payee' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Sunny Grid Energy' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Your account number at Sunny Grid Energy/ }), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Add payee' }));
    expect(await within(dialog).findByText('An account number at Sunny Grid Energy looks like SG-123456')).toBeTruthy();
    expect(create).not.toHaveBeenCalled();
  });

  it('adds a payee: the biller, the account number and a nickname, then lists it', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    let payees = [homePower];
    renderApp(
      '/billpay/electricity',
      billPayApi([], {
        'GET /api/v1/bill-payees': () => ({ status: 200, body: { items: payees } }),
        'POST /api/v1/bill-payees': (init) => {
          sent.push(jsonBodyOf(init));
          payees = [homePower, newPayee];
          return { status: 201, body: { payee: newPayee } };
        },
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Add Sunny Grid Energy as a payee' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Sunny Grid Energy' });
    const nickname = within(dialog).getByRole<HTMLInputElement>('textbox', { name: /^Nickname/ });
    expect(nickname.value).toBe('Sunny Grid Energy');
    await user.type(within(dialog).getByRole('textbox', { name: /^Your account number at Sunny Grid Energy/ }), 'SG-123456');
    await user.clear(nickname);
    await user.type(nickname, 'Cabin power');
    await user.click(within(dialog).getByRole('button', { name: 'Add payee' }));

    expect(await screen.findByText('Cabin power was added to your payees')).toBeTruthy();
    expect(sent).toEqual([{ billerId: sunnyGrid.id, accountNumber: 'SG-123456', nickname: 'Cabin power' }]);
    expect(screen.queryByRole('dialog', { name: 'Add Sunny Grid Energy' })).toBeNull();
    const list = screen.getByRole('region', { name: 'Your payees' });
    expect(await within(list).findByRole('link', { name: 'Pay Cabin power' })).toBeTruthy();
  });

  it('shows the server’s message on the field, and a refusal of no field above the buttons', async () => {
    const user = userEvent.setup();
    let answers = 0;
    renderApp(
      '/billpay/electricity',
      billPayApi([], {
        'POST /api/v1/bill-payees': () => {
          answers += 1;
          return answers === 1
            ? validationFailed({ accountNumber: 'An account number at City Power & Light looks like 1234567890' })
            : apiError(409, 'conflict', 'You already pay this account at City Power & Light');
        },
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Add City Power & Light as a payee' }));
    const dialog = screen.getByRole('dialog', { name: 'Add City Power & Light' });
    const number = within(dialog).getByRole('textbox', { name: /^Your account number at City Power & Light/ });
    await user.type(number, '0000000000');
    await user.click(within(dialog).getByRole('button', { name: 'Add payee' }));
    expect(await within(dialog).findByText('An account number at City Power & Light looks like 1234567890')).toBeTruthy();
    expect(number.getAttribute('aria-invalid')).toBe('true');

    await user.clear(number);
    await user.type(number, '1111111111');
    await user.click(within(dialog).getByRole('button', { name: 'Add payee' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('You already pay this account at City Power & Light');
  });

  it('removes a payee only after the customer confirms', async () => {
    const user = userEvent.setup();
    let payees = [homePower];
    const remove = vi.fn(() => {
      payees = [];
      return { status: 204 };
    });
    renderApp(
      '/billpay/electricity',
      billPayApi([], {
        'GET /api/v1/bill-payees': () => ({ status: 200, body: { items: payees } }),
        [`DELETE /api/v1/bill-payees/${homePower.id}`]: remove,
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Remove payee: Home electricity' }));
    let dialog = screen.getByRole('dialog', { name: 'Remove this payee?' });
    expect(within(dialog).getByText(/Home electricity \(City Power & Light, account ending 4821\) will be removed/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(remove).not.toHaveBeenCalled();
    expect(screen.getByRole('link', { name: 'Pay Home electricity' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Remove payee: Home electricity' }));
    dialog = screen.getByRole('dialog', { name: 'Remove this payee?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove payee' }));
    expect(await screen.findByText('Home electricity was removed from your payees')).toBeTruthy();
    expect(remove).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Pay Home electricity' })).toBeNull());
  });

  it('says the account has not been approved to a customer whose identity is not, and lists nothing', async () => {
    const notApproved = { status: 200, body: { ...signedIn.body, user: { ...signedIn.body.user, identityStatus: 'submitted', accountVerified: false } } };
    const { fetchMock } = renderApp('/billpay/water', billPayApi([], { 'GET /api/v1/me': notApproved, 'GET /api/v1/accounts': { status: 200, body: [] } }));
    expect(await screen.findByText('Account has not been approved')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Water Bill' })).toBeTruthy();
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes('/billers'))).toBe(false);
  });

  it('answers an address that is not one of the twelve categories', async () => {
    renderApp('/billpay/yachts', billPayApi());
    expect(await screen.findByRole('heading', { level: 1, name: 'There is no such kind of bill' })).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Bill Pay' }).map((link) => link.getAttribute('href'))).toContain('/billpay');
  });
});
