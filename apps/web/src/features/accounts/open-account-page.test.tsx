import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ManagedAccount } from '@strongroom/contracts/account-management.ts';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, signedIn, type FakeApi } from '../../test/render-app.tsx';
import { apiError, checking, savings, sentRequestOf, type SentRequest } from '../../test/payment-fixtures.ts';
import { seedProductList } from '../../test/product-fixtures.ts';

beforeAll(() => import('./open-account-page.tsx'));

afterEach(() => {
  queryClient.clear();
});

const verifiedBank = {
  id: '5b0c7e0e-8f7a-4a59-9a57-9d0b8f1e2a3c',
  status: 'verified',
  accountName: 'Ada Lovelace',
  last4: '0055',
  routeNumber: '011000015',
  accountType: 'checking',
  bankName: 'First Example Bank',
  attemptsLeft: 0,
  createdAt: '2026-03-01T10:00:00.000Z',
  verifiedAt: '2026-03-02T10:00:00.000Z',
};

const goldAccount: ManagedAccount = {
  id: '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  type: 'checking',
  number: '6011223344',
  name: 'Gold Checking',
  productId: '00000000-0000-4000-8000-00000000d002',
  productName: 'Gold Checking',
  status: 'open',
  balanceCents: 10_000,
  availableCents: 10_000,
  openedAt: '2026-11-29T10:00:00.000Z',
  closedAt: null,
};

function api(extra: FakeApi = {}): FakeApi {
  return {
    'GET /api/v1/me': signedIn,
    'GET /api/v1/accounts': { status: 200, body: [checking, savings] },
    'GET /api/v1/products': { status: 200, body: seedProductList },
    'GET /api/v1/funding-sources': { status: 200, body: { items: [verifiedBank] } },
    ...extra,
  };
}

describe('/accounts/open', { timeout: 20_000 }, () => {
  it('shows the disclosure and goes no further until it is accepted, then opens a Gold Checking funded from checking', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: SentRequest[] = [];
    renderApp(
      '/accounts/open',
      api({
        'POST /api/v1/accounts': (init) => {
          sent.push(sentRequestOf(init));
          return { status: 201, body: { account: goldAccount } };
        },
      }),
    );
    await user.click(await screen.findByRole('radio', { name: /Gold Checking/ }));
    expect(screen.getByRole('radio', { name: /Gold Checking/ }).closest('label')?.textContent).toContain('$14.95 a month');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByRole('heading', { name: 'Truth in Savings disclosure: Gold Checking' })).toBeTruthy();
    expect(screen.getByText(/daily balance method/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('accept the disclosure to open the account')).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: /Opening deposit from/ })).toBeNull();

    await user.click(screen.getByRole('checkbox', { name: 'I have read and accept the disclosure' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.selectOptions(await screen.findByRole('combobox', { name: /Opening deposit from/ }), `account:${checking.id}`);
    await user.type(screen.getByRole('textbox', { name: /^Opening deposit/ }), '100');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    await user.click(await screen.findByRole('button', { name: 'Open Gold Checking' }));

    expect(await screen.findByText(/Your Gold Checking is open/)).toBeTruthy();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[0]?.body).toEqual({ productId: goldAccount.productId, fromAccountId: checking.id, openingDepositCents: 10_000, acceptDisclosure: true });
  });

  it("refuses less than the product's opening deposit before sending, and shows the bank's refusal as it is", async () => {
    const user = userEvent.setup({ delay: null });
    renderApp(
      '/accounts/open',
      api({ 'POST /api/v1/accounts': apiError(409, 'no_funding_source', 'Link an account at another bank and verify it before you deposit from it.') }),
    );
    await user.click(await screen.findByRole('radio', { name: /Standard Savings/ }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('checkbox', { name: 'I have read and accept the disclosure' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.selectOptions(await screen.findByRole('combobox', { name: /Opening deposit from/ }), `bank:${verifiedBank.id}`);
    await user.type(screen.getByRole('textbox', { name: /^Opening deposit/ }), '100');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    expect(await screen.findByText('Standard Savings opens with at least $500.00')).toBeTruthy();

    await user.clear(screen.getByRole('textbox', { name: /^Opening deposit/ }));
    await user.type(screen.getByRole('textbox', { name: /^Opening deposit/ }), '500');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    expect(await screen.findByText(/pulled from your other bank/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Open Standard Savings' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Link an account at another bank and verify it before you deposit from it.');
  });
});
