import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StaffCard } from '@strongroom/contracts/cards.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp } from '../../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const me = {
  status: 200,
  body: { staff: { id: 's1', email: 'olga@bank.test', role: 'operations', permissions: ['customers.read', 'cards.decide', 'payments.settle'] } },
};

const request = (overrides: Partial<StaffCard> = {}): StaffCard => ({
  id: '44444444-4444-4444-8444-444444444444',
  customerId: 'c1',
  customerName: 'Dana Demo',
  customerEmail: 'dana@example.com',
  type: 'credit',
  network: 'mastercard',
  nameOnCard: 'DANA DEMO',
  last4: '5454',
  status: 'pending_approval',
  standing: {
    identityStatus: 'approved',
    checkingAvailableCents: 425_000,
    savingsAvailableCents: 60_000,
    customerSince: '2026-01-05T10:00:00.000Z',
    frozen: false,
    openCards: 1,
  },
  creditLimitCents: null,
  reason: null,
  requestedAt: new Date(Date.now() - 3 * 3_600_000).toISOString(),
  decidedAt: null,
  decidedBy: null,
  ...overrides,
});

const list = (items: StaffCard[]) => ({ status: 200, body: { items, nextCursor: null, total: items.length } });

describe('the card queue', { timeout: 20_000 }, () => {
  it('lists each request with the customer’s standing, and counts them in the navigation', async () => {
    renderApp('/ops/cards', { 'GET /api/v1/staff/me': me, 'GET /api/v1/staff/cards': list([request()]) });
    const table = await screen.findByRole('table', { name: 'Card requests waiting for a decision' });
    const row = within(table).getAllByRole('row')[1];
    if (!row) throw new Error('no row');
    expect(within(row).getByText('Dana Demo')).toBeTruthy();
    expect(within(row).getByText('Credit Card (Master Card)')).toBeTruthy();
    expect(within(row).getByText('Identity: approved')).toBeTruthy();
    expect(within(row).getByText('$600.00')).toBeTruthy();
    expect(within(row).getByText('3 h')).toBeTruthy();
    const navigation = screen.getByRole('link', { name: /Card requests/ });
    expect(navigation.textContent).toContain('1');
  });

  it('approves a credit card only with a credit limit in range and a reason, after a confirmation', async () => {
    const user = userEvent.setup({ delay: null });
    const bodies: unknown[] = [];
    renderApp('/ops/cards', {
      'GET /api/v1/staff/me': me,
      'GET /api/v1/staff/cards': list([request()]),
      'POST /api/v1/staff/cards/44444444-4444-4444-8444-444444444444/decision': (init) => {
        bodies.push(jsonBodyOf(init));
        return { status: 200, body: { card: request({ status: 'active', creditLimitCents: 250_000 }) } };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Approve Credit Card (Master Card) for Dana Demo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve a Credit Card (Master Card) for Dana Demo?' });
    await user.click(within(dialog).getByRole('button', { name: 'Approve card' }));
    expect(await within(dialog).findByText('Give a credit limit of $100.00 to $50,000.00')).toBeTruthy();
    expect(bodies).toEqual([]);
    await user.type(within(dialog).getByRole('textbox', { name: /Credit limit/ }), '60000');
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Steady income, savings kept');
    await user.click(within(dialog).getByRole('button', { name: 'Approve card' }));
    expect(await within(dialog).findByText('A credit limit is $100.00 to $50,000.00')).toBeTruthy();
    expect(bodies).toEqual([]);
    await user.clear(within(dialog).getByRole('textbox', { name: /Credit limit/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /Credit limit/ }), '2,500');
    await user.click(within(dialog).getByRole('button', { name: 'Approve card' }));
    expect(await within(dialog).findByText(/The card was approved/)).toBeTruthy();
    expect(bodies).toEqual([{ decision: 'approve', reason: 'Steady income, savings kept', creditLimitCents: 250_000 }]);
  });

  it('rejects a debit card with a required reason and no credit limit', async () => {
    const user = userEvent.setup({ delay: null });
    const bodies: unknown[] = [];
    renderApp('/ops/cards', {
      'GET /api/v1/staff/me': me,
      'GET /api/v1/staff/cards': list([request({ type: 'debit', network: 'visa' })]),
      'POST /api/v1/staff/cards/44444444-4444-4444-8444-444444444444/decision': (init) => {
        bodies.push(jsonBodyOf(init));
        return { status: 200, body: { card: request({ type: 'debit', status: 'rejected' }) } };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Reject Debit Card (Visa Card) for Dana Demo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject Dana Demo’s Debit Card (Visa Card) request?' });
    expect(within(dialog).queryByRole('textbox', { name: /Credit limit/ })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Reject request' }));
    expect(bodies).toEqual([]);
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Identity documents expired');
    await user.click(within(dialog).getByRole('button', { name: 'Reject request' }));
    expect(await within(dialog).findByText(/The request was rejected/)).toBeTruthy();
    expect(bodies).toEqual([{ decision: 'reject', reason: 'Identity documents expired' }]);
  });

  it('says so when no request waits', async () => {
    renderApp('/ops/cards', { 'GET /api/v1/staff/me': me, 'GET /api/v1/staff/cards': list([]) });
    expect(await screen.findByRole('heading', { name: 'No card requests wait for a decision' })).toBeTruthy();
  });
});
