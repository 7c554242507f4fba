import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { queryClient } from '../../lib/query-client.ts';
import { alanElsewhere } from '../../test/payment-fixtures.ts';
import { jsonBodyOf, renderApp, signedIn, validationFailed } from '../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const grace = {
  id: 'b1',
  accountName: 'Grace Hopper',
  accountNumber: '6043797155',
  routeNumber: '123456780',
  bankName: 'Strongroom Demo Bank',
  nameOfCountry: 'United States',
  bankType: 'mybank',
  accountType: 'checking',
  createdAt: '2026-03-01T10:00:00.000Z',
};
const alan = alanElsewhere;

describe('/beneficiaries', () => {
  it('shows the beneficiaries of the chosen tab only, each with its account name and number', async () => {
    const user = userEvent.setup();
    renderApp('/beneficiaries', { 'GET /api/v1/me': signedIn, 'GET /api/v1/beneficiaries': { status: 200, body: { items: [alan, grace] } } });
    const myBank = await screen.findByRole('tab', { name: 'My Bank' });
    expect(myBank.getAttribute('aria-selected')).toBe('true');
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getByRole('heading', { name: 'Grace Hopper' })).toBeTruthy();
    expect(within(panel).getByText('6043797155')).toBeTruthy();
    expect(within(panel).queryByRole('heading', { name: 'Alan Turing' })).toBeNull();

    await user.click(screen.getByRole('tab', { name: 'Other Bank' }));
    const otherPanel = screen.getByRole('tabpanel');
    expect(within(otherPanel).getByRole('heading', { name: 'Alan Turing' })).toBeTruthy();
    expect(within(otherPanel).getByText('99887766')).toBeTruthy();
    expect(within(otherPanel).queryByRole('heading', { name: 'Grace Hopper' })).toBeNull();

    expect(screen.getByRole('link', { name: 'Add beneficiary' }).getAttribute('href')).toBe('/add-beneficiaries');
  });

  it('says so in each tab that has no beneficiaries', async () => {
    const user = userEvent.setup();
    renderApp('/beneficiaries', { 'GET /api/v1/me': signedIn, 'GET /api/v1/beneficiaries': { status: 200, body: { items: [alan] } } });
    expect(await screen.findByRole('heading', { name: 'No beneficiaries at this bank' })).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Other Bank' }));
    expect(screen.queryByRole('heading', { name: 'No beneficiaries at other banks' })).toBeNull();
  });

  it('deletes a beneficiary only after the customer confirms', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp('/beneficiaries', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/beneficiaries': () => ({
        status: 200,
        body: { items: fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE') ? [] : [grace] },
      }),
      'DELETE /api/v1/beneficiaries/b1': { status: 204 },
    });
    const deleteButton = await screen.findByRole('button', { name: 'Delete beneficiary: Grace Hopper' });
    await user.click(deleteButton);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);

    await user.click(deleteButton);
    const dialog = screen.getByRole('dialog', { name: 'Delete this beneficiary?' });
    expect(within(dialog).getByText(/Grace Hopper \(6043797155\)/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('heading', { name: 'No beneficiaries at this bank' })).toBeTruthy();
    expect(screen.getByText('Grace Hopper was removed from your beneficiaries')).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE').map(([url]) => String(url))).toEqual(['/api/v1/beneficiaries/b1']);
  });
});

describe('/add-beneficiaries', () => {
  it('requires every field', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp('/add-beneficiaries', { 'GET /api/v1/me': signedIn });
    await user.click(await screen.findByRole('button', { name: 'Add beneficiary' }));
    expect(await screen.findAllByText('field should not be empty')).toHaveLength(6);
    for (const label of ['Bank name', 'Account name', 'Account number', 'Country name', /^Routing number/]) {
      expect(screen.getByLabelText(label).getAttribute('aria-invalid')).toBe('true');
    }
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('fills in this bank’s name and routing number when the customer chooses this bank, and empties them for another bank', async () => {
    const user = userEvent.setup();
    renderApp('/add-beneficiaries', { 'GET /api/v1/me': signedIn });
    await user.click(await screen.findByRole('radio', { name: 'This bank' }));
    expect(screen.getByLabelText<HTMLInputElement>('Bank name').value).toBe('Strongroom Demo Bank');
    expect(screen.getByLabelText<HTMLInputElement>(/^Routing number/).value).toBe('123456780');
    await user.click(screen.getByRole('radio', { name: 'Other bank' }));
    expect(screen.getByLabelText<HTMLInputElement>('Bank name').value).toBe('');
    expect(screen.getByLabelText<HTMLInputElement>(/^Routing number/).value).toBe('');
  });

  it('shows the server’s field errors on their fields', async () => {
    const user = userEvent.setup();
    renderApp('/add-beneficiaries', {
      'GET /api/v1/me': signedIn,
      'POST /api/v1/beneficiaries': validationFailed({ accountNumber: 'There is no account with this number at this bank' }),
    });
    await user.click(await screen.findByRole('radio', { name: 'This bank' }));
    await user.type(screen.getByLabelText('Account name'), 'Grace Hopper');
    await user.type(screen.getByLabelText('Account number'), '6043797150');
    await user.selectOptions(screen.getByLabelText('Country name'), 'United States');
    await user.click(screen.getByRole('button', { name: 'Add beneficiary' }));
    expect(await screen.findByText('There is no account with this number at this bank')).toBeTruthy();
    expect(screen.getByLabelText('Account number').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('Account number'));
  });

  it('saves the beneficiary and goes back to the list with a confirmation', async () => {
    const user = userEvent.setup();
    let saved = false;
    const { fetchMock } = renderApp('/add-beneficiaries', {
      'GET /api/v1/me': signedIn,
      'POST /api/v1/beneficiaries': () => {
        saved = true;
        return { status: 201, body: { beneficiary: alan } };
      },
      'GET /api/v1/beneficiaries': () => ({ status: 200, body: { items: saved ? [alan] : [] } }),
    });
    await user.click(await screen.findByRole('radio', { name: 'Other bank' }));
    await user.type(screen.getByLabelText('Bank name'), 'Bletchley Savings');
    await user.type(screen.getByLabelText('Account name'), 'Alan Turing');
    await user.type(screen.getByLabelText('Account number'), '99887766');
    await user.selectOptions(screen.getByLabelText('Country name'), 'United Kingdom');
    await user.type(screen.getByLabelText(/^Routing number/), '021000021');
    await user.click(screen.getByRole('button', { name: 'Add beneficiary' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Beneficiaries' })).toBeTruthy();
    expect(window.location.pathname).toBe('/beneficiaries');
    expect(screen.getByText('Alan Turing was added to your beneficiaries')).toBeTruthy();
    const [, init] = fetchMock.mock.calls.find(([, request]) => request?.method === 'POST') ?? [];
    expect(jsonBodyOf(init)).toEqual({
      bankType: 'otherbank',
      bankName: 'Bletchley Savings',
      accountName: 'Alan Turing',
      accountNumber: '99887766',
      nameOfCountry: 'United Kingdom',
      routeNumber: '021000021',
    });
    // The tab that shows the new beneficiary is the one open.
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Other Bank' }).getAttribute('aria-selected')).toBe('true'));
    expect(window.location.search).toBe('?tab=otherbank');
    expect(within(screen.getByRole('tabpanel')).getByText('Alan Turing')).toBeTruthy();
  });

  it('offers the country from a list, and tells a SWIFT code that international transfers are not offered', async () => {
    const user = userEvent.setup();
    renderApp('/add-beneficiaries', { 'GET /api/v1/me': signedIn });
    const country = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Country name' });
    expect(within(country).getByRole('option', { name: 'United Kingdom' })).toBeTruthy();
    expect(within(country).queryByRole('option', { name: 'Narnia' })).toBeNull();
    await user.type(screen.getByLabelText(/^Routing number/), 'BARCGB22');
    await user.click(screen.getByRole('button', { name: 'Add beneficiary' }));
    expect(await screen.findByText(validationMessages.routeNumberIsSwift)).toBeTruthy();
    expect(screen.queryByText(/Route number/)).toBeNull();
  });

  it.each([
    ['payee_name_mismatch', 'accountName', 'The name on this account is Grace Hopper. Save the payee with that name if it is who you want to pay.'],
    ['own_account_payee', 'accountNumber', 'This is one of your own accounts: choose it on the transfer form under "Transfer within my accounts"'],
  ])('puts the refusal %s of a payee of this bank under its field', async (code, field, message) => {
    const user = userEvent.setup();
    renderApp('/add-beneficiaries', {
      'GET /api/v1/me': signedIn,
      'POST /api/v1/beneficiaries': { status: 422, body: { error: { code, message, fields: { [field]: message } } } },
    });
    await user.click(await screen.findByRole('radio', { name: 'This bank' }));
    await user.type(screen.getByLabelText('Account name'), 'Grace Hoper');
    await user.type(screen.getByLabelText('Account number'), '6043797155');
    await user.selectOptions(screen.getByLabelText('Country name'), 'United States');
    await user.click(screen.getByRole('button', { name: 'Add beneficiary' }));
    expect(await screen.findByText(message)).toBeTruthy();
    const label = field === 'accountName' ? 'Account name' : 'Account number';
    expect(screen.getByLabelText(label).getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('shows a duplicate in a dialog', async () => {
    const user = userEvent.setup();
    renderApp('/add-beneficiaries', {
      'GET /api/v1/me': signedIn,
      'POST /api/v1/beneficiaries': { status: 409, body: { error: { code: 'conflict', message: 'This account is already one of your beneficiaries' } } },
    });
    await user.click(await screen.findByRole('radio', { name: 'This bank' }));
    await user.type(screen.getByLabelText('Account name'), 'Grace Hopper');
    await user.type(screen.getByLabelText('Account number'), '6043797155');
    await user.selectOptions(screen.getByLabelText('Country name'), 'United States');
    await user.click(screen.getByRole('button', { name: 'Add beneficiary' }));
    const alert = await screen.findByRole('alertdialog', { name: 'The beneficiary was not added' });
    expect(within(alert).getByText('This account is already one of your beneficiaries')).toBeTruthy();
  });
});
