import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp } from '../../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const token = 'r'.repeat(43);
const resetRequested = 'If an account uses this email, we sent it a link to set a new password. The link works for one hour.';
const resetLinkInvalid = 'This reset link is not valid, has expired or was already used. Ask for a new one.';

describe('/forgetpassword', () => {
  it('checks the address, then shows the same message whatever the address', async () => {
    const user = userEvent.setup();
    renderApp('/forgetpassword', { 'POST /api/v1/auth/password-reset': { status: 200, body: { message: resetRequested } } });
    const email = await screen.findByRole('textbox', { name: 'Email' });
    await user.click(screen.getByRole('button', { name: 'Send me a link' }));
    expect(screen.getByText('field should not be empty')).toBeTruthy();
    expect(document.activeElement).toBe(email);
    await user.type(email, 'nobody@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me a link' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Check your email' })).toBeTruthy();
    expect(screen.getByText(resetRequested)).toBeTruthy();
  });
});

describe('/resetpassword/{token}', () => {
  it('checks the link as it opens and, when it is not valid, says so and offers a new one', async () => {
    renderApp(`/resetpassword/${token}`, {
      'POST /api/v1/auth/password-reset/check': { status: 400, body: { error: { code: 'bad_request', message: resetLinkInvalid } } },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'This link does not work' })).toBeTruthy();
    expect(screen.getByText(resetLinkInvalid)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/forgetpassword');
  });

  it('sets the new password, with the shared messages, and leads to sign-in with the server’s notice', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp(`/resetpassword/${token}`, {
      'POST /api/v1/auth/password-reset/check': { status: 200, body: { message: 'This link is valid.' } },
      'POST /api/v1/auth/password-reset/complete': { status: 200, body: { message: 'Your password is updated. Sign in with your new password.' } },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Update password' })).toBeTruthy();
    const password = await screen.findByLabelText('New password');
    await user.type(password, 'short');
    await user.type(screen.getByLabelText('Confirm new password'), 'shorter');
    await user.click(screen.getByRole('button', { name: 'Update password' }));
    expect(screen.getByText('password should be at least 8 characters')).toBeTruthy();
    expect(screen.getByText('passwords do not match')).toBeTruthy();

    await user.clear(password);
    await user.type(password, 'copper meadow whistles');
    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'copper meadow whistles');
    await user.click(screen.getByRole('button', { name: 'Update password' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in to online banking' })).toBeTruthy();
    expect(window.location.pathname).toBe('/login');
    expect(screen.getByText('Your password is updated. Sign in with your new password.')).toBeTruthy();
    const [, init] = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/password-reset/complete')) ?? [];
    expect(jsonBodyOf(init)).toEqual({ token, password: 'copper meadow whistles', confirmPassword: 'copper meadow whistles' });
  });
});
