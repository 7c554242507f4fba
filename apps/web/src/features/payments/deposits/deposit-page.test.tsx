import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resultMessages } from '@strongroom/contracts/messages.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { renderApp, signedIn } from '../../../test/render-app.tsx';
import { followIntervalMs } from '../api/get-transfer.ts';
import { checking, created, paymentOf, savings, sentRequestOf, type SentRequest } from '../payment/test-fixtures.ts';

// The screen is a lazy chunk; loaded once here, no test spends its wait on the import.
beforeAll(() => import('./deposit-page.tsx'));

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const deposit = paymentOf({ kind: 'deposit', status: 'pending', amountCents: 5_025, fromAccountId: null, toAccountId: savings.id });

// Whole journeys through the app: generous time when the machine is busy running every suite at once.
describe('/deposit', { timeout: 20_000 }, () => {
  it('preselects the first account, shows its type and number, and changes them with the account', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp('/deposit', { 'GET /api/v1/me': signedIn, 'GET /api/v1/accounts': { status: 200, body: [checking, savings] } });
    const account = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Account' });
    expect(account.value).toBe(checking.id);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Account type' }).value).toBe('Checking');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Account number' }).readOnly).toBe(true);
    await user.selectOptions(account, savings.id);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Account number' }).value).toBe(savings.number);
  });

  it('says the deposit was successful with its status Pending, then follows it until it is Completed', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: SentRequest[] = [];
    const reads = vi.fn(() => ({ status: 200, body: { transfer: { ...deposit, status: 'completed' } } }));
    renderApp('/deposit', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/accounts': { status: 200, body: [checking, savings] },
      'POST /api/v1/deposits': (init) => {
        sent.push(sentRequestOf(init));
        return created(deposit);
      },
      [`GET /api/v1/transfers/${deposit.id}`]: reads,
    });
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Account' }), savings.id);
    await user.type(screen.getByRole('textbox', { name: /^Amount/ }), '50.25');
    await user.type(screen.getByRole('textbox', { name: 'Reason' }), 'Birthday money');
    await user.click(screen.getByRole('button', { name: 'Deposit' }));

    const result = await screen.findByRole('dialog', { name: resultMessages.depositAccepted });
    expect(within(result).getByText('Pending')).toBeTruthy();
    expect(sent[0]?.body).toEqual({ accountId: savings.id, amountCents: 5_025, reason: 'Birthday money' });
    expect(sent[0]?.idempotencyKey).toBeTruthy();

    expect(await within(result).findByText('Completed', {}, { timeout: followIntervalMs * 2 })).toBeTruthy();
    expect(reads).toHaveBeenCalledTimes(1);
    // Behind the popup the form is cleared for the next deposit, into the same account.
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Account', hidden: true }).value).toBe(savings.id);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Reason', hidden: true }).value).toBe('');
  });
});
