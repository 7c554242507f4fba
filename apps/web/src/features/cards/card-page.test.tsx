import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cardMessages, nameOnCardMessages } from '@strongroom/contracts/cards.ts';
import { noAccountMessages, validationMessages } from '@strongroom/contracts/messages.ts';
import { queryClient } from '../../lib/query-client.ts';
import { jsonBodyOf, renderApp, signedIn, type FakeApi } from '../../test/render-app.tsx';
import { checking, savings } from '../../test/payment-fixtures.ts';
import { nextCardIndex, previousCardIndex } from './card-paging.ts';
import { cardList, cardOf } from '../../test/card-fixtures.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const richSavings = { ...savings, availableCents: 50_000, balanceCents: 50_000 };

function cardApi(extra: FakeApi = {}): FakeApi {
  return {
    'GET /api/v1/me': signedIn,
    'GET /api/v1/accounts': { status: 200, body: [checking, richSavings] },
    'GET /api/v1/cards': cardList([]),
    ...extra,
  };
}

describe('the card request form', { timeout: 20_000 }, () => {
  it('starts with the customer’s first and last name, shows no refusal when none applies, and asks for the card with an Idempotency-Key', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: { body: unknown; key: string | null }[] = [];
    renderApp(
      '/card-form',
      cardApi({
        'POST /api/v1/cards': (init) => {
          sent.push({ body: jsonBodyOf(init), key: new Headers(init?.headers).get('idempotency-key') });
          return { status: 201, body: { card: cardOf({ status: 'pending_approval', type: 'credit', network: 'mastercard' }) } };
        },
      }),
    );
    const name = await screen.findByRole('textbox', { name: /Name on card/ });
    expect((name as HTMLInputElement).value).toBe('ADA LOVELACE');
    expect(screen.queryByText(cardMessages.savingsBalanceRequired)).toBeNull();
    expect(screen.queryByText(noAccountMessages.accountsClosed)).toBeNull();
    await user.selectOptions(screen.getByRole('combobox', { name: /Card type/ }), 'Credit Card');
    await user.selectOptions(screen.getByRole('combobox', { name: /Card network/ }), 'Master Card');
    await user.click(screen.getByRole('button', { name: 'Request card' }));
    const review = await screen.findByRole('dialog', { name: 'Check your card request' });
    expect(within(review).getByText('Credit Card')).toBeTruthy();
    expect(within(review).getByText('ADA LOVELACE')).toBeTruthy();
    expect(sent).toHaveLength(0);
    await user.click(within(review).getByRole('button', { name: 'Send request' }));
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.body).toEqual({ cardType: 'credit', cardNetwork: 'mastercard', nameOnCard: 'ADA LOVELACE' });
    expect(sent[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('requires a name on the card and sends nothing without one', async () => {
    const user = userEvent.setup({ delay: null });
    const { fetchMock } = renderApp('/new-card-form', cardApi());
    const name = await screen.findByRole('textbox', { name: /Name on card/ });
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Request card' }));
    expect(await screen.findByText(validationMessages.required)).toBeTruthy();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('raises the name to capitals as it is typed, refuses digits and emoji with a clear message, and sends nothing then', async () => {
    const user = userEvent.setup({ delay: null });
    const { fetchMock } = renderApp('/card-form', cardApi());
    const name = await screen.findByRole<HTMLInputElement>('textbox', { name: /Name on card/ });
    await user.clear(name);
    await user.type(name, 'grace hopper-2 😀');
    expect(name.value).toBe('GRACE HOPPER-2 😀');
    await user.click(screen.getByRole('button', { name: 'Request card' }));
    expect(await screen.findByText(nameOnCardMessages.invalid)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('goes back to the form from the review with Modify, the name kept', async () => {
    const user = userEvent.setup({ delay: null });
    const { fetchMock } = renderApp('/card-form', cardApi());
    await user.click(await screen.findByRole('button', { name: 'Request card' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Check your card request' })).getByRole('button', { name: 'Modify' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: /Name on card/ }).value).toBe('ADA LOVELACE');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('says the seed’s words when savings has less than $500 available, and offers no request', async () => {
    renderApp('/card-form', cardApi({ 'GET /api/v1/accounts': { status: 200, body: [checking, { ...savings, availableCents: 49_999 }] } }));
    expect(await screen.findByText(cardMessages.savingsBalanceRequired)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Request card' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('tells a customer whose identity is being checked that their accounts open once it is, in place of the form', async () => {
    const waiting = { status: 200, body: { ...signedIn.body, user: { ...signedIn.body.user, identityStatus: 'submitted', accountVerified: false } } };
    renderApp('/card-form', cardApi({ 'GET /api/v1/me': waiting, 'GET /api/v1/accounts': { status: 200, body: [] } }));
    expect(await screen.findByText(noAccountMessages.identityPending)).toBeTruthy();
    expect(screen.queryByText(/customer care|No account found/i)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Request card' })).toBeNull();
  });

  it('shows the server’s refusal in the seed’s words', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp(
      '/card-form',
      cardApi({
        'POST /api/v1/cards': { status: 422, body: { error: { code: 'savings_balance_required', message: 'Creating a card requires money on savings' } } },
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Request card' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Check your card request' })).getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText(cardMessages.savingsBalanceRequired)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('replaces the form with the approval notice while a card awaits approval, on /card as on /new-card-form', async () => {
    const api = cardApi({ 'GET /api/v1/cards': cardList([cardOf({ status: 'pending_approval' })]) });
    renderApp('/new-card-form', api);
    expect(await screen.findByText(cardMessages.pendingApproval)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Request card' })).toBeNull();
  });

  it('shows the form on /card when the customer has no card yet', async () => {
    renderApp('/card', cardApi());
    expect(await screen.findByRole('heading', { name: 'Request a card' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Request card' })).toBeTruthy();
  });
});

describe('the card screen', { timeout: 20_000 }, () => {
  it('wraps round: past the last card comes the first, before the first the last', () => {
    expect(nextCardIndex(2, 3)).toBe(0);
    expect(previousCardIndex(0, 3)).toBe(2);
    expect(nextCardIndex(0, 1)).toBe(0);
  });

  it('shows approved cards only, masked, with Prev/Next that wrap and Card details for the card shown', async () => {
    const user = userEvent.setup({ delay: null });
    const cards = [
      cardOf({ id: '11111111-1111-4111-8111-111111111111', last4: '1111' }),
      cardOf({ id: '22222222-2222-4222-8222-222222222222', last4: '2222', status: 'rejected', rejectionReason: 'No' }),
      cardOf({ id: '33333333-3333-4333-8333-333333333333', last4: '3333', type: 'credit', network: 'mastercard', status: 'frozen' }),
    ];
    renderApp('/card', cardApi({ 'GET /api/v1/cards': cardList(cards) }));
    const carousel = await screen.findByRole('region', { name: 'Your cards' });
    expect(within(carousel).getByText('•••• •••• •••• 1111')).toBeTruthy();
    expect(within(carousel).getByText('Demo card')).toBeTruthy();
    expect(within(carousel).getByRole('img', { name: 'Visa Card' })).toBeTruthy();
    expect(within(carousel).getByText('Card 1 of 2')).toBeTruthy();
    await user.click(within(carousel).getByRole('button', { name: 'Next card' }));
    expect(within(carousel).getByText('•••• •••• •••• 3333')).toBeTruthy();
    expect(within(carousel).getByRole('img', { name: 'Master Card' })).toBeTruthy();
    expect(within(carousel).getByRole('link', { name: 'Card details: Credit Card ending 3333' }).getAttribute('href')).toBe(
      '/card-details/33333333-3333-4333-8333-333333333333',
    );
    await user.click(within(carousel).getByRole('button', { name: 'Next card' }));
    expect(within(carousel).getByText('•••• •••• •••• 1111')).toBeTruthy();
    await user.click(within(carousel).getByRole('button', { name: 'Previous card' }));
    expect(within(carousel).getByText('•••• •••• •••• 3333')).toBeTruthy();
    expect(screen.queryByText(/2222/)).toBeNull();
  });

  it('offers no paging for a single card', async () => {
    renderApp('/card', cardApi({ 'GET /api/v1/cards': cardList([cardOf()]) }));
    await screen.findByText('•••• •••• •••• 4242');
    expect(screen.queryByRole('button', { name: 'Next card' })).toBeNull();
    expect(screen.getByRole('link', { name: 'New Card' }).getAttribute('href')).toBe('/new-card-form');
  });
});
