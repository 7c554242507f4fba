import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProductTerms, StaffProductList } from '@strongroom/contracts/products.ts';
import { rolePermissions, type StaffRole } from '@strongroom/contracts/staff.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp, type FakeAnswer } from '../../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const me = (role: StaffRole): FakeAnswer => ({
  status: 200,
  body: { staff: { id: 's1', email: `${role}@bank.test`, role, permissions: [...rolePermissions[role]] } },
});

const terms: ProductTerms = {
  id: 't1',
  effectiveFrom: '2000-01-01',
  state: 'current',
  monthlyFeeCents: 1_495,
  waiverMinDailyBalanceCents: 500_000,
  waiverMonthlyDepositsCents: 250_000,
  openingDepositCents: 0,
  tiers: [{ fromCents: 0, rateBps: 5, apyBps: 5 }],
  waiverText: 'No monthly fee when you keep at least $5,000 in the account at the end of every day of the month, or deposit at least $2,500 in the month.',
  reason: 'The published price of Gold Checking',
  staffId: null,
  createdAt: '2026-11-01T00:00:00.000Z',
};

const list: StaffProductList = {
  bankDate: '2026-11-30',
  items: [
    {
      id: '00000000-0000-4000-8000-00000000d002',
      code: 'gold-checking',
      kind: 'checking',
      name: 'Gold Checking',
      terms: [terms, { ...terms, id: 't2', effectiveFrom: '2027-01-04', state: 'scheduled', monthlyFeeCents: 1_995, reason: 'New year prices' }],
    },
  ],
};

async function openForm() {
  const user = userEvent.setup();
  await screen.findByRole('table', { name: 'Gold Checking: terms' });
  await user.click(await screen.findByRole('button', { name: 'Schedule a change to Gold Checking' }));
  return user;
}

describe('/ops/products', () => {
  it('lists each product with its terms in force and scheduled, by word', async () => {
    renderApp('/ops/products', { 'GET /api/v1/staff/me': me('admin'), 'GET /api/v1/staff/products': { status: 200, body: list } });
    const table = await screen.findByRole('table', { name: 'Gold Checking: terms' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1] as HTMLElement).getByText('In force')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('$14.95')).toBeTruthy();
    expect(within(rows[2] as HTMLElement).getByText('Scheduled')).toBeTruthy();
    expect(within(rows[2] as HTMLElement).getByText('$19.95')).toBeTruthy();
    expect(within(table).getAllByText('$5,000.00 minimum daily balance or $2,500.00 deposits in the month')).toHaveLength(2);
    expect(screen.getByText('Bank date: 2026-11-30')).toBeTruthy();
  });

  it('schedules a change after a confirmation, sending cents and basis points', async () => {
    const posted: unknown[] = [];
    renderApp('/ops/products', {
      'GET /api/v1/staff/me': me('admin'),
      'GET /api/v1/staff/products': { status: 200, body: list },
      'POST /api/v1/staff/products/00000000-0000-4000-8000-00000000d002/terms': (init) => {
        posted.push(jsonBodyOf(init));
        return { status: 201, body: { product: list.items[0] } };
      },
    });
    const user = await openForm();
    await user.type(screen.getByLabelText('Takes effect on'), '2027-02-01');
    await user.clear(screen.getByLabelText('Monthly fee ($)'));
    await user.type(screen.getByLabelText('Monthly fee ($)'), '17.50');
    await user.clear(screen.getByLabelText(/deposits in the month of/));
    await user.click(screen.getByRole('button', { name: 'Add a tier' }));
    const second = screen.getByRole('group', { name: 'Tier 2' });
    await user.type(within(second).getByLabelText('From a balance of ($)'), '10,000');
    await user.type(within(second).getByLabelText('Interest rate (%)'), '0.25');
    await user.type(screen.getByLabelText('Reason (kept in the audit log)'), 'Rates reviewed for February');
    await user.click(screen.getByRole('button', { name: 'Review the change' }));

    const dialog = await screen.findByRole('dialog', { name: 'Schedule new terms for Gold Checking' });
    expect(within(dialog).getByText('Monthly fee: $17.50')).toBeTruthy();
    expect(posted).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Schedule from 2027-02-01' }));
    expect(await screen.findByText('Gold Checking: new terms scheduled from 2027-02-01.')).toBeTruthy();
    expect(posted).toEqual([
      {
        effectiveFrom: '2027-02-01',
        monthlyFeeCents: 1_750,
        waiverMinDailyBalanceCents: 500_000,
        waiverMonthlyDepositsCents: null,
        openingDepositCents: 0,
        tiers: [
          { fromCents: 0, rateBps: 5 },
          { fromCents: 1_000_000, rateBps: 25 },
        ],
        reason: 'Rates reviewed for February',
      },
    ]);
  });

  it('says what is wrong with each bad input, and sends nothing', async () => {
    const post = vi.fn(() => ({ status: 201, body: { product: list.items[0] } }));
    renderApp('/ops/products', {
      'GET /api/v1/staff/me': me('admin'),
      'GET /api/v1/staff/products': { status: 200, body: list },
      'POST /api/v1/staff/products/00000000-0000-4000-8000-00000000d002/terms': post,
    });
    const user = await openForm();
    await user.type(screen.getByLabelText('Takes effect on'), '2026-11-30');
    await user.clear(screen.getByLabelText('Monthly fee ($)'));
    await user.type(screen.getByLabelText('Monthly fee ($)'), '-5');
    const first = screen.getByRole('group', { name: 'Tier 1' });
    await user.clear(within(first).getByLabelText('Interest rate (%)'));
    await user.type(within(first).getByLabelText('Interest rate (%)'), '100.01');
    await user.click(screen.getByRole('button', { name: 'Add a tier' }));
    const second = screen.getByRole('group', { name: 'Tier 2' });
    await user.type(within(second).getByLabelText('From a balance of ($)'), '0');
    await user.type(within(second).getByLabelText('Interest rate (%)'), '-1');
    await user.type(screen.getByLabelText('Reason (kept in the audit log)'), 'no');
    await user.click(screen.getByRole('button', { name: 'Review the change' }));

    expect(await screen.findByText("choose a date after the bank's date (2026-11-30): a change never rewrites the past")).toBeTruthy();
    expect(screen.getByText('the monthly fee cannot be negative')).toBeTruthy();
    expect(screen.getByText('a rate cannot be over 100%')).toBeTruthy();
    expect(screen.getByText('a rate cannot be negative')).toBeTruthy();
    expect(screen.getByText('each tier starts at a higher balance than the one before')).toBeTruthy();
    expect(screen.getByText('the reason needs at least 3 characters')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(post).not.toHaveBeenCalled();
  });

  it("shows the server's refusal in the confirmation", async () => {
    renderApp('/ops/products', {
      'GET /api/v1/staff/me': me('admin'),
      'GET /api/v1/staff/products': { status: 200, body: list },
      'POST /api/v1/staff/products/00000000-0000-4000-8000-00000000d002/terms': {
        status: 422,
        body: {
          error: { code: 'effective_date_in_past', message: "New terms take effect after the bank's date (2026-12-01): a change never rewrites the past" },
        },
      },
    });
    const user = await openForm();
    await user.type(screen.getByLabelText('Takes effect on'), '2026-12-01');
    await user.type(screen.getByLabelText('Reason (kept in the audit log)'), 'Small change');
    await user.click(screen.getByRole('button', { name: 'Review the change' }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule new terms for Gold Checking' });
    await user.click(within(dialog).getByRole('button', { name: 'Schedule from 2026-12-01' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('a change never rewrites the past');
  });

  it('is in the navigation of an administrator only; another role opening it is told its role cannot use it, and nothing is asked', async () => {
    const { fetchMock } = renderApp('/ops/products', { 'GET /api/v1/staff/me': me('operations') });
    const navigation = await screen.findByRole('navigation', { name: 'Back office' });
    expect(within(navigation).queryByRole('link', { name: 'Products' })).toBeNull();
    expect(within(navigation).getByRole('link', { name: 'Customers' })).toBeTruthy();
    expect(await screen.findByText('Your role (operations) cannot use this page: ask an administrator if you need it.')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/staff/products'))).toBe(false);
  });

  it('says when the products could not be loaded', async () => {
    renderApp('/ops/products', {
      'GET /api/v1/staff/me': me('admin'),
      'GET /api/v1/staff/products': { status: 500, body: { error: { code: 'internal_error', message: 'Something went wrong on our side' } } },
    });
    expect(await screen.findByText('The products could not be loaded')).toBeTruthy();
  });
});
