import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { rolePermissions, type StaffRole } from '@strongroom/contracts/staff.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp, type FakeAnswer } from '../../../test/render-app.tsx';
import { seedProductList } from '../../../test/product-fixtures.ts';

afterEach(() => {
  queryClient.clear();
});

const id = '6f1c1f7e-7a38-4c51-9a53-0d5a3e0f5b11';
const checkingId = '3f1c2b7a-5d4e-4a8b-9c1d-2e3f4a5b6c7d';
const savingsId = '7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d';

function staffMe(role: StaffRole): FakeAnswer {
  return { status: 200, body: { staff: { id: 's1', email: `${role}@bank.test`, role, permissions: [...rolePermissions[role]] } } };
}

const account = (accountId: string, type: 'checking' | 'savings', name: string, number: string) => ({
  id: accountId,
  type,
  number,
  name,
  balanceCents: 60_000,
  availableCents: 60_000,
  status: 'open',
  active: true,
  pendingDepositsCents: 0,
  pendingDepositsAvailableAt: null,
});

const detail = {
  profile: {
    id,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    emailVerified: true,
    phoneNumber: '+12025550101',
    phoneVerified: true,
    createdAt: '2026-11-01T09:00:00.000Z',
  },
  identity: { status: 'approved', reason: null, idNumberMasked: '•••• 6789', country: 'US', submittedAt: '2026-11-01T09:05:00.000Z' },
  accounts: [account(checkingId, 'checking', 'Easy Checking', '6043797155'), account(savingsId, 'savings', 'Standard Savings', '6927529963')],
  transactions: [],
  sessions: [],
  notifications: [],
  freeze: { frozen: false, reason: null, customerMessage: null, frozenBy: null, frozenAt: null },
  address: null,
  cards: [],
  loans: [],
};

function api(role: StaffRole, extra: Record<string, FakeAnswer> = {}) {
  return {
    'GET /api/v1/staff/me': staffMe(role),
    [`GET /api/v1/staff/customers/${id}`]: { status: 200, body: detail },
    'GET /api/v1/products': { status: 200, body: seedProductList },
    ...extra,
  };
}

describe("/ops/customers/:id: opening, closing and changing the customer's accounts", () => {
  it('shows no account actions to a role without accounts.manage (support)', async () => {
    renderApp(`/ops/customers/${id}`, api('support'));
    expect(await screen.findByRole('table', { name: 'Accounts' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Close an account' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Open an account' })).toBeNull();
  });

  it('operations close an account with a reason, the consequence on the button; the refusal is shown as the bank words it', async () => {
    const user = userEvent.setup({ delay: null });
    const refusal = 'This account cannot be closed yet: a card draws on it (close the card first).';
    const { fetchMock } = renderApp(
      `/ops/customers/${id}`,
      api('operations', {
        [`POST /api/v1/staff/accounts/${checkingId}/close`]: { status: 409, body: { error: { code: 'account_in_use', message: refusal } } },
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Close an account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close an account of Ada Lovelace' });
    expect(dialog.textContent).toContain('This cannot be undone.');
    const confirm = within(dialog).getByRole('button', { name: 'Close Easy Checking 6043797155, balance to 6927529963' });
    await user.click(confirm);
    expect(await within(dialog).findByText('field should not be empty')).toBeTruthy();
    const posts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');
    expect(posts()).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Customer asked in writing');
    await user.click(confirm);
    expect((await within(dialog).findByRole('alert')).textContent).toBe(refusal);
    expect(jsonBodyOf(posts()[0]?.[1])).toEqual({ toAccountId: savingsId, reason: 'Customer asked in writing' });
  });
});
