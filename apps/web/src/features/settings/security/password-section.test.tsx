import { screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf } from '../../../test/render-app.tsx';
import { PasswordSection } from './password-section.tsx';
import { callsTo, renderSection, stepUpWith } from '../../../test/render-section.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

async function fill(user: UserEvent, current: string, next: string, confirm = next) {
  await user.type(await screen.findByLabelText('Current password'), current);
  await user.type(screen.getByLabelText(/^New password/), next);
  await user.type(screen.getByLabelText('Confirm new password'), confirm);
  await user.click(screen.getByRole('button', { name: 'Change password' }));
}

describe('PasswordSection', () => {
  it('checks the new password as sign-up does before sending anything', async () => {
    const user = userEvent.setup({ delay: null });
    const fetchMock = renderSection(<PasswordSection />, {});
    await fill(user, 'old password here', 'short', 'shorter');
    expect(await screen.findByText('password should be at least 8 characters')).toBeTruthy();
    expect(screen.getByText('passwords do not match')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/api/v1/me/password')).toHaveLength(0);
  });

  it('shows the server’s words under the field: a wrong current password', async () => {
    const user = userEvent.setup({ delay: null });
    renderSection(<PasswordSection />, {
      'POST /api/v1/me/password': {
        status: 400,
        body: { error: { code: 'validation_failed', message: 'Some fields are not valid', fields: { currentPassword: 'This is not your current password' } } },
      },
    });
    await fill(user, 'not my password', 'a long new passphrase');
    expect(await screen.findByText('This is not your current password')).toBeTruthy();
  });

  it('asks for the authenticator app’s code first, then changes the password and says the other sessions ended', async () => {
    const user = userEvent.setup({ delay: null });
    const fetchMock = renderSection(<PasswordSection />, {
      'POST /api/v1/me/password': (init) => {
        const stepUp = new Headers(init?.headers).get('x-step-up');
        return stepUp === 'ch-1' ? { status: 200, body: { changed: true, otherSessionsEnded: 2 } } : stepUpWith('ch-1', ['totp', 'sms']);
      },
      'POST /api/v1/step-up/ch-1': { status: 200, body: { verified: true } },
    });
    await fill(user, 'my old passphrase', 'a long new passphrase');
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    expect(within(dialog).getByText('Enter the 6-digit code your authenticator app shows.')).toBeTruthy();
    expect(within(dialog).getByText('It confirms changing your password and nothing else.')).toBeTruthy();
    await user.click(within(dialog).getByRole('textbox', { name: 'Digit 1 of 6' }));
    await user.keyboard('123456');
    expect(await screen.findByText('Your password is changed. We signed out 2 other sessions and emailed you about it.')).toBeTruthy();
    const [first] = callsTo(fetchMock, 'POST', '/api/v1/me/password');
    expect(jsonBodyOf(first?.[1])).toEqual({
      currentPassword: 'my old passphrase',
      password: 'a long new passphrase',
      confirmPassword: 'a long new passphrase',
    });
    expect(callsTo(fetchMock, 'POST', '/api/v1/step-up/ch-1/resend')).toHaveLength(0);
    expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('');
  });
});
