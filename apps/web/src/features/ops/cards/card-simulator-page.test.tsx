import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CardTransaction, StaffCard } from '@strongroom/contracts/cards.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp, type FakeApi } from '../../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const me = { status: 200, body: { staff: { id: 's1', email: 'olga@bank.test', role: 'operations', permissions: ['cards.decide', 'payments.settle'] } } };

const card = (overrides: Partial<StaffCard>): StaffCard => ({
  id: '55555555-5555-4555-8555-555555555555',
  customerId: 'c1',
  customerName: 'Dana Demo',
  customerEmail: 'dana@example.com',
  type: 'debit',
  network: 'visa',
  nameOnCard: 'DANA DEMO',
  last4: '1820',
  status: 'active',
  standing: {
    identityStatus: 'approved',
    checkingAvailableCents: 1,
    savingsAvailableCents: 1,
    customerSince: '2026-01-05T10:00:00.000Z',
    frozen: false,
    openCards: 1,
  },
  creditLimitCents: null,
  reason: null,
  requestedAt: '2026-11-20T10:00:00.000Z',
  decidedAt: '2026-11-20T11:00:00.000Z',
  decidedBy: 'olga@bank.test',
  ...overrides,
});

const hold: CardTransaction = {
  id: 'a1',
  merchantName: 'Corner Grocer',
  mcc: '5411',
  category: 'Groceries',
  amountCents: 4_250,
  clearedCents: null,
  status: 'pending',
  declineReason: null,
  createdAt: '2026-11-23T10:00:00.000Z',
  releasesAt: '2026-11-30T10:00:00.000Z',
};

const frozenCard = card({ id: '66666666-6666-4666-8666-666666666666', last4: '9999', status: 'frozen', customerName: 'Frank Frozen' });

function simulatorApi(extra: FakeApi = {}): FakeApi {
  return {
    'GET /api/v1/staff/me': me,
    'GET /api/v1/staff/cards': { status: 200, body: { items: [card({})], nextCursor: null, total: 1 } },
    'GET /api/v1/staff/card-simulator/authorizations': { status: 200, body: { items: [hold] } },
    ...extra,
  };
}

describe('the card simulator', { timeout: 20_000 }, () => {
  it('offers active and frozen cards, fires an authorisation with amount, merchant, MCC and reason, and says it was declined', async () => {
    const user = userEvent.setup({ delay: null });
    const bodies: unknown[] = [];
    const { fetchMock } = renderApp(
      '/ops/card-simulator',
      simulatorApi({
        'GET /api/v1/staff/cards': () => {
          const last = String(fetchMock.mock.calls.at(-1)?.[0] ?? '');
          const items = last.includes('status=frozen') ? [frozenCard] : [card({})];
          return { status: 200, body: { items, nextCursor: null, total: items.length } };
        },
        'POST /api/v1/staff/card-simulator/authorizations': (init) => {
          bodies.push(jsonBodyOf(init));
          return { status: 201, body: { authorization: { id: 'a2', status: 'declined', declineReason: 'card_frozen' } } };
        },
      }),
    );
    const picker = await screen.findByRole('combobox', { name: 'Card' });
    expect(within(picker).getByRole('option', { name: 'Frank Frozen · Debit Card Visa Card •••• 9999 (frozen)' })).toBeTruthy();
    await user.selectOptions(picker, frozenCard.id);
    await user.type(screen.getByRole('textbox', { name: /Amount/ }), '60');
    await user.type(screen.getByRole('textbox', { name: /^Merchant/ }), 'Fuel Stop');
    await user.selectOptions(screen.getByRole('combobox', { name: /Merchant category/ }), '5541');
    await user.click(screen.getByRole('button', { name: 'Authorise' }));
    expect(await screen.findByText('Declined: Card frozen.')).toBeTruthy();
    expect(bodies).toEqual([{ cardId: frozenCard.id, amountCents: 6_000, merchantName: 'Fuel Stop', mcc: '5541', reason: 'Sandbox test of the card network' }]);
  });

  it('clears a hold for a lower amount, never more than was authorised', async () => {
    const user = userEvent.setup({ delay: null });
    const bodies: unknown[] = [];
    renderApp(
      '/ops/card-simulator',
      simulatorApi({
        'POST /api/v1/staff/card-simulator/authorizations/a1/clear': (init) => {
          bodies.push(jsonBodyOf(init));
          return { status: 200, body: { authorization: { id: 'a1', status: 'approved' }, transaction: { ...hold, status: 'cleared', clearedCents: 4_000 } } };
        },
      }),
    );
    const table = await screen.findByRole('table', { name: "The card's authorisations" });
    expect(within(table).getByText('Pending - releases on Nov 30, 2026')).toBeTruthy();
    await user.click(within(table).getByRole('button', { name: 'Clear $42.50 at Corner Grocer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clear $42.50 at Corner Grocer?' });
    await user.type(within(dialog).getByRole('textbox', { name: /Amount to clear/ }), '50');
    await user.click(within(dialog).getByRole('button', { name: 'Clear' }));
    expect(await within(dialog).findByText(/Give an amount up to \$42\.50/)).toBeTruthy();
    expect(bodies).toEqual([]);
    await user.clear(within(dialog).getByRole('textbox', { name: /Amount to clear/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /Amount to clear/ }), '40');
    await user.click(within(dialog).getByRole('button', { name: 'Clear' }));
    await vi.waitFor(() => expect(bodies).toEqual([{ amountCents: 4_000, reason: 'Sandbox test of the card network' }]));
  });

  it('exists only in the sandbox', async () => {
    renderApp('/ops/card-simulator', simulatorApi(), { name: 'Strongroom Bank', mode: 'production' });
    expect(await screen.findByRole('heading', { name: 'The card simulator exists only in the sandbox' })).toBeTruthy();
  });
});
