import { screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fundingSourceMessages } from '@strongroom/contracts/funding-sources.ts';
import { noAccountMessages, resultMessages } from '@strongroom/contracts/messages.ts';
import { formatDate } from '../../../lib/dates.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { renderApp, signedIn, type FakeApi } from '../../../test/render-app.tsx';
import { followIntervalMs } from '../../../lib/api/get-transfer.ts';
import { sourceList, verifiedSource, waitingSource } from '../funding-sources/test-fixtures.ts';
import { apiError, checking, created, paymentOf, savings, sentRequestOf, type SentRequest } from '../../../test/payment-fixtures.ts';
import { depositReceivedTitle } from './deposit-page.tsx';

// The screen is a lazy chunk; loaded once here, no test spends its wait on the import.
beforeAll(() => import('./deposit-page.tsx'));

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const expectedSettlementAt = '2026-03-09T15:00:00.000Z';
const deposit = paymentOf({
  kind: 'deposit',
  status: 'pending',
  amountCents: 5_025,
  fromAccountId: null,
  toAccountId: savings.id,
  counterparty: { name: 'Dana Demo', accountNumber: '•••• 0055', bankName: null, routeNumber: '011000015', country: null },
  expectedSettlementAt,
});

const secondSource = {
  ...verifiedSource,
  id: '9f5b1a6c-2d8e-4c7f-9e0a-5b6c7d8e9f0a',
  accountName: 'Dana Demo',
  last4: '3344',
  accountType: 'savings' as const,
};

function depositApi(extra: FakeApi = {}): FakeApi {
  return {
    'GET /api/v1/me': signedIn,
    'GET /api/v1/accounts': { status: 200, body: [checking, savings] },
    'GET /api/v1/funding-sources': sourceList(verifiedSource),
    ...extra,
  };
}

async function fillDeposit(user: UserEvent, amount: string) {
  await user.type(await screen.findByRole('textbox', { name: /^Amount/ }), amount);
  await user.type(screen.getByRole('textbox', { name: 'Reason' }), 'Birthday money');
}

// Whole journeys through the app: generous time when the machine is busy running every suite at once.
describe('/deposit', { timeout: 20_000 }, () => {
  it('preselects the first account, shows its type and number, and changes them with the account', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp('/deposit', depositApi());
    const account = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Account' });
    expect(account.value).toBe(checking.id);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Account type' }).value).toBe('Checking');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Account number' }).readOnly).toBe(true);
    await user.selectOptions(account, savings.id);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Account number' }).value).toBe(savings.number);
  });

  it('deposits from the only verified account at another bank, chosen already, and leads to the customer’s other banks', async () => {
    renderApp('/deposit', depositApi({ 'GET /api/v1/funding-sources': sourceList(waitingSource, verifiedSource) }));
    const from = await screen.findByRole<HTMLSelectElement>('combobox', { name: /^From/ });
    expect(from.value).toBe(verifiedSource.id);
    // Only verified accounts can be chosen.
    expect(
      within(from)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Dana Demo · Checking •••• 0055']);
    expect(screen.getByRole('link', { name: 'Your other banks' }).getAttribute('href')).toBe('/deposit/sources');
  });

  it('asks which account at another bank when there are several, preselecting the one the address names', async () => {
    const user = userEvent.setup({ delay: null });
    const { unmount } = renderApp('/deposit', depositApi({ 'GET /api/v1/funding-sources': sourceList(secondSource, verifiedSource) }));
    const from = await screen.findByRole<HTMLSelectElement>('combobox', { name: /^From/ });
    expect(from.value).toBe('');
    await fillDeposit(user, '20');
    await user.click(screen.getByRole('button', { name: 'Deposit' }));
    expect(await screen.findByText('field should not be empty')).toBeTruthy();
    expect(from.getAttribute('aria-invalid')).toBe('true');
    unmount();
    queryClient.clear();

    renderApp(`/deposit?source=${verifiedSource.id}`, depositApi({ 'GET /api/v1/funding-sources': sourceList(secondSource, verifiedSource) }));
    expect((await screen.findByRole<HTMLSelectElement>('combobox', { name: /^From/ })).value).toBe(verifiedSource.id);
  });

  it('tells a customer whose document was refused that their accounts are not open yet, and where to send it again', async () => {
    const refused = { status: 200, body: { ...signedIn.body, user: { ...signedIn.body.user, identityStatus: 'rejected', accountVerified: false } } };
    renderApp('/deposit', depositApi({ 'GET /api/v1/me': refused, 'GET /api/v1/accounts': { status: 200, body: [] } }));
    expect(await screen.findByText(noAccountMessages.identityRefused)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Send your identity document' }).getAttribute('href')).toBe('/registeration');
    expect(screen.queryByRole('form', { name: 'Deposit' })).toBeNull();
  });

  it('explains instead of showing the form when no account at another bank is verified, and leads to linking one', async () => {
    const { unmount } = renderApp('/deposit', depositApi({ 'GET /api/v1/funding-sources': sourceList() }));
    expect(await screen.findByRole('heading', { name: 'No account to deposit from yet' })).toBeTruthy();
    expect(screen.getByText(fundingSourceMessages.noFundingSource)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Link an account' }).getAttribute('href')).toBe('/deposit/sources');
    expect(screen.getByRole('link', { name: 'Your other banks' }).getAttribute('href')).toBe('/deposit/sources');
    expect(screen.queryByRole('form', { name: 'Deposit' })).toBeNull();
    unmount();
    queryClient.clear();

    renderApp('/deposit', depositApi({ 'GET /api/v1/funding-sources': sourceList(waitingSource) }));
    expect(await screen.findByRole('heading', { name: 'Verify your account at another bank first' })).toBeTruthy();
    expect(screen.getByText('Dana Demo · Savings •••• 7788 is waiting for you to enter its two small deposits.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Verify your account' }).getAttribute('href')).toBe('/deposit/sources');
  });

  it('says the deposit was received and when it is available, then, once it has cleared, that it was successful', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: SentRequest[] = [];
    const reads = vi.fn(() => ({ status: 200, body: { transfer: { ...deposit, status: 'completed', expectedSettlementAt: null } } }));
    renderApp(
      '/deposit',
      depositApi({
        'POST /api/v1/deposits': (init) => {
          sent.push(sentRequestOf(init));
          return created(deposit);
        },
        [`GET /api/v1/transfers/${deposit.id}`]: reads,
      }),
    );
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Account' }), savings.id);
    await fillDeposit(user, '50.25');
    await user.click(screen.getByRole('button', { name: 'Deposit' }));

    const result = await screen.findByRole('dialog', { name: `${depositReceivedTitle}: it clears by ${formatDate(expectedSettlementAt)}` });
    expect(within(result).getByText('Pending')).toBeTruthy();
    expect(within(result).getByText(`Available on ${formatDate(expectedSettlementAt)}.`)).toBeTruthy();
    expect(within(result).queryByText(/successful/)).toBeNull();
    expect(sent[0]?.body).toEqual({ accountId: savings.id, fundingSourceId: verifiedSource.id, amountCents: 5_025, reason: 'Birthday money' });
    expect(sent[0]?.idempotencyKey).toBeTruthy();

    expect(await within(result).findByText('Completed', {}, { timeout: followIntervalMs * 2 })).toBeTruthy();
    expect(screen.getByRole('dialog', { name: resultMessages.depositAccepted })).toBe(result);
    expect(reads).toHaveBeenCalledTimes(1);
    // Behind the popup the form is cleared for the next deposit, from and into the same accounts.
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Account', hidden: true }).value).toBe(savings.id);
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: /^From/, hidden: true }).value).toBe(verifiedSource.id);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Reason', hidden: true }).value).toBe('');
  });

  it('puts the day’s deposit limit, with what is left today, under the amount', async () => {
    const user = userEvent.setup({ delay: null });
    const message = 'Deposits are limited to $5,000.00 a day. You can deposit up to $1,200.00 more today.';
    renderApp(
      '/deposit',
      depositApi({ 'POST /api/v1/deposits': { status: 422, body: { error: { code: 'deposit_limit_exceeded', message, fields: { amountCents: message } } } } }),
    );
    await fillDeposit(user, '2000');
    await user.click(screen.getByRole('button', { name: 'Deposit' }));
    expect(await screen.findByText(message)).toBeTruthy();
    const amount = screen.getByRole('textbox', { name: /^Amount/ });
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(amount);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('shows the bank’s refusal of an account at another bank that can no longer be used', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp('/deposit', depositApi({ 'POST /api/v1/deposits': apiError(409, 'no_funding_source', fundingSourceMessages.noFundingSource) }));
    await fillDeposit(user, '20');
    await user.click(screen.getByRole('button', { name: 'Deposit' }));
    const alert = await screen.findByRole('alertdialog', { name: 'The deposit was not made' });
    expect(within(alert).getByText(fundingSourceMessages.noFundingSource)).toBeTruthy();
  });
});
