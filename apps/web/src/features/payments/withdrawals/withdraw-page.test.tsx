import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { noAccountMessages, validationMessages } from '@strongroom/contracts/messages.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { renderApp, signedIn } from '../../../test/render-app.tsx';
import { checking } from '../payment/test-fixtures.ts';

// The screen is a lazy chunk; loaded once here, no test spends its wait on the import.
beforeAll(() => import('./withdraw-page.tsx'));

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

// Whole journeys through the app: generous time when the machine is busy running every suite at once.
describe('/withdraw', { timeout: 20_000 }, () => {
  it('requires all nine fields and checks the account and routing numbers', async () => {
    const user = userEvent.setup({ delay: null });
    const withdrawals = vi.fn(() => ({ status: 500, body: {} }));
    renderApp('/withdraw', { 'GET /api/v1/me': signedIn, 'GET /api/v1/accounts': { status: 200, body: [checking] }, 'POST /api/v1/withdrawals': withdrawals });
    await user.click(await screen.findByRole('button', { name: 'Withdraw' }));
    expect(await screen.findAllByText(validationMessages.required)).toHaveLength(8);

    await user.type(screen.getByRole('textbox', { name: 'Account number' }), '12ab');
    await user.type(screen.getByRole('textbox', { name: /^Route number/ }), '123456789');
    expect(await screen.findByText(validationMessages.accountNumberInvalid)).toBeTruthy();
    expect(await screen.findByText(validationMessages.routeNumberInvalid)).toBeTruthy();
    expect(withdrawals).not.toHaveBeenCalled();
  });

  it('tells an approved customer with no open account that their accounts are closed, and where their history is', async () => {
    renderApp('/withdraw', { 'GET /api/v1/me': signedIn, 'GET /api/v1/accounts': { status: 200, body: [] } });
    expect(await screen.findByText(noAccountMessages.accountsClosed)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See your history' }).getAttribute('href')).toBe('/transaction-history');
    expect(screen.queryByRole('button', { name: 'Withdraw' })).toBeNull();
  });
});
