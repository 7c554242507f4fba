import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, signedIn, type FakeAnswer, type FakeApi } from '../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  queryClient.clear();
});

const referral = { status: 200, body: { code: 'K7M2Q9XA', link: 'https://bank.test/signup?ref=K7M2Q9XA' } };
const noReferrals = { items: [], pendingCount: 0, paidCount: 0, paidCents: 0 };

/** The invite page's API: signed in, the referral code (or its failure), and `referrals` as the list. */
function inviteApi(referrals: object = noReferrals, code: FakeAnswer = referral): FakeApi {
  return { 'GET /api/v1/me': signedIn, 'GET /api/v1/me/referral': code, 'GET /api/v1/me/referrals': { status: 200, body: referrals } };
}

describe('/invite', () => {
  it('explains the $10.00 bonus behind a collapsible title, and shows the code and the link', async () => {
    const user = userEvent.setup();
    renderApp('/invite', inviteApi());
    const title = await screen.findByRole('button', { name: 'Get $10.00 referral bonus' });
    expect(title.getAttribute('aria-expanded')).toBe('false');
    await user.click(title);
    expect(title.getAttribute('aria-expanded')).toBe('true');
    expect(await screen.findByText('K7M2Q9XA')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Your link' }) as HTMLInputElement).value).toBe('https://bank.test/signup?ref=K7M2Q9XA');
    expect(await screen.findByText('No referrals yet')).toBeTruthy();
  });

  it('copies the link to the clipboard and says so', async () => {
    const user = userEvent.setup();
    renderApp('/invite', inviteApi());
    await user.click(await screen.findByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Referral link copied')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe('https://bank.test/signup?ref=K7M2Q9XA');
  });

  it('says the link was not copied when the browser refuses', async () => {
    const user = userEvent.setup();
    renderApp('/invite', inviteApi());
    const copy = await screen.findByRole('button', { name: 'Copy' });
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await user.click(copy);
    expect(await screen.findByText(/The link was not copied/)).toBeTruthy();
    expect(screen.queryByText('Referral link copied')).toBeNull();
  });

  it('lists referrals as pending or paid, in words, with the amount and no one’s details', async () => {
    renderApp(
      '/invite',
      inviteApi({
        items: [
          { id: 'r2', status: 'pending', bonusCents: 1000, createdAt: '2026-05-02T10:00:00.000Z', paidAt: null },
          { id: 'r1', status: 'paid', bonusCents: 1000, createdAt: '2026-05-01T10:00:00.000Z', paidAt: '2026-05-01T12:00:00.000Z' },
        ],
        pendingCount: 1,
        paidCount: 1,
        paidCents: 1000,
      }),
    );
    const table = await screen.findByRole('table', { name: 'Your referrals' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual(['Pending', 'Paid']);
    expect(rows.map((row) => within(row).getAllByRole('cell')[3]?.textContent)).toEqual(['$10.00', '$10.00']);
    expect(screen.getByText(/1 paid/).textContent).toContain('1 waiting');
  });

  it('says "Not paid" for a bonus the bank refused (a friend who was the referrer signing up again)', async () => {
    renderApp(
      '/invite',
      inviteApi({
        items: [{ id: 'r3', status: 'refused', bonusCents: 1000, createdAt: '2026-05-03T10:00:00.000Z', paidAt: null }],
        pendingCount: 0,
        paidCount: 0,
        paidCents: 0,
      }),
    );
    const table = await screen.findByRole('table', { name: 'Your referrals' });
    const [row] = within(table).getAllByRole('row').slice(1);
    expect(within(row!).getAllByRole('cell')[0]?.textContent).toBe('Not paid');
    expect(within(row!).getAllByRole('cell')[2]?.textContent).toBe('—');
  });

  it('offers Try again when the code cannot be loaded', async () => {
    renderApp('/invite', inviteApi(noReferrals, { status: 500, body: { error: { code: 'internal_error', message: 'Something went wrong' } } }));
    expect(await screen.findByText('We could not load your referral code', {}, { timeout: 5_000 })).toBeTruthy();
  });
});
