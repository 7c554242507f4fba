import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CardTransaction } from '@strongroom/contracts/cards.ts';
import { queryClient } from '../../lib/query-client.ts';
import { jsonBodyOf, renderApp, signedIn, validationFailed, type FakeApi } from '../../test/render-app.tsx';
import { checking } from '../../test/payment-fixtures.ts';
import { cardOf } from '../../test/card-fixtures.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  queryClient.clear();
});

const card = cardOf();
const cardPath = `/api/v1/cards/${card.id}`;
const pan = '4000002760003184';

const transaction = (overrides: Partial<CardTransaction>): CardTransaction => ({
  id: 't1',
  merchantName: 'Corner Grocer',
  mcc: '5411',
  category: 'Groceries',
  amountCents: 4_250,
  clearedCents: null,
  status: 'pending',
  declineReason: null,
  createdAt: '2026-11-23T10:00:00.000Z',
  releasesAt: '2026-11-30T10:00:00.000Z',
  ...overrides,
});

function detailsApi(extra: FakeApi = {}): FakeApi {
  return {
    'GET /api/v1/me': signedIn,
    'GET /api/v1/accounts': { status: 200, body: [checking] },
    [`GET ${cardPath}`]: { status: 200, body: { card } },
    [`GET ${cardPath}/transactions`]: { status: 200, body: { items: [] } },
    [`GET ${cardPath}/reveals`]: { status: 200, body: { items: [] } },
    ...extra,
  };
}

describe('the card details page', { timeout: 20_000 }, () => {
  it('reveals the number, CVV and expiry only after the SMS code, counts down and hides them again after 30 s', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const user = userEvent.setup({ delay: null });
    const stepUps: (string | null)[] = [];
    renderApp(
      `/card-details/${card.id}`,
      detailsApi({
        [`POST ${cardPath}/reveal`]: (init) => {
          const stepUp = new Headers(init?.headers).get('x-step-up');
          stepUps.push(stepUp);
          return stepUp === 'ch-9'
            ? { status: 200, body: { number: pan, cvv: '737', expiry: '11/29' } }
            : {
                status: 403,
                body: { error: { code: 'step_up_required', message: 'Enter the 6-digit code we sent to •••• 0101.', challengeId: 'ch-9' } },
              };
        },
        'POST /api/v1/step-up/ch-9': { status: 200, body: { verified: true } },
      }),
    );
    await screen.findByText('•••• •••• •••• 4242', { selector: 'dd' });
    expect(screen.getByText('•••', { selector: 'dd' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Reveal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.click(within(dialog).getByRole('textbox', { name: 'Digit 1 of 6' }));
    await user.keyboard('123456');

    expect(await screen.findByText('4000 0027 6000 3184', { selector: 'dd' })).toBeTruthy();
    expect(screen.getByText('737', { selector: 'dd' })).toBeTruthy();
    expect(stepUps).toEqual([null, 'ch-9']);
    const timer = screen.getByRole('timer');
    expect(timer.textContent).toBe('Hidden again in 30 s');

    vi.setSystemTime(Date.now() + 12_000);
    await vi.waitFor(() => expect(screen.getByRole('timer').textContent).toBe('Hidden again in 18 s'));
    vi.setSystemTime(Date.now() + 18_000);
    await vi.waitFor(() => expect(screen.queryByText('4000 0027 6000 3184', { selector: 'dd' })).toBeNull());
    expect(screen.queryByText(/4000 0027/)).toBeNull();
    expect(screen.queryByText('737')).toBeNull();
    expect(screen.getByText('•••• •••• •••• 4242', { selector: 'dd' })).toBeTruthy();
    expect(screen.queryByRole('timer')).toBeNull();
  });

  it('says honestly that a card id that is not the customer’s was not found', async () => {
    renderApp(`/card-details/${card.id}`, detailsApi({ [`GET ${cardPath}`]: { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } } }));
    expect(await screen.findByRole('heading', { name: 'We could not find this card' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reveal' })).toBeNull();
  });

  it('lists card transactions with merchant, category and status in words', async () => {
    renderApp(
      `/card-details/${card.id}`,
      detailsApi({
        [`GET ${cardPath}/transactions`]: {
          status: 200,
          body: {
            items: [
              transaction({ id: 't1' }),
              transaction({ id: 't2', merchantName: 'Fuel Stop', status: 'declined', declineReason: 'card_frozen', releasesAt: null }),
              transaction({ id: 't3', merchantName: 'Old Hotel', status: 'expired', releasesAt: null }),
              transaction({ id: 't4', merchantName: 'Book Nook', status: 'cleared', clearedCents: 3_000, releasesAt: null }),
            ],
          },
        },
      }),
    );
    const list = await screen.findByRole('list', { name: 'Recent card transactions' });
    expect(within(list).getByText('Pending - releases on Nov 30, 2026')).toBeTruthy();
    expect(within(list).getByText('Declined: Card frozen')).toBeTruthy();
    expect(within(list).getByText('Hold released')).toBeTruthy();
    expect(within(list).getByText('Cleared')).toBeTruthy();
    expect(within(list).getByText('-$30.00')).toBeTruthy();
  });

  it('freezes the card', async () => {
    const user = userEvent.setup({ delay: null });
    let frozen = false;
    renderApp(
      `/card-details/${card.id}`,
      detailsApi({
        [`GET ${cardPath}`]: () => ({ status: 200, body: { card: cardOf({ status: frozen ? 'frozen' : 'active' }) } }),
        [`POST ${cardPath}/freeze`]: () => {
          frozen = true;
          return { status: 200, body: { card: cardOf({ status: 'frozen' }) } };
        },
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Freeze' }));
    expect(await screen.findByRole('button', { name: 'Unfreeze' })).toBeTruthy();
    expect(screen.getByText('While the card is frozen, every purchase with it is declined.')).toBeTruthy();
  });

  it('deletes the card only after a confirmation that says closing is final, then returns to /card', async () => {
    const user = userEvent.setup({ delay: null });
    const deleted: string[] = [];
    renderApp(
      `/card-details/${card.id}`,
      detailsApi({
        'GET /api/v1/cards': { status: 200, body: { items: [] } },
        [`DELETE ${cardPath}`]: () => {
          deleted.push(card.id);
          return { status: 200, body: { card: cardOf({ status: 'closed' }) } };
        },
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Delete Card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Debit Card ending 4242?' });
    expect(within(dialog).getByText(/Closing a card is final/)).toBeTruthy();
    expect(deleted).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete Card' }));
    expect(await screen.findByRole('heading', { name: 'Card', level: 1 })).toBeTruthy();
    expect(window.location.pathname).toBe('/card');
    expect(deleted).toEqual([card.id]);
  });

  it('refuses a limit above the bank’s maximum before sending it', async () => {
    const user = userEvent.setup({ delay: null });
    const { fetchMock } = renderApp(`/card-details/${card.id}`, detailsApi({ [`PUT ${cardPath}/limits`]: validationFailed({}) }));
    const field = await screen.findByRole('textbox', { name: /Limit per transaction/ });
    expect(screen.getByText(/the bank’s maximum is \$10,000\.00/)).toBeTruthy();
    await user.clear(field);
    await user.type(field, '10000.01');
    await user.click(screen.getByRole('button', { name: 'Save limits' }));
    expect(await screen.findByText('the limit per transaction is at most $10,000.00')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);
  });

  it('shows a credit card’s available credit, limit and balance owed, and pays it from checking with an Idempotency-Key', async () => {
    const user = userEvent.setup({ delay: null });
    const credit = cardOf({ type: 'credit', network: 'mastercard', balanceCents: 180_000, creditLimitCents: 250_000, balanceOwedCents: 70_000 });
    const sent: { body: unknown; key: string | null }[] = [];
    renderApp(
      `/card-details/${card.id}`,
      detailsApi({
        [`GET ${cardPath}`]: { status: 200, body: { card: credit } },
        [`POST ${cardPath}/payments`]: (init) => {
          sent.push({ body: jsonBodyOf(init), key: new Headers(init?.headers).get('idempotency-key') });
          return { status: 201, body: { card: { ...credit, balanceOwedCents: 20_000, balanceCents: 230_000 } } };
        },
      }),
    );
    const balance = await screen.findByRole('region', { name: 'Balance' });
    expect(within(balance).getByText('Available credit')).toBeTruthy();
    expect(within(balance).getByText('$1,800.00')).toBeTruthy();
    expect(within(balance).getByText('$2,500.00')).toBeTruthy();
    expect(within(balance).getByText('$700.00')).toBeTruthy();
    const form = await within(balance).findByRole('form', { name: 'Pay card' });
    await user.type(within(form).getByRole('textbox', { name: /Amount/ }), '500');
    await user.click(within(form).getByRole('button', { name: 'Pay card' }));
    expect(await within(form).findByText('$500.00 paid to your card.')).toBeTruthy();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({ fromAccountId: checking.id, amountCents: 50_000 });
    expect(sent[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
  });
});
