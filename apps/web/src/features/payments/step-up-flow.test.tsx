import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renewedChallengeNotice } from '../../components/step-up/use-step-up-request.ts';
import { jsonBodyOf, renderApp, signedIn, validationFailed, type FakeApi } from '../../test/render-app.tsx';
import { apiError, checking, created, paymentOf, sentRequestOf, stepUpRequired, type SentRequest } from '../../test/payment-fixtures.ts';

// The screen is a lazy chunk; loaded once here, no test spends its wait on the import.
beforeAll(() => import('./withdrawals/withdraw-page.tsx'));

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const withdrawal = paymentOf({ kind: 'withdrawal', status: 'pending', amountCents: 12_000 });

function codeOf(init: RequestInit | undefined): unknown {
  const body = jsonBodyOf(init);
  return typeof body === 'object' && body !== null && 'code' in body ? body.code : undefined;
}

/** The withdraw screen with its nine fields filled in; the step-up flow is the same on every money screen. */
async function fillWithdrawal(user: UserEvent) {
  await user.type(await screen.findByRole('textbox', { name: /^Amount/ }), '120');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Country' }), 'United States');
  await user.selectOptions(screen.getByRole('combobox', { name: 'State name' }), 'Illinois');
  await user.type(screen.getByRole('textbox', { name: 'Bank name' }), 'Prairie Bank');
  await user.type(screen.getByRole('textbox', { name: 'Bank address' }), '1 Main Street, Springfield');
  await user.type(screen.getByRole('textbox', { name: 'Account name' }), 'Ada Lovelace');
  await user.type(screen.getByRole('textbox', { name: 'Account number' }), '12345678');
  await user.type(screen.getByRole('textbox', { name: /^Routing number/ }), '021000021');
}

/** Continue, then Confirm in the review (decision 060): what sends the withdrawal. */
async function submitWithdrawal(user: UserEvent) {
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await user.click(within(await screen.findByRole('dialog', { name: 'Confirm the withdrawal' })).getByRole('button', { name: 'Confirm' }));
}

async function enterCode(user: UserEvent, code: string) {
  const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
  await user.click(within(dialog).getByRole('textbox', { name: 'Digit 1 of 6' }));
  await user.keyboard(code);
  return dialog;
}

function withdrawApi(withdrawals: FakeApi[string], extra: FakeApi = {}): FakeApi {
  return {
    'GET /api/v1/me': signedIn,
    'GET /api/v1/accounts': { status: 200, body: [checking] },
    // No linked bank: the account is typed, with the seed's fields.
    'GET /api/v1/funding-sources': { status: 200, body: { items: [] } },
    'POST /api/v1/withdrawals': withdrawals,
    ...extra,
  };
}

// Whole journeys through the app: generous time when the machine is busy running every suite at once.
describe('step-up', { timeout: 20_000 }, () => {
  it('asks for the code the server sent, then repeats the request with the same Idempotency-Key and X-Step-Up', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: SentRequest[] = [];
    renderApp(
      '/withdraw',
      withdrawApi(
        (init) => {
          const request = sentRequestOf(init);
          sent.push(request);
          return request.stepUp === 'ch-1' ? created(withdrawal) : stepUpRequired('ch-1');
        },
        {
          'POST /api/v1/step-up/ch-1': (init) => (codeOf(init) === '123456' ? { status: 200, body: { verified: true } } : validationFailed({ code: 'wrong' })),
        },
      ),
    );
    await fillWithdrawal(user);
    await submitWithdrawal(user);

    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    expect(within(dialog).getByText('For your security, enter the 6-digit code we sent to •••• 0101.')).toBeTruthy();
    await enterCode(user, '123456');

    const result = await screen.findByRole('dialog', { name: 'Your withdrawal of $120.00 is on its way' });
    expect(within(result).getByText('Pending')).toBeTruthy();
    expect(sent).toHaveLength(2);
    const [first, second] = sent;
    expect(first?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
    expect(first?.stepUp).toBeNull();
    expect(second?.stepUp).toBe('ch-1');
    expect(second?.body).toEqual(first?.body);
    expect(first?.body).toEqual({
      fromAccountId: checking.id,
      amountCents: 12_000,
      country: 'United States',
      nameOfBank: 'Prairie Bank',
      accountName: 'Ada Lovelace',
      accountNumber: '12345678',
      stateName: 'Illinois',
      bankAddress: '1 Main Street, Springfield',
      routeNumber: '021000021',
    });
  });

  it('shows the server’s message for a wrong code, which tells the tries left, and lets the customer try again', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp(
      '/withdraw',
      withdrawApi((init) => (sentRequestOf(init).stepUp ? created(withdrawal) : stepUpRequired('ch-1')), {
        'POST /api/v1/step-up/ch-1': (init) =>
          codeOf(init) === '654321' ? { status: 200, body: { verified: true } } : validationFailed({ code: 'That code is not right. 4 tries left.' }),
      }),
    );
    await fillWithdrawal(user);
    await submitWithdrawal(user);

    const dialog = await enterCode(user, '111111');
    expect(await within(dialog).findByText('That code is not right. 4 tries left.')).toBeTruthy();
    expect(within(dialog).getByText('5 tries for each code.')).toBeTruthy();
    expect(within(dialog).getByRole<HTMLInputElement>('textbox', { name: 'Digit 1 of 6' }).value).toBe('');

    await enterCode(user, '654321');
    expect(await screen.findByRole('dialog', { name: 'Your withdrawal of $120.00 is on its way' })).toBeTruthy();
  });

  it('gets a new challenge by sending the request again without X-Step-Up when the old one can no longer be verified', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: SentRequest[] = [];
    renderApp(
      '/withdraw',
      withdrawApi(
        (init) => {
          const request = sentRequestOf(init);
          sent.push(request);
          if (request.stepUp === 'ch-2') return created(withdrawal);
          return stepUpRequired(sent.length === 1 ? 'ch-1' : 'ch-2');
        },
        {
          'POST /api/v1/step-up/ch-1': apiError(409, 'conflict', 'This code has expired or was already used. Ask for a new one.'),
          'POST /api/v1/step-up/ch-2': { status: 200, body: { verified: true } },
        },
      ),
    );
    await fillWithdrawal(user);
    await submitWithdrawal(user);
    await enterCode(user, '123456');

    const renewed = await screen.findByText(renewedChallengeNotice());
    expect(renewed).toBeTruthy();
    await enterCode(user, '222333');

    expect(await screen.findByRole('dialog', { name: 'Your withdrawal of $120.00 is on its way' })).toBeTruthy();
    expect(sent.map((request) => request.stepUp)).toEqual([null, null, 'ch-2']);
    expect(new Set(sent.map((request) => request.idempotencyKey)).size).toBe(1);
  });

  it('resends the code for real and then waits before another can be asked for', async () => {
    const user = userEvent.setup({ delay: null });
    const resend = vi.fn(() => ({ status: 200, body: { sentTo: '•••• 0101' } }));
    renderApp('/withdraw', withdrawApi(stepUpRequired('ch-1'), { 'POST /api/v1/step-up/ch-1/resend': resend }));
    await fillWithdrawal(user);
    await submitWithdrawal(user);
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });

    await user.click(within(dialog).getByRole('button', { name: 'Resend code' }));
    expect(await within(dialog).findByText('We sent a new code to •••• 0101.')).toBeTruthy();
    expect(resend).toHaveBeenCalledTimes(1);
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Resend code' }).disabled).toBe(true);
    expect(within(dialog).getByText(/You can ask for another code in \d+ s\./)).toBeTruthy();
  });

  it('leaves the form as it was when the customer cancels the code, and sends nothing more', async () => {
    const user = userEvent.setup({ delay: null });
    const withdrawals = vi.fn(() => stepUpRequired('ch-1'));
    renderApp('/withdraw', withdrawApi(withdrawals));
    await fillWithdrawal(user);
    await submitWithdrawal(user);
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    // Back at the review, which Modify closes: everything typed is kept. Each dialog closes on a
    // later render; beside the other suites one was still open when checked at once (a full run).
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirm it’s you' })).toBeNull());
    await user.click(within(screen.getByRole('dialog', { name: 'Confirm the withdrawal' })).getByRole('button', { name: 'Modify' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Bank name' }).value).toBe('Prairie Bank');
    expect(withdrawals).toHaveBeenCalledTimes(1);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Continue' }).disabled).toBe(false);
  });
});
