import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { jsonBodyOf } from '../../test/render-app.tsx';
import { StepUpDialog, type StepUpChallenge } from './step-up-dialog.tsx';
import { callsTo, renderSection } from '../../test/render-section.tsx';

const browserWebAuthn = vi.hoisted(() => ({ startAuthentication: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => browserWebAuthn);

const assertion = { id: 'cred', rawId: 'cred', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' } };
const options = { challenge: 'c9', allowCredentials: [{ id: 'cred', type: 'public-key' }] };

function challengeWith(methods: string[]): StepUpChallenge {
  return {
    challengeId: 'ch-7',
    message: 'For your security, confirm with your passkey, or we can text a code to •••• 0101.',
    notice: undefined,
    subject: 'this payment',
    methods,
  };
}

function renderDialog(methods: string[], answer: { status: number; body?: unknown }) {
  const handlers = { onVerified: vi.fn(), onRenew: vi.fn(), onCancel: vi.fn() };
  const fetchMock = renderSection(<StepUpDialog challenge={challengeWith(methods)} {...handlers} />, {
    'POST /api/v1/step-up/ch-7/passkey/options': { status: 200, body: { options } },
    'POST /api/v1/step-up/ch-7/passkey': answer,
  });
  return { fetchMock, ...handlers };
}

afterEach(() => {
  vi.unstubAllGlobals();
  browserWebAuthn.startAuthentication.mockReset();
  queryClient.clear();
});

describe('Use a passkey, in the step-up dialog', () => {
  it('is offered only to a customer who has a passkey', async () => {
    renderDialog(['sms'], { status: 200, body: { verified: true } });
    await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).toBeNull();
  });

  it('asks the device for one of the customer’s passkeys and completes the challenge with its answer', async () => {
    const user = userEvent.setup({ delay: null });
    browserWebAuthn.startAuthentication.mockResolvedValue(assertion);
    const { fetchMock, onVerified } = renderDialog(['passkey', 'sms'], { status: 200, body: { verified: true } });
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.click(within(dialog).getByRole('button', { name: 'Use a passkey' }));
    await vi.waitFor(() => expect(onVerified).toHaveBeenCalledWith('ch-7'));
    expect(browserWebAuthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: options });
    expect(jsonBodyOf(callsTo(fetchMock, 'POST', '/api/v1/step-up/ch-7/passkey')[0]?.[1])).toEqual({ response: assertion });
  });

  it('shows why a passkey was refused or the prompt closed, and keeps the dialog open', async () => {
    const user = userEvent.setup({ delay: null });
    browserWebAuthn.startAuthentication.mockResolvedValue(assertion);
    const refused = renderDialog(['passkey', 'sms'], {
      status: 400,
      body: { error: { code: 'bad_request', message: 'This passkey was not accepted. Try again, or use a code instead.' } },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.click(within(dialog).getByRole('button', { name: 'Use a passkey' }));
    expect(await within(dialog).findByText('This passkey was not accepted. Try again, or use a code instead.')).toBeTruthy();
    expect(refused.onVerified).not.toHaveBeenCalled();

    browserWebAuthn.startAuthentication.mockRejectedValueOnce(Object.assign(new Error('not allowed'), { name: 'NotAllowedError' }));
    await user.click(within(dialog).getByRole('button', { name: 'Use a passkey' }));
    expect(await within(dialog).findByText('The passkey prompt was closed or timed out. Nothing was changed.')).toBeTruthy();
    expect(refused.onRenew).not.toHaveBeenCalled();
  });

  it('asks for a new challenge when this one has ended (409)', async () => {
    const user = userEvent.setup({ delay: null });
    browserWebAuthn.startAuthentication.mockResolvedValue(assertion);
    const { onRenew } = renderDialog(['passkey', 'sms'], { status: 409, body: { error: { code: 'conflict', message: 'This code has expired.' } } });
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.click(within(dialog).getByRole('button', { name: 'Use a passkey' }));
    await vi.waitFor(() => expect(onRenew).toHaveBeenCalled());
  });
});
