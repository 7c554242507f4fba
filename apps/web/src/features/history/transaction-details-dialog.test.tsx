import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp } from '../../test/render-app.tsx';
import { depositDetail, depositIn, historyApi, rentDetail, rentOut } from './test-fixtures.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const rentDetailPath = 'GET /api/v1/transactions/t1%3Aout';
const depositDetailPath = 'GET /api/v1/transactions/t5%3Ain';

/** Each term of the dialog's detail list and what it says. */
function facts(dialog: HTMLElement): Record<string, string> {
  return Object.fromEntries(
    within(dialog)
      .getAllByRole('term')
      .map((term) => [term.textContent, term.nextElementSibling?.textContent ?? '']),
  );
}

async function openRow(description: string): Promise<HTMLElement> {
  await userEvent.click(await screen.findByRole('button', { name: description }));
  return screen.getByRole('dialog', { name: 'Details' });
}

describe('the Details dialog', () => {
  it('shows a transfer’s read-only amount (written -$1,234.00) and date, and every field of the seed’s transfer detail', async () => {
    renderApp('/transaction-history', historyApi(undefined, { [rentDetailPath]: { status: 200, body: rentDetail } }));
    const dialog = await openRow('Rent for March');

    const amount = within(dialog).getByLabelText('Amount') as HTMLInputElement;
    expect(amount.readOnly).toBe(true);
    expect(amount.value).toBe('-$1,234.00');
    const date = within(dialog).getByLabelText('Date') as HTMLInputElement;
    expect(date.readOnly).toBe(true);
    expect(date.value).toBe('2026-03-14');

    await within(dialog).findByText('Grace Landlord');
    expect(facts(dialog)).toEqual({
      'Account number': '000123456789',
      'Account name': 'Grace Landlord',
      'Routing number': '021000021',
      Bank: 'First Example Bank',
      Reason: 'Rent for March',
      'Transfer medium': 'ACH',
      Status: 'In review',
      'From your account': 'Checking 6043797155',
      'Receipt reference': 'RCPT-7F3K-92QZ',
    });
  });

  it('shows a deposit’s id, date, amount and status, with the reason it was rejected', async () => {
    renderApp('/transaction-history', historyApi(undefined, { [depositDetailPath]: { status: 200, body: depositDetail } }));
    const dialog = await openRow('Savings jar');
    expect((within(dialog).getByLabelText('Amount') as HTMLInputElement).value).toBe('$1,000.00');
    expect((within(dialog).getByLabelText('Date') as HTMLInputElement).value).toBe('2026-03-07');
    await within(dialog).findByText('t5');
    expect(facts(dialog)).toEqual({
      'Deposit ID': 't5',
      Status: 'Rejected: The sending bank refused it',
      'Into your account': 'Checking 6043797155',
      'Receipt reference': 'RCPT-DEP-0001',
    });
  });

  it('says “Not applicable” for a field a transfer does not have', async () => {
    const ownTransfer = {
      ...rentDetail,
      counterparty: { name: 'Standard Savings', accountNumber: '6927529963', routeNumber: null, bankName: null },
      medium: 'Own account',
    };
    renderApp('/transaction-history', historyApi(undefined, { [rentDetailPath]: { status: 200, body: ownTransfer } }));
    const dialog = await openRow('Rent for March');
    await within(dialog).findByText('Own account');
    expect(facts(dialog)['Routing number']).toBe('Not applicable');
    expect(facts(dialog).Bank).toBeUndefined();
  });

  it('downloads the receipt PDF from its own link', async () => {
    renderApp('/transaction-history', historyApi(undefined, { [rentDetailPath]: { status: 200, body: rentDetail } }));
    const dialog = await openRow('Rent for March');
    const receipt = within(dialog).getByRole('link', { name: 'print receipt' });
    expect(receipt.getAttribute('href')).toBe('/api/v1/transactions/t1%3Aout/receipt');
    expect(receipt.hasAttribute('download')).toBe(true);
  });

  it('opens with Enter on the row’s description, and from a click anywhere on the row', async () => {
    const user = userEvent.setup();
    renderApp(
      '/transaction-history',
      historyApi(undefined, { [rentDetailPath]: { status: 200, body: rentDetail }, [depositDetailPath]: { status: 200, body: depositDetail } }),
    );
    const open = await screen.findByRole('button', { name: 'Rent for March' });
    open.focus();
    await user.keyboard('{Enter}');
    const dialog = screen.getByRole('dialog', { name: 'Details' });
    await within(dialog).findByText('Grace Landlord');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(screen.getByText('Deposit', { selector: 'td' }));
    expect(await within(screen.getByRole('dialog', { name: 'Details' })).findByText('t5')).toBeTruthy();
  });

  it('closes with the close button, the backspace icon and Escape', async () => {
    const user = userEvent.setup();
    renderApp('/transaction-history', historyApi(undefined, { [rentDetailPath]: { status: 200, body: rentDetail } }));
    let dialog = await openRow('Rent for March');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    dialog = await openRow('Rent for March');
    await user.click(within(dialog).getByRole('button', { name: 'Back to history' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    await openRow('Rent for March');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the server’s message in the error dialog when the details cannot be loaded, and closing the details hides it too', async () => {
    const user = userEvent.setup();
    renderApp(
      '/transaction-history',
      historyApi([rentOut, depositIn], { [rentDetailPath]: { status: 404, body: { error: { code: 'not_found', message: 'No such transaction' } } } }),
    );
    const dialog = await openRow('Rent for March');
    const error = await screen.findByRole('alertdialog', { name: 'The details could not be loaded' });
    expect(within(error).getByText('No such transaction')).toBeTruthy();
    expect(within(dialog).getByText(/The details could not be loaded/)).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Back to history' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
