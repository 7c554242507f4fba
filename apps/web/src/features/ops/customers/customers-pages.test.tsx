import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rolePermissions, type StaffRole } from '@strongroom/contracts/staff.ts';
import { freezeCustomerMessages } from '@strongroom/contracts/staff-customers.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp, type FakeAnswer } from '../../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

function staffMe(role: StaffRole): FakeAnswer {
  return { status: 200, body: { staff: { id: 's1', email: `${role}@bank.test`, role, permissions: [...rolePermissions[role]] } } };
}

const ada = {
  id: '6f1c1f7e-7a38-4c51-9a53-0d5a3e0f5b11',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  identityStatus: 'approved',
  frozen: false,
  createdAt: '2026-11-01T09:00:00.000Z',
};

const review = freezeCustomerMessages[1];

function detail(frozen = false) {
  return {
    profile: {
      id: ada.id,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      emailVerified: true,
      phoneNumber: '+12025550101',
      phoneVerified: true,
      createdAt: '2026-11-01T09:00:00.000Z',
    },
    identity: { status: 'approved', reason: null, idNumberMasked: '•••• 6789', country: 'US', submittedAt: '2026-11-01T09:05:00.000Z' },
    accounts: [
      {
        id: 'a1',
        type: 'checking',
        number: '1000000001',
        name: 'Checking',
        balanceCents: 123_456,
        availableCents: 100_000,
        status: 'open',
        active: true,
        pendingDepositsCents: 0,
        pendingDepositsAvailableAt: null,
      },
    ],
    transactions: [
      {
        id: 't1:debit',
        transferId: 't1',
        accountId: 'a1',
        kind: 'external',
        status: 'in_review',
        amountCents: -250_000,
        description: 'Rent',
        category: 'Transfer',
        createdAt: '2026-11-20T09:00:00.000Z',
      },
    ],
    sessions: [
      { id: '00112233aabbccdd', device: 'Firefox on Linux', ip: '203.0.113.9', createdAt: '2026-11-20T10:00:00.000Z', lastSeenAt: '2026-11-20T10:05:00.000Z' },
    ],
    notifications: [],
    freeze: frozen
      ? { frozen: true, reason: 'Fraud report', customerMessage: review.text, frozenBy: 'admin@bank.test', frozenAt: '2026-11-21T10:00:00.000Z' }
      : { frozen: false, reason: null, customerMessage: null, frozenBy: null, frozenAt: null },
  };
}

describe('/ops/customers', () => {
  it('lists the newest customers, searches by the text typed, and links each row to the customer page', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp('/ops/customers', {
      'GET /api/v1/staff/me': staffMe('support'),
      'GET /api/v1/staff/customers': { status: 200, body: { items: [ada] } },
    });
    const table = await screen.findByRole('table', { name: 'Newest customers' });
    const link = within(table).getByRole('link', { name: 'Ada Lovelace' });
    expect(link.getAttribute('href')).toBe(`/ops/customers/${ada.id}`);
    expect(within(table).getByText('Approved')).toBeTruthy();

    await user.type(screen.getByLabelText('Name, email or account number'), 'lovelace{Enter}');
    expect(await screen.findByRole('table', { name: 'Customers matching “lovelace”' })).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/staff/customers?q=lovelace'))).toBe(true);
  });

  it('asks for two characters before searching, and says when nothing matches', async () => {
    const user = userEvent.setup();
    renderApp('/ops/customers', {
      'GET /api/v1/staff/me': staffMe('support'),
      'GET /api/v1/staff/customers': { status: 200, body: { items: [] } },
    });
    await screen.findByRole('table', { name: 'Newest customers' });
    await user.type(screen.getByLabelText(/Name, email or account number/), 'a{Enter}');
    expect(await screen.findByText('Type at least 2 characters')).toBeTruthy();
    expect(screen.getByText('There are no customers yet.')).toBeTruthy();
  });
});

describe('/ops/customers/:id', () => {
  it('shows the profile, the masked ID, balances, sessions, and no freeze or end buttons to a support role', async () => {
    renderApp(`/ops/customers/${ada.id}`, {
      'GET /api/v1/staff/me': staffMe('support'),
      [`GET /api/v1/staff/customers/${ada.id}`]: { status: 200, body: detail() },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeTruthy();
    expect(screen.getByText('•••• 6789')).toBeTruthy();
    const accounts = screen.getByRole('table', { name: 'Accounts' });
    expect(within(accounts).getByText('$1,234.56')).toBeTruthy();
    expect(within(accounts).getByText('Active')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Live sessions' })).getByText('Firefox on Linux')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Freeze' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'End all' })).toBeNull();
  });

  it('shows a support member a frozen customer without the unfreeze, end-session or end-all buttons', async () => {
    renderApp(`/ops/customers/${ada.id}`, {
      'GET /api/v1/staff/me': staffMe('support'),
      [`GET /api/v1/staff/customers/${ada.id}`]: { status: 200, body: detail(true) },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeTruthy();
    expect(screen.getByText('Fraud report')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Unfreeze|Freeze|End/ })).toBeNull();
  });

  it('shows transaction and identity statuses in words, not their codes', async () => {
    renderApp(`/ops/customers/${ada.id}`, {
      'GET /api/v1/staff/me': staffMe('support'),
      [`GET /api/v1/staff/customers/${ada.id}`]: { status: 200, body: detail() },
    });
    const transactions = await screen.findByRole('table', { name: 'Recent transactions' });
    expect(within(transactions).getByText('In review')).toBeTruthy();
    expect(within(transactions).queryByText('in_review')).toBeNull();
    expect(screen.getAllByText('Approved').length).toBeGreaterThan(0);
  });

  it('freezes only after a confirmation with an internal reason and a customer message, sends both, and shows both', async () => {
    const user = userEvent.setup();
    let frozen = false;
    const { fetchMock } = renderApp(`/ops/customers/${ada.id}`, {
      'GET /api/v1/staff/me': staffMe('admin'),
      [`GET /api/v1/staff/customers/${ada.id}`]: () => ({ status: 200, body: detail(frozen) }),
      [`POST /api/v1/staff/customers/${ada.id}/freeze`]: () => {
        frozen = true;
        return { status: 200, body: { freeze: detail(true).freeze } };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Freeze' }));
    const dialog = await screen.findByRole('dialog', { name: 'Freeze Ada Lovelace' });
    await user.click(within(dialog).getByRole('button', { name: 'Freeze Ada Lovelace' }));
    expect(await within(dialog).findByText('field should not be empty')).toBeTruthy();
    await user.type(within(dialog).getByLabelText(/Internal reason/), 'no');
    await user.click(within(dialog).getByRole('button', { name: 'Freeze Ada Lovelace' }));
    expect(await within(dialog).findByText('the reason needs at least 3 characters')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/freeze'))).toBe(false);

    await user.clear(within(dialog).getByLabelText(/Internal reason/));
    await user.type(within(dialog).getByLabelText(/Internal reason/), 'Fraud report');
    await user.click(within(dialog).getByRole('radio', { name: new RegExp(review.label) }));
    await user.click(within(dialog).getByRole('button', { name: 'Freeze Ada Lovelace' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/freeze'));
    expect(jsonBodyOf(call?.[1])).toEqual({ reason: 'Fraud report', customerMessage: review.text });
    expect(await screen.findByRole('button', { name: 'Unfreeze' })).toBeTruthy();
    const freeze = screen.getByRole('region', { name: 'Freeze' });
    expect(within(freeze).getByText('Internal reason (staff only)').nextElementSibling?.textContent).toBe('Fraud report');
    expect(within(freeze).getByText('The customer sees').nextElementSibling?.textContent).toBe(review.text);
  });

  it('ends one session after a confirmation with a reason', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp(`/ops/customers/${ada.id}`, {
      'GET /api/v1/staff/me': staffMe('admin'),
      [`GET /api/v1/staff/customers/${ada.id}`]: { status: 200, body: detail() },
      [`POST /api/v1/staff/customers/${ada.id}/sessions/00112233aabbccdd/end`]: { status: 200, body: { ended: 1 } },
    });
    await user.click(await screen.findByRole('button', { name: 'End' }));
    const dialog = await screen.findByRole('dialog', { name: 'End this session' });
    await user.type(within(dialog).getByLabelText(/Reason/), 'Lost phone');
    await user.click(within(dialog).getByRole('button', { name: 'End session' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/sessions/00112233aabbccdd/end'))).toBe(true));
    expect(await screen.findByText('End session: done.')).toBeTruthy();
  });

  it('says when the customer does not exist', async () => {
    renderApp('/ops/customers/nobody', { 'GET /api/v1/staff/me': staffMe('support') });
    expect(await screen.findByRole('heading', { name: 'No such customer' })).toBeTruthy();
  });
});
