import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { countryMessages } from '@strongroom/contracts/countries.ts';
import { noAccountMessages, validationMessages } from '@strongroom/contracts/messages.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { renderApp, signedIn, type FakeApi } from '../../../test/render-app.tsx';
import { sourceList, verifiedSource, waitingSource } from '../funding-sources/test-fixtures.ts';
import { checking, created, paymentOf, sentRequestOf } from '../../../test/payment-fixtures.ts';

// The screen is a lazy chunk; loaded once here, no test spends its wait on the import.
beforeAll(() => import('./withdraw-page.tsx'));

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

function withdrawApi(extra: FakeApi = {}): FakeApi {
  return {
    'GET /api/v1/me': signedIn,
    'GET /api/v1/accounts': { status: 200, body: [checking] },
    'GET /api/v1/funding-sources': sourceList(verifiedSource, waitingSource),
    ...extra,
  };
}

// Whole journeys through the app: generous time when the machine is busy running every suite at once.
describe('/withdraw', { timeout: 20_000 }, () => {
  it('offers the verified linked bank without typing it again, and shows a review before Confirm', async () => {
    const user = userEvent.setup({ delay: null });
    const withdrawals = vi.fn((_init?: RequestInit) => created(paymentOf({ kind: 'withdrawal', status: 'pending', amountCents: 12_000 })));
    renderApp('/withdraw', withdrawApi({ 'POST /api/v1/withdrawals': withdrawals }));
    const to = await screen.findByRole<HTMLSelectElement>('combobox', { name: /^To/ });
    expect(to.value).toBe(verifiedSource.id);
    // Only verified links are offered: the one still waiting for its small deposits is not.
    expect(within(to).queryByRole('option', { name: /7788/ })).toBeNull();
    expect(screen.queryByRole('textbox', { name: /Bank address/ })).toBeNull();
    expect(screen.queryByRole('combobox', { name: /^Country/ })).toBeNull();

    await user.type(screen.getByRole('textbox', { name: /^Amount/ }), '120');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const review = await screen.findByRole('dialog', { name: 'Confirm the withdrawal' });
    expect(within(review).getByText('Dana Demo · Checking •••• 0055')).toBeTruthy();
    expect(within(review).getByText('$120.00')).toBeTruthy();
    expect(withdrawals).not.toHaveBeenCalled();

    await user.click(within(review).getByRole('button', { name: 'Confirm' }));
    await vi.waitFor(() => expect(withdrawals).toHaveBeenCalledTimes(1));
    expect(sentRequestOf(withdrawals.mock.calls[0]?.[0]).body).toEqual({ fromAccountId: checking.id, amountCents: 12_000, fundingSourceId: verifiedSource.id });
  });

  it('types another account with the country chosen from the list, a routing number, and a SWIFT code told international transfers are not offered', async () => {
    const user = userEvent.setup({ delay: null });
    const withdrawals = vi.fn(() => ({ status: 500, body: {} }));
    renderApp('/withdraw', withdrawApi({ 'POST /api/v1/withdrawals': withdrawals }));
    await user.selectOptions(await screen.findByRole('combobox', { name: /^To/ }), 'typed');
    const country = screen.getByRole<HTMLSelectElement>('combobox', { name: /^Country/ });
    expect(country.value).toBe('United States');
    expect(within(country).getByRole('option', { name: 'United Kingdom' })).toBeTruthy();
    expect(within(country).queryByRole('option', { name: 'Narnia' })).toBeNull();
    expect(screen.queryByLabelText(/Route number/)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findAllByText(validationMessages.required)).toHaveLength(7);
    await user.type(screen.getByRole('textbox', { name: /^Routing number/ }), 'DEUTDEFF500');
    await user.type(screen.getByRole('textbox', { name: 'Account number' }), '12ab');
    expect(await screen.findByText(validationMessages.routeNumberIsSwift)).toBeTruthy();
    expect(await screen.findByText(validationMessages.accountNumberInvalid)).toBeTruthy();
    expect(screen.queryByText(countryMessages.notListed)).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(withdrawals).not.toHaveBeenCalled();

    // A US state is chosen from the list too; another country's region is typed.
    expect(within(screen.getByRole('combobox', { name: /^State name/ })).getByRole('option', { name: 'Ohio' })).toBeTruthy();
    await user.selectOptions(country, 'France');
    expect(screen.getByRole('textbox', { name: /^State name/ })).toBeTruthy();
  });

  it('says insufficient funds before Confirm when the available balance already shows it, and sends nothing', async () => {
    const user = userEvent.setup({ delay: null });
    const withdrawals = vi.fn(() => ({ status: 500, body: {} }));
    renderApp('/withdraw', withdrawApi({ 'POST /api/v1/withdrawals': withdrawals }));
    await user.type(await screen.findByRole('textbox', { name: /^Amount/ }), '4250.01');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(/^Insufficient funds: Easy Checking has \$4,250\.00 available/)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(withdrawals).not.toHaveBeenCalled();
  });

  it('asks for the account to be typed when no linked bank is verified, and says where to link one', async () => {
    renderApp('/withdraw', withdrawApi({ 'GET /api/v1/funding-sources': sourceList(waitingSource) }));
    const to = await screen.findByRole<HTMLSelectElement>('combobox', { name: /^To/ });
    expect(to.value).toBe('typed');
    expect(screen.getByRole('textbox', { name: /^Bank address/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Your other banks' }).getAttribute('href')).toBe('/deposit/sources');
  });

  it('tells an approved customer with no open account that their accounts are closed, and where their history is', async () => {
    renderApp('/withdraw', { 'GET /api/v1/me': signedIn, 'GET /api/v1/accounts': { status: 200, body: [] } });
    expect(await screen.findByText(noAccountMessages.accountsClosed)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See your history' }).getAttribute('href')).toBe('/transaction-history');
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
  });
});
