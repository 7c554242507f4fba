import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resultMessages } from '@strongroom/contracts/messages.ts';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, signedIn, unauthenticated } from '../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const heldTransfer = {
  id: 'p1',
  kind: 'external',
  status: 'in_review',
  amountCents: 1_250_000,
  fromAccountId: 'a1',
  toAccountId: null,
  counterparty: { name: 'Alan Turing', accountNumber: '99887766', bankName: 'Bletchley Savings', routeNumber: '021000021', country: 'United Kingdom' },
  message: 'Deposit for the house',
  statusReason: null,
  expectedSettlementAt: null,
  createdAt: '2026-03-14T12:00:00.000Z',
};

describe('the fraud-warning page', () => {
  it.each(['/tax', '/bsa', '/tac', '/nrc', '/imf', '/cot'])('%s warns a visitor who is signed out, with a way to contact the bank', async (path) => {
    const { fetchMock } = renderApp(path, { 'GET /api/v1/me': unauthenticated });
    expect(await screen.findByRole('heading', { level: 1, name: /^We will never ask you for an? .+ code$/ })).toBeTruthy();
    expect(screen.getByText(resultMessages.fraudWarning)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'How a real review works' })).toBeTruthy();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'Contact us' }).getAttribute('href')).toBe('/contact');
    expect((await within(main).findByRole('link', { name: 'Sign in' })).getAttribute('href')).toBe('/login');
    expect(screen.queryByRole('heading', { name: 'Your transfers in review' })).toBeNull();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/transfers'))).toBe(false);
    // A code screen no more: there is nothing to type a code into.
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('names the code the scammer asked for', async () => {
    renderApp('/cot', { 'GET /api/v1/me': unauthenticated });
    expect(await screen.findByRole('heading', { level: 1, name: 'We will never ask you for a COT code' })).toBeTruthy();
  });

  it.each([
    ['/imf', 'an IMF code'],
    ['/nrc', 'an NRC code'],
    ['/tax', 'a tax code'],
  ])('reads %s with the right article: "%s"', async (path, words) => {
    renderApp(path, { 'GET /api/v1/me': unauthenticated });
    expect(await screen.findByRole('heading', { level: 1, name: `We will never ask you for ${words}` })).toBeTruthy();
  });

  it('lists a signed-in customer’s transfers in review', async () => {
    const { fetchMock } = renderApp('/imf', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/transfers': { status: 200, body: { items: [heldTransfer] } },
    });
    const section = (await screen.findByRole('heading', { level: 2, name: 'Your transfers in review' })).closest('section');
    if (!section) throw new Error('the held transfers are not in a section');
    const transfer = (await within(section).findByText('Alan Turing')).closest('li');
    if (!transfer) throw new Error('the transfer is not a list item');
    expect(within(transfer).getByText('$12,500.00')).toBeTruthy();
    expect(within(transfer).getByText('In review')).toBeTruthy();
    expect(within(transfer).getByText(/Deposit for the house/)).toBeTruthy();
    const [url] = fetchMock.mock.calls.find(([request]) => String(request).includes('/transfers')) ?? [];
    expect(String(url)).toBe('/api/v1/transfers?status=in_review');
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('tells a signed-in customer when none of their transfers is in review', async () => {
    renderApp('/tax', { 'GET /api/v1/me': signedIn, 'GET /api/v1/transfers': { status: 200, body: { items: [] } } });
    expect(await screen.findByText(/None of your transfers is being reviewed/)).toBeTruthy();
  });
});
