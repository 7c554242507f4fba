import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp, validationFailed, type FakeAnswer, type FakeApi } from '../../../test/render-app.tsx';
import { staffMe } from '../disputes/test-fixtures.ts';
import { adjustment, booksAccounts, booksDays, ok } from './test-fixtures.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

function pageApi(extra: FakeApi = {}, items: unknown[] = []): FakeApi {
  return {
    'GET /api/v1/staff/me': staffMe('finance'),
    'GET /api/v1/staff/books/accounts': ok(booksAccounts),
    'GET /api/v1/staff/books/days': ok(booksDays()),
    'GET /api/v1/staff/books/adjustments': ok({ items, nextCursor: null }),
    ...extra,
  };
}

/** Fills the form with $12.34 from the ACH settlement account to reconciliation differences and asks to review it. */
async function fillAndReview(user: ReturnType<typeof userEvent.setup>, amount = '12.34') {
  await user.selectOptions(await screen.findByLabelText('Debit account'), 'settlementAch');
  await user.selectOptions(screen.getByLabelText('Credit account'), 'reconciliationDifferences');
  await user.type(screen.getByLabelText('Amount'), amount);
  await user.type(screen.getByLabelText(/^Reason/), 'Bank fee missing from the ledger');
  await user.click(screen.getByRole('button', { name: 'Review the entry' }));
}

describe('/ops/books/adjustments', () => {
  it('checks the form as the server does, before anything is asked', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp('/ops/books/adjustments', pageApi());
    await user.click(await screen.findByRole('button', { name: 'Review the entry' }));
    expect(await screen.findByText('choose the account to debit')).toBeTruthy();
    expect(screen.getByText('choose the account to credit')).toBeTruthy();
    expect(screen.getAllByText('field should not be empty')).toHaveLength(2);
    await user.selectOptions(screen.getByLabelText('Debit account'), 'settlementAch');
    await user.selectOptions(screen.getByLabelText('Credit account'), 'settlementAch');
    await user.click(screen.getByRole('button', { name: 'Review the entry' }));
    expect(await screen.findByText('choose an account other than the one debited')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('confirms the entry in words, posts it in cents, and says it is posted (201)', async () => {
    const user = userEvent.setup();
    let posted: unknown;
    renderApp(
      '/ops/books/adjustments',
      pageApi({
        'POST /api/v1/staff/books/adjustments': (init): FakeAnswer => {
          posted = jsonBodyOf(init);
          return { status: 201, body: { adjustment: adjustment() } };
        },
      }),
    );
    await fillAndReview(user);
    const dialog = await screen.findByRole('dialog', {
      name: 'Post an adjusting entry of $12.34: debit Settlement account: ACH, credit Reconciliation differences?',
    });
    expect(within(dialog).getByText('Booked on: the open day')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Post $12.34' }));
    expect(await screen.findByText('Posted: $12.34, booked on Nov 28, 2026.')).toBeTruthy();
    expect(posted).toEqual({
      debitAccount: 'settlementAch',
      creditAccount: 'reconciliationDifferences',
      amountCents: 1_234,
      reason: 'Bank fee missing from the ledger',
    });
  });

  it('says an entry of the four-eyes amount waits for a second member (202)', async () => {
    const user = userEvent.setup();
    renderApp(
      '/ops/books/adjustments',
      pageApi({
        'POST /api/v1/staff/books/adjustments': {
          status: 202,
          body: { adjustment: adjustment({ amountCents: 250_000, status: 'awaiting_approval', postedOn: null }) },
        },
      }),
    );
    await fillAndReview(user, '2,500');
    const dialog = await screen.findByRole('dialog', { name: /of \$2,500\.00/ });
    expect(within(dialog).getByText(/waits for a second finance member’s approval \(\$1,000\.00 or more\)/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Ask for approval of $2,500.00' }));
    expect(await screen.findByText(/Waiting for a second approval: the \$2,500\.00 entry is recorded/)).toBeTruthy();
  });

  it('shows a closed day (422) at the Booked on field, and field refusals (400) at their fields', async () => {
    const user = userEvent.setup();
    let answer: FakeAnswer = {
      status: 422,
      body: {
        error: {
          code: 'business_day_closed',
          message: '2026-11-27 is closed: a correction is booked on an open day (2026-11-28 or later)',
          fields: { postedOn: '2026-11-27 is closed: a correction is booked on an open day (2026-11-28 or later)' },
        },
      },
    };
    renderApp('/ops/books/adjustments', pageApi({ 'POST /api/v1/staff/books/adjustments': () => answer }));
    await fillAndReview(user);
    await user.click(await screen.findByRole('button', { name: 'Post $12.34' }));
    expect(await screen.findByText('2026-11-27 is closed: a correction is booked on an open day (2026-11-28 or later)')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByLabelText(/^Booked on/).getAttribute('aria-invalid')).toBe('true');
    answer = validationFailed({ amountCents: 'enter at most $1,000,000,000.00', debitAccount: 'this account cannot be adjusted' });
    await user.click(screen.getByRole('button', { name: 'Review the entry' }));
    await user.click(await screen.findByRole('button', { name: 'Post $12.34' }));
    expect(await screen.findByText('enter at most $1,000,000,000.00')).toBeTruthy();
    expect(screen.getByText('this account cannot be adjusted')).toBeTruthy();
    expect(screen.getByLabelText('Amount').getAttribute('aria-invalid')).toBe('true');
  });

  it('lets a second member approve one waiting, with a reason, and says plainly when the one who asked tries (403 four_eyes_required)', async () => {
    const user = userEvent.setup();
    const waiting = adjustment({
      amountCents: 250_000,
      status: 'awaiting_approval',
      postedOn: null,
      requestedBy: '00000000-0000-4000-8000-00000000f002',
      requestedByEmail: 'first@bank.test',
    });
    let decided: unknown;
    let answer: FakeAnswer = {
      status: 403,
      body: { error: { code: 'four_eyes_required', message: 'A second person must approve' } },
    };
    renderApp(
      '/ops/books/adjustments',
      pageApi(
        {
          [`POST /api/v1/staff/books/adjustments/${waiting.id}/decision`]: (init) => {
            decided = jsonBodyOf(init);
            return answer;
          },
        },
        [
          waiting,
          adjustment({ id: 'a2', requestedBy: 's1', requestedByEmail: 'finance@bank.test' }),
          adjustment({
            id: 'a3',
            status: 'rejected',
            requestedBy: 's1',
            requestedByEmail: 'finance@bank.test',
            decidedBy: '00000000-0000-4000-8000-00000000f003',
            decidedByEmail: 'second@bank.test',
            decisionReason: 'Not in the statement',
          }),
        ],
      ),
    );
    const table = await screen.findByRole('table', { name: 'Adjusting entries, newest first' });
    const [, first, second, third] = within(table).getAllByRole('row');
    expect(first?.textContent).toContain('Waiting for a second approval');
    expect(first?.textContent).toContain('The open day');
    expect(second?.textContent).toContain('Posted');
    // Staff are named by their email, never by their id.
    expect(first?.textContent).toContain('By first@bank.test');
    expect(first?.textContent).not.toContain(waiting.requestedBy);
    expect(third?.textContent).toContain('second@bank.test: Not in the statement');
    // The signed-in member's own entry is theirs in words.
    expect(second?.textContent).toContain('By you');
    expect(within(second as HTMLElement).queryByRole('button')).toBeNull();
    await user.click(within(first as HTMLElement).getByRole('button', { name: 'Approve $2,500.00' }));
    const dialog = await screen.findByRole('dialog', { name: /^Approve and post \$2,500\.00: debit Settlement account: ACH/ });
    expect(within(dialog).getByText('Asked for by first@bank.test, because: Bank fee missing from the ledger')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Approve: post $2,500.00' }));
    expect(await within(dialog).findByText('field should not be empty')).toBeTruthy();
    await user.type(within(dialog).getByLabelText(/^Reason/), 'Matches the bank statement');
    await user.click(within(dialog).getByRole('button', { name: 'Approve: post $2,500.00' }));
    expect(await within(dialog).findByText(/A second finance member must decide this: not the one who asked for the entry/)).toBeTruthy();
    expect(decided).toEqual({ decision: 'approve', reason: 'Matches the bank statement' });
    answer = { status: 200, body: { adjustment: { ...waiting, status: 'posted', postedOn: '2026-11-28', decidedBy: 's1' } } };
    await user.click(within(dialog).getByRole('button', { name: 'Approve: post $2,500.00' }));
    expect(await within(dialog).findByText(/is posted\./)).toBeTruthy();
  });

  it('says when there are no entries, and when they could not be loaded; the navigation marks this page only, not Books above it', async () => {
    renderApp('/ops/books/adjustments', pageApi());
    expect(await screen.findByText('No adjusting entries yet')).toBeTruthy();
    const navigation = screen.getByRole('navigation', { name: 'Back office' });
    expect(within(navigation).getByRole('link', { name: 'Adjusting entries' }).getAttribute('aria-current')).toBe('page');
    expect(within(navigation).getByRole('link', { name: 'Books' }).getAttribute('aria-current')).toBeNull();
    cleanup();
    queryClient.clear();
    renderApp(
      '/ops/books/adjustments',
      pageApi({
        'GET /api/v1/staff/books/adjustments': { status: 500, body: { error: { code: 'internal_error', message: 'Something went wrong on our side' } } },
      }),
    );
    expect(await screen.findByText('The adjusting entries could not be loaded', undefined, { timeout: 10_000 })).toBeTruthy();
  });
});
