import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rolePermissions, type StaffRole } from '@strongroom/contracts/staff.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp, type FakeAnswer } from '../../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const id = '6f1c1f7e-7a38-4c51-9a53-0d5a3e0f5b11';

function staffMe(role: StaffRole): FakeAnswer {
  return { status: 200, body: { staff: { id: 's1', email: `${role}@bank.test`, role, permissions: [...rolePermissions[role]] } } };
}

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
  accounts: [],
  transactions: [],
  sessions: [],
  notifications: [],
  freeze: { frozen: false, reason: null, customerMessage: null, frozenBy: null, frozenAt: null },
  address: { country: 'US', address: '12 Elm Street\nApartment 4', city: 'Springfield', state: 'IL', zipCode: '62701' },
  cards: [
    {
      id: 'c1',
      type: 'credit',
      network: 'visa',
      nameOnCard: 'ADA LOVELACE',
      last4: '4242',
      expiry: '11/29',
      status: 'active',
      balanceCents: 120_000,
      creditLimitCents: 150_000,
      balanceOwedCents: 30_000,
      perTransactionLimitCents: 100_000,
      monthlyLimitCents: 500_000,
      spentThisMonthCents: 30_000,
      rejectionReason: null,
      createdAt: '2026-11-02T09:00:00.000Z',
    },
  ],
  loans: [
    {
      id: 'l1',
      status: 'active',
      maritalStatus: 'single',
      occupation: 'Engineer',
      address: '12 Elm Street',
      purpose: 'Car',
      requestedAmountCents: 500_000,
      annualIncomeCents: 9_000_000,
      durationMonths: 12,
      amountCents: 500_000,
      aprBps: 799,
      termMonths: 12,
      balanceCents: 420_000,
      nextDueDate: '2026-12-02',
      nextPaymentCents: 43_500,
      rejectionReason: null,
      createdAt: '2026-11-02T09:00:00.000Z',
      disbursedAt: '2026-11-02T10:00:00.000Z',
    },
  ],
};

describe('/ops/customers/:id: cards, loans and contact corrections', () => {
  it("lists the customer's cards by their last four digits and their loans, and shows the address", async () => {
    renderApp(`/ops/customers/${id}`, { 'GET /api/v1/staff/me': staffMe('compliance'), [`GET /api/v1/staff/customers/${id}`]: { status: 200, body: detail } });
    const cards = await screen.findByRole('table', { name: 'Cards' });
    expect(within(cards).getByText('Credit Visa •••• 4242')).toBeTruthy();
    expect(within(cards).getByText('$1,500.00')).toBeTruthy();
    expect(within(cards).getByText('$300.00')).toBeTruthy();
    const loans = screen.getByRole('table', { name: 'Loans' });
    expect(within(loans).getByText('Active')).toBeTruthy();
    expect(within(loans).getByText('$4,200.00')).toBeTruthy();
    expect(within(loans).getByText(/2026-12-02/)).toBeTruthy();
    expect(screen.getByText(/Springfield, IL 62701/)).toBeTruthy();
    // Compliance may not correct contact details: no button for it.
    expect(screen.queryByRole('button', { name: 'Correct contact details' })).toBeNull();
  });

  it('an administrator corrects the email with a reason: only what changed is sent', async () => {
    const user = userEvent.setup({ delay: null });
    const { fetchMock } = renderApp(`/ops/customers/${id}`, {
      'GET /api/v1/staff/me': staffMe('admin'),
      [`GET /api/v1/staff/customers/${id}`]: { status: 200, body: detail },
      [`PUT /api/v1/staff/customers/${id}/contact`]: {
        status: 200,
        body: { email: 'ada@new.example', phone: { number: '+12025550101', country: 'US' }, address: detail.address, changed: ['email'] },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Correct contact details' }));
    const dialog = await screen.findByRole('dialog', { name: "Correct Ada Lovelace's contact details" });
    await user.type(within(dialog).getByLabelText(/New email address/), 'ada@new.example');
    await user.click(within(dialog).getByRole('button', { name: 'Save corrections for Ada Lovelace' }));
    expect(await within(dialog).findByText('field should not be empty')).toBeTruthy();
    const puts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT');
    expect(puts()).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Customer called and asked');
    await user.click(within(dialog).getByRole('button', { name: 'Save corrections for Ada Lovelace' }));
    expect(await screen.findByText('Corrected for Ada Lovelace: email.')).toBeTruthy();
    expect(jsonBodyOf(puts()[0]?.[1])).toEqual({ email: 'ada@new.example', reason: 'Customer called and asked' });
  });

  it("puts the server's refusal under its field", async () => {
    const user = userEvent.setup({ delay: null });
    renderApp(`/ops/customers/${id}`, {
      'GET /api/v1/staff/me': staffMe('admin'),
      [`GET /api/v1/staff/customers/${id}`]: { status: 200, body: detail },
      [`PUT /api/v1/staff/customers/${id}/contact`]: {
        status: 409,
        body: {
          error: {
            code: 'email_taken',
            message: 'Taken',
            fields: { email: 'This email address is already used by another customer. Use an address of your own.' },
          },
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Correct contact details' }));
    const dialog = await screen.findByRole('dialog', { name: "Correct Ada Lovelace's contact details" });
    await user.type(within(dialog).getByLabelText(/New email address/), 'grace@example.com');
    await user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Typo fixed');
    await user.click(within(dialog).getByRole('button', { name: 'Save corrections for Ada Lovelace' }));
    expect(await within(dialog).findByText(/already used by another customer/)).toBeTruthy();
  });
});
