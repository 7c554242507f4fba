import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { checking } from '../../test/payment-fixtures.ts';
import { renderApp, signedIn } from '../../test/render-app.tsx';
import { billPayApi, cityPower } from './test-fixtures.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const tiles = [
  'Electricity',
  'Water Bill',
  'Gas Bill',
  'Food Order',
  'Airfare',
  'Cable',
  'Internet',
  'Hotel Booking',
  'Train tickets',
  'Bus Ticket',
  'Movie Ticket',
  'Other Bills',
];

const slugs = ['electricity', 'water', 'gas', 'food', 'airfare', 'cable', 'internet', 'hotel', 'train', 'bus', 'movie', 'other'];

function account(state: 'active' | 'inactive') {
  return { ...checking, balanceCents: 0, availableCents: 0, active: state === 'active' };
}

const notApproved = { status: 200, body: { ...signedIn.body, user: { ...signedIn.body.user, identityStatus: 'submitted', accountVerified: false } } };

describe('/billpay', () => {
  it('offers the twelve bill categories, in the seed’s order, each leading to its billers', async () => {
    renderApp('/billpay', { 'GET /api/v1/me': signedIn, 'GET /api/v1/accounts': { status: 200, body: [account('active')] } });
    await screen.findByRole('link', { name: 'Electricity' });
    const list = screen.getByRole('heading', { level: 1, name: 'Bill Pay' }).parentElement?.nextElementSibling;
    if (!(list instanceof HTMLElement)) throw new Error('no tile list after the header');
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(tiles);
    expect(links.map((link) => link.getAttribute('href'))).toEqual(slugs.map((slug) => `/billpay/${slug}`));
  });

  it('offers the same twelve tiles as buttons while the identity is not approved', async () => {
    renderApp('/billpay', { 'GET /api/v1/me': notApproved, 'GET /api/v1/accounts': { status: 200, body: [] } });
    await screen.findByRole('button', { name: 'Electricity' });
    const list = screen.getByRole('heading', { level: 1, name: 'Bill Pay' }).parentElement?.nextElementSibling;
    if (!(list instanceof HTMLElement)) throw new Error('no tile list after the header');
    expect(
      within(list)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(tiles);
    expect(within(list).queryAllByRole('link')).toEqual([]);
  });

  it('says the account has not been approved while the identity is not approved', async () => {
    const user = userEvent.setup();
    renderApp('/billpay', { 'GET /api/v1/me': notApproved, 'GET /api/v1/accounts': { status: 200, body: [] } });
    await user.click(await screen.findByRole('button', { name: 'Electricity' }));
    const dialog = screen.getByRole('dialog', { name: 'Electricity' });
    expect(within(dialog).getByText('Account has not been approved')).toBeTruthy();
    expect(within(dialog).queryByRole('link', { name: 'Contact customer care' })).toBeNull();
  });

  it('says the account has not been approved while every account is inactive', async () => {
    const user = userEvent.setup();
    renderApp('/billpay', { 'GET /api/v1/me': signedIn, 'GET /api/v1/accounts': { status: 200, body: [account('inactive')] } });
    await user.click(await screen.findByRole('button', { name: 'Gas Bill' }));
    expect(await within(screen.getByRole('dialog', { name: 'Gas Bill' })).findByText('Account has not been approved')).toBeTruthy();
  });

  it('opens a tile’s category, with its billers, for an approved customer', async () => {
    const user = userEvent.setup();
    renderApp('/billpay', billPayApi());
    await user.click(await screen.findByRole('link', { name: 'Electricity' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Electricity' })).toBeTruthy();
    expect(window.location.pathname).toBe('/billpay/electricity');
    expect(await screen.findByRole('heading', { level: 3, name: cityPower.name })).toBeTruthy();
    expect(screen.queryByText('Contact customer care support to continue')).toBeNull();
  });
});
