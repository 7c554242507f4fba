import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, signedIn, type FakeApi } from '../../test/render-app.tsx';
import { apiError, checking, savings, sentRequestOf, type SentRequest } from '../../test/payment-fixtures.ts';
import { seedProductList } from '../../test/product-fixtures.ts';

afterEach(() => {
  queryClient.clear();
});

function api(extra: FakeApi = {}): FakeApi {
  return {
    'GET /api/v1/me': signedIn,
    'GET /api/v1/accounts': { status: 200, body: [checking, savings] },
    'GET /api/v1/products': { status: 200, body: seedProductList },
    ...extra,
  };
}

const inUse = 'This account cannot be closed yet: a deposit into it is still pending.';

describe("an account's actions on the dashboard", { timeout: 20_000 }, () => {
  it("asks for confirmation, naming where the balance goes and that it cannot be undone, and shows the bank's refusal as it is", async () => {
    const user = userEvent.setup({ delay: null });
    const sent: SentRequest[] = [];
    renderApp(
      '/dashboard',
      api({
        [`POST /api/v1/accounts/${savings.id}/close`]: (init) => {
          sent.push(sentRequestOf(init));
          return apiError(409, 'account_in_use', inUse);
        },
      }),
    );
    await user.click(await screen.findByRole('button', { name: `Close account ${savings.name} ${savings.number}` }));
    const dialog = await screen.findByRole('dialog', { name: `Close ${savings.name} ${savings.number}` });
    expect(dialog.textContent).toContain(`moves to ${checking.name} ${checking.number}`);
    expect(dialog.textContent).toContain('This cannot be undone.');
    expect(sent).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: `Close ${savings.name}` }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(inUse);
    expect(sent.map((request) => request.body)).toEqual([{ toAccountId: checking.id }]);
  });

  it('closes nothing when the confirmation is cancelled', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: SentRequest[] = [];
    renderApp('/dashboard', api({ [`POST /api/v1/accounts/${savings.id}/close`]: (init) => (sent.push(sentRequestOf(init)), { status: 500 }) }));
    await user.click(await screen.findByRole('button', { name: `Close account ${savings.name} ${savings.number}` }));
    await user.click(within(await screen.findByRole('dialog', { name: `Close ${savings.name} ${savings.number}` })).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: `Close ${savings.name} ${savings.number}` })).toBeNull();
    expect(sent).toHaveLength(0);
  });

  it('offers a change of type for a checking account only, to another checking tier', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: SentRequest[] = [];
    renderApp(
      '/dashboard',
      api({
        [`PUT /api/v1/accounts/${checking.id}/product`]: (init) => {
          sent.push(sentRequestOf(init));
          return {
            status: 200,
            body: {
              account: {
                ...checking,
                name: 'Gold Checking',
                productName: 'Gold Checking',
                productId: '00000000-0000-4000-8000-00000000d002',
                openedAt: '2026-01-01T00:00:00.000Z',
                closedAt: null,
              },
            },
          };
        },
      }),
    );
    expect(screen.queryByRole('button', { name: `Change account type of ${savings.name} ${savings.number}` })).toBeNull();
    await user.click(await screen.findByRole('button', { name: `Change account type of ${checking.name} ${checking.number}` }));
    const dialog = await screen.findByRole('dialog', { name: `Change the type of ${checking.name} ${checking.number}` });
    const options = within(dialog)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual(['Gold Checking', 'Platinum Checking']);
    await user.click(within(dialog).getByRole('button', { name: 'Change to Gold Checking' }));
    expect(await screen.findByText(`${checking.number} is now a Gold Checking account.`)).toBeTruthy();
    expect(sent.map((request) => request.body)).toEqual([{ productId: '00000000-0000-4000-8000-00000000d002' }]);
  });
});
