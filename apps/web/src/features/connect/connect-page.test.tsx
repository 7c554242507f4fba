import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dataScopes, type ConnectRequest } from '@strongroom/contracts/connected-apps.ts';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, signedIn, unauthenticated, validationFailed, type FakeApi } from '../../test/render-app.tsx';
import { sentRequestOf, stepUpRequired, type SentRequest } from '../../test/payment-fixtures.ts';
import { appNavigation } from './leave-for-app.ts';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  queryClient.clear();
});

const uid = 'pR3quest-uid';
const requestPath = `/api/v1/connect/requests/${uid}`;
const checkingId = '0b9c6d4e-1f2a-4b3c-8d5e-6f7a8b9c0d1e';
const savingsId = '1c0d7e5f-2a3b-4c4d-9e6f-7a8b9c0d1e2f';
const redirectTo = 'http://localhost/oauth/auth/pR3quest-uid';

const connectRequest: ConnectRequest = {
  uid,
  app: { id: 'r1', name: 'Pennywise (sandbox)', logoUrl: null, contactEmail: 'hello@pennywise.example' },
  scopes: [...dataScopes],
  accounts: [
    { id: checkingId, name: 'Everyday checking', maskedNumber: 'Checking ••1234' },
    { id: savingsId, name: 'Rainy day', maskedNumber: 'Savings ••9876' },
  ],
  maxDays: 365,
};

function connectApi(extra: FakeApi = {}): FakeApi {
  return { 'GET /api/v1/me': signedIn, [`GET ${requestPath}`]: { status: 200, body: connectRequest }, ...extra };
}

function watchNavigation() {
  return vi.spyOn(appNavigation, 'leave').mockImplementation(() => undefined);
}

describe('/connect/:uid, the consent page', { timeout: 20_000 }, () => {
  it('shows who asks, every requested cluster ticked, no account ticked, the longest time with its end date, and where to revoke', async () => {
    renderApp(`/connect/${uid}`, connectApi());
    expect(await screen.findByRole('heading', { level: 1, name: 'Pennywise (sandbox) wants to see your data' })).toBeTruthy();
    expect(screen.getByText('PS')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'hello@pennywise.example' }).getAttribute('href')).toBe('mailto:hello@pennywise.example');
    const clusters = screen.getByRole('group', { name: 'What Pennywise (sandbox) wants to see' });
    const clusterBoxes = within(clusters).getAllByRole('checkbox');
    expect(clusterBoxes).toHaveLength(4);
    expect(clusterBoxes.every((box) => (box as HTMLInputElement).checked)).toBe(true);
    expect(within(clusters).getByText('Account names, types, the last four digits of their numbers, and their current and available balances.')).toBeTruthy();
    const accounts = screen.getByRole('group', { name: 'From which accounts' });
    expect(
      within(accounts)
        .getAllByRole('checkbox')
        .map((box) => (box as HTMLInputElement).checked),
    ).toEqual([false, false]);
    expect(within(accounts).getByText('Checking ••1234')).toBeTruthy();
    expect((screen.getByRole('spinbutton', { name: 'For how long (days)' }) as HTMLInputElement).value).toBe('365');
    expect(screen.getByText(/^Access ends on [A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4}\.$/)).toBeTruthy();
    expect(screen.getByText(/never shares your password with Pennywise \(sandbox\)/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Settings › Connected apps' }).getAttribute('href')).toBe('/settings/connected-apps');
  });

  it('refuses no account, no kind of data and a number of days out of range, in words, and sends nothing', async () => {
    const user = userEvent.setup({ delay: null });
    const { fetchMock } = renderApp(`/connect/${uid}`, connectApi());
    const clusters = await screen.findByRole('group', { name: 'What Pennywise (sandbox) wants to see' });
    for (const box of within(clusters).getAllByRole('checkbox')) await user.click(box);
    const days = screen.getByRole('spinbutton', { name: 'For how long (days)' });
    await user.clear(days);
    await user.type(days, '400');
    await user.click(screen.getByRole('button', { name: 'Allow' }));
    expect(await screen.findByText('choose at least one account')).toBeTruthy();
    expect(screen.getByText('choose at least one kind of data')).toBeTruthy();
    expect(screen.getByText('at most 365 days')).toBeTruthy();
    await user.clear(days);
    await user.type(days, '0');
    await user.click(screen.getByRole('button', { name: 'Allow' }));
    expect(await screen.findByText('at least 1 day')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('allows one account and fewer clusters for 30 days after the code, with one Idempotency-Key, then goes on to the bank’s redirect', async () => {
    const user = userEvent.setup({ delay: null });
    const leave = watchNavigation();
    const sent: SentRequest[] = [];
    renderApp(
      `/connect/${uid}`,
      connectApi({
        [`POST ${requestPath}/approve`]: (init) => {
          const request = sentRequestOf(init);
          sent.push(request);
          return request.stepUp === 'ch-7' ? { status: 200, body: { redirectTo } } : stepUpRequired('ch-7');
        },
        'POST /api/v1/step-up/ch-7': { status: 200, body: { verified: true } },
      }),
    );
    await user.click(await screen.findByRole('checkbox', { name: /^Everyday checking/ }));
    await user.click(screen.getByRole('checkbox', { name: /^Statements/ }));
    const days = screen.getByRole('spinbutton', { name: 'For how long (days)' });
    await user.clear(days);
    await user.type(days, '30');
    await user.click(screen.getByRole('button', { name: 'Allow' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.click(within(dialog).getByRole('textbox', { name: 'Digit 1 of 6' }));
    await user.keyboard('123456');

    await waitFor(() => expect(leave).toHaveBeenCalledWith(redirectTo));
    expect(sent.map((request) => request.stepUp)).toEqual([null, 'ch-7']);
    expect(sent[0]?.idempotencyKey).toBeTruthy();
    expect(sent[1]?.idempotencyKey).toBe(sent[0]?.idempotencyKey);
    expect(sent[1]?.body).toEqual({
      scopes: ['fdx:accountdetailed:read', 'fdx:transactions:read', 'fdx:customercontact:read'],
      accountIds: [checkingId],
      days: 30,
    });
  });

  it('Don’t allow asks once more, then refuses and goes back to the app; Cancel sends nothing', async () => {
    const user = userEvent.setup({ delay: null });
    const leave = watchNavigation();
    const refusals: unknown[] = [];
    renderApp(
      `/connect/${uid}`,
      connectApi({
        [`POST ${requestPath}/refuse`]: (init) => {
          refusals.push(init?.body);
          return { status: 200, body: { redirectTo: `${redirectTo}?refused` } };
        },
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Don’t allow' }));
    const confirm = await screen.findByRole('dialog', { name: 'Don’t allow Pennywise (sandbox)?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(refusals).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Don’t allow' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Don’t allow Pennywise (sandbox)?' })).getByRole('button', { name: 'Don’t allow' }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith(`${redirectTo}?refused`));
    expect(refusals).toHaveLength(1);
  });

  it('puts the bank’s field messages under their fields', async () => {
    const user = userEvent.setup({ delay: null });
    watchNavigation();
    renderApp(`/connect/${uid}`, connectApi({ [`POST ${requestPath}/approve`]: validationFailed({ days: 'at most 90 days for this app' }) }));
    await user.click(await screen.findByRole('checkbox', { name: /^Rainy day/ }));
    await user.click(screen.getByRole('button', { name: 'Allow' }));
    expect(await screen.findByText('at most 90 days for this app')).toBeTruthy();
    expect(screen.getByRole('spinbutton', { name: 'For how long (days)' }).getAttribute('aria-invalid')).toBe('true');
  });

  it('says a request that expired or was answered already cannot be answered, and to start again from the app', async () => {
    renderApp(`/connect/${uid}`, connectApi({ [`GET ${requestPath}`]: { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } } }));
    expect(await screen.findByText('This request has expired or was already answered. Go back to the app and start again.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Allow' })).toBeNull();
  });

  it('the same words when the request expires while the customer decides', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp(`/connect/${uid}`, connectApi({ [`POST ${requestPath}/refuse`]: { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } } }));
    await user.click(await screen.findByRole('button', { name: 'Don’t allow' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Don’t allow Pennywise (sandbox)?' })).getByRole('button', { name: 'Don’t allow' }));
    expect(await screen.findByText('This request has expired or was already answered. Go back to the app and start again.')).toBeTruthy();
  });

  it('a request that could not be loaded offers to try again', async () => {
    renderApp(
      `/connect/${uid}`,
      connectApi({ [`GET ${requestPath}`]: { status: 500, body: { error: { code: 'internal', message: 'The bank had a problem' } } } }),
    );
    expect(await screen.findByRole('heading', { name: 'We could not load this request' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('names an account once when its masked number already carries its name', async () => {
    const named = { ...connectRequest, accounts: [{ id: checkingId, name: 'Easy Checking', maskedNumber: 'Easy Checking ••3831' }] };
    renderApp(`/connect/${uid}`, connectApi({ [`GET ${requestPath}`]: { status: 200, body: named } }));
    expect(await screen.findByRole('checkbox', { name: 'Easy Checking ••3831' })).toBeTruthy();
    expect(screen.getAllByText(/Easy Checking/)).toHaveLength(1);
  });

  it('a signed-out visitor signs in on this page and stays on it', async () => {
    renderApp(`/connect/${uid}`, connectApi({ 'GET /api/v1/me': unauthenticated }));
    expect(await screen.findByRole('button', { name: /^Sign in/ })).toBeTruthy();
    expect(window.location.pathname).toBe(`/connect/${uid}`);
  });
});
