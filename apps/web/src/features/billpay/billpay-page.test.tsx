import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { checking } from '../../test/payment-fixtures.ts';
import { renderApp, signedIn } from '../../test/render-app.tsx';

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

function account(state: 'active' | 'inactive') {
  return { ...checking, balanceCents: 0, availableCents: 0, active: state === 'active' };
}

const notApproved = { status: 200, body: { ...signedIn.body, user: { ...signedIn.body.user, identityStatus: 'submitted', accountVerified: false } } };

describe('/billpay', () => {
  it('offers the twelve bill categories as buttons', async () => {
    renderApp('/billpay', { 'GET /api/v1/me': signedIn, 'GET /api/v1/accounts': { status: 200, body: [account('active')] } });
    const list = (await screen.findByRole('heading', { level: 1, name: 'Bill Pay' })).parentElement?.nextElementSibling;
    if (!(list instanceof HTMLElement)) throw new Error('no tile list after the header');
    expect(
      within(list)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(tiles);
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

  it('sends an approved customer to customer care', async () => {
    const user = userEvent.setup();
    renderApp('/billpay', { 'GET /api/v1/me': signedIn, 'GET /api/v1/accounts': { status: 200, body: [account('active')] } });
    await user.click(await screen.findByRole('button', { name: 'Internet' }));
    const dialog = screen.getByRole('dialog', { name: 'Internet' });
    expect(await within(dialog).findByText('Contact customer care support to continue')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Contact customer care' }).getAttribute('href')).toBe('/contact');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
