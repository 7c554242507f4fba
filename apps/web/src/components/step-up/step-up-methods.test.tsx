import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { jsonBodyOf, type FakeApi } from '../../test/render-app.tsx';
import { StepUpDialog, type StepUpChallenge } from './step-up-dialog.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const withApp: StepUpChallenge = {
  challengeId: 'ch-9',
  message: 'For your security, enter the 6-digit code your authenticator app shows, or we can text a code to •••• 0101.',
  notice: undefined,
  subject: 'this payment',
  methods: ['totp', 'sms'],
};

function renderDialog(api: FakeApi, challenge: StepUpChallenge = withApp) {
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const route = api[`${init?.method ?? 'GET'} ${url.pathname}`] ?? { status: 404, body: { error: { code: 'not_found', message: 'No route' } } };
    const answer = typeof route === 'function' ? route(init) : route;
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  const onVerified = vi.fn();
  render(
    <QueryClientProvider client={queryClient}>
      <StepUpDialog challenge={challenge} onVerified={onVerified} onRenew={vi.fn()} onCancel={vi.fn()} />
    </QueryClientProvider>,
  );
  return { fetchMock, onVerified };
}

describe('step-up dialog with an authenticator app', () => {
  it('asks for the app’s code first and sends no text; "Send me a text instead" sends one and asks for it', async () => {
    const user = userEvent.setup({ delay: null });
    const { fetchMock, onVerified } = renderDialog({
      'POST /api/v1/step-up/ch-9/resend': { status: 200, body: { sentTo: '•••• 0101' } },
      'POST /api/v1/step-up/ch-9': (init) =>
        (jsonBodyOf(init) as { code: string }).code === '424242'
          ? { status: 200, body: { verified: true } }
          : { status: 400, body: { error: { code: 'validation_failed', message: 'x', fields: { code: 'That code is not right. 4 tries left.' } } } },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    expect(within(dialog).getByRole('group', { name: '6-digit code from your authenticator app' })).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Send me a text instead' }));
    expect(await within(dialog).findByText('We sent a code to •••• 0101.')).toBeTruthy();
    expect(within(dialog).getByText('Enter the 6-digit code we sent you by text message.')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Use my authenticator app' })).toBeTruthy();
    await user.click(within(dialog).getByRole('textbox', { name: 'Digit 1 of 6' }));
    await user.keyboard('424242');
    await vi.waitFor(() => expect(onVerified).toHaveBeenCalledWith('ch-9'));
  });

  it('takes a recovery code instead', async () => {
    const user = userEvent.setup({ delay: null });
    const { fetchMock, onVerified } = renderDialog({ 'POST /api/v1/step-up/ch-9': { status: 200, body: { verified: true } } });
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.click(within(dialog).getByRole('button', { name: 'Use a recovery code' }));
    const field = within(dialog).getByRole('textbox', { name: 'Recovery code' });
    await user.type(field, 'nope');
    await user.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect(within(dialog).getByText('Enter one of your recovery codes, such as abcde-23456.')).toBeTruthy();
    await user.clear(field);
    await user.type(field, 'abcde-fghjk');
    await user.click(within(dialog).getByRole('button', { name: 'Verify' }));
    await vi.waitFor(() => expect(onVerified).toHaveBeenCalledWith('ch-9'));
    expect(jsonBodyOf(fetchMock.mock.calls[0]?.[1])).toEqual({ code: 'abcde-fghjk' });
  });

  it('with a passkey but no app, no code is asked for until a text is sent', async () => {
    const user = userEvent.setup({ delay: null });
    renderDialog(
      { 'POST /api/v1/step-up/ch-9/resend': { status: 200, body: { sentTo: '•••• 0101' } } },
      { ...withApp, message: 'For your security, confirm with your passkey, or we can text a code to •••• 0101.', methods: ['passkey', 'sms'] },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    expect(within(dialog).queryByRole('textbox', { name: 'Digit 1 of 6' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Use a recovery code' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Send me a text instead' }));
    expect(await within(dialog).findByRole('textbox', { name: 'Digit 1 of 6' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Resend code' })).toBeTruthy();
  });

  it('without an app it is the SMS dialog as before: Resend code, no app choices', async () => {
    renderDialog({}, { ...withApp, message: 'For your security, enter the 6-digit code we sent to •••• 0101.', methods: ['sms'] });
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    expect(within(dialog).getByText('For your security, enter the 6-digit code we sent to •••• 0101.')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Resend code' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Use a recovery code' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Send me a text instead' })).toBeNull();
  });
});
