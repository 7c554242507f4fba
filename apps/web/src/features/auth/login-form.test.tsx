import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { jsonBodyOf, publicSettings, renderApp, signedIn, unauthenticated } from '../../test/render-app.tsx';

const browserWebAuthn = vi.hoisted(() => ({ startAuthentication: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => browserWebAuthn);

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

describe('sign-in', () => {
  it('enables the button only once both the email and the password are valid', async () => {
    const user = userEvent.setup();
    renderApp('/login');
    const button = await screen.findByRole('button', { name: 'Sign in' });
    expect(button).toHaveProperty('disabled', true);
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@example');
    await user.type(screen.getByLabelText('Password'), 'secret');
    expect(button).toHaveProperty('disabled', true);
    expect(screen.getByText('email is not valid')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Email' }), '.com');
    expect(button).toHaveProperty('disabled', false);
  });

  it('shows the server’s message in the error dialog when sign-in fails', async () => {
    const user = userEvent.setup();
    renderApp('/login', {
      'POST /api/v1/auth/login': { status: 401, body: { error: { code: 'unauthenticated', message: 'Email or password is incorrect' } } },
    });
    await user.type(await screen.findByRole('textbox', { name: 'Email' }), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Sign-in failed' });
    expect(dialog.textContent).toContain('Email or password is incorrect');
  });

  it('goes where the server says is next: an unverified email goes to /verify/{email}', async () => {
    const user = userEvent.setup();
    renderApp('/login', {
      'POST /api/v1/auth/login': { status: 200, body: { ...signedIn.body, next: 'verify-email' } },
    });
    await user.type(await screen.findByRole('textbox', { name: 'Email' }), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() => expect(window.location.pathname).toBe('/verify/ada%40example.com'));
  });

  it('from the guard, lands on the page that was asked for once signed in', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp('/home', {
      'GET /api/v1/me': unauthenticated,
      'POST /api/v1/auth/login': signedIn,
    });
    await user.type(await screen.findByRole('textbox', { name: 'Email' }), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    // From here on the session exists: sign-in and /me both answer with it.
    fetchMock.mockImplementation(async () => new Response(JSON.stringify(signedIn.body), { status: 200 }));
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Your dashboard' })).toBeTruthy();
    expect(window.location.pathname).toBe('/home');
  });

  it('offers the sandbox demo customer’s sign-in as a one-click fill', async () => {
    const user = userEvent.setup();
    renderApp('/login', {
      'GET /api/v1/settings/public': {
        status: 200,
        body: { ...publicSettings, demoSignIn: { email: 'demo@strongroom.test', password: 'strongroom-demo' } },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Fill in the demo sign-in' }));
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveProperty('value', 'demo@strongroom.test');
    expect(screen.getByLabelText('Password')).toHaveProperty('value', 'strongroom-demo');
    expect(screen.getByRole('button', { name: 'Sign in' })).toHaveProperty('disabled', false);
  });

  describe('with a passkey', () => {
    const assertion = { id: 'cred', rawId: 'cred', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' } };

    afterEach(() => browserWebAuthn.startAuthentication.mockReset());

    it('is not offered where the browser has no passkeys', async () => {
      renderApp('/login');
      expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).toBeNull();
    });

    it('signs in without an email: the options, the device prompt, the answer, then where the server says is next', async () => {
      vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
      const user = userEvent.setup();
      const options = { challenge: 'c1', rpId: 'localhost', allowCredentials: [] };
      browserWebAuthn.startAuthentication.mockResolvedValue(assertion);
      const { fetchMock } = renderApp('/login', {
        'POST /api/v1/auth/passkey/options': { status: 200, body: { options } },
        'POST /api/v1/auth/passkey': { status: 200, body: { ...signedIn.body, next: 'phone' } },
      });
      await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
      await vi.waitFor(() => expect(window.location.pathname).toBe('/phonesignup'));
      expect(browserWebAuthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: options });
      const answer = fetchMock.mock.calls.find(([input]) => String(input).endsWith('/api/v1/auth/passkey'));
      expect(jsonBodyOf(answer?.[1])).toEqual({ response: assertion });
    });

    it('says so when the prompt is closed, and when the server refuses the passkey', async () => {
      vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
      const user = userEvent.setup();
      browserWebAuthn.startAuthentication.mockRejectedValueOnce(Object.assign(new Error('not allowed'), { name: 'NotAllowedError' }));
      renderApp('/login', {
        'POST /api/v1/auth/passkey/options': { status: 200, body: { options: { challenge: 'c1' } } },
        'POST /api/v1/auth/passkey': { status: 401, body: { error: { code: 'unauthenticated', message: 'This passkey was not accepted.' } } },
      });
      await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
      let dialog = await screen.findByRole('alertdialog', { name: 'Passkey sign-in failed' });
      expect(dialog.textContent).toContain('The passkey prompt was closed or timed out.');
      const [closeButton] = within(dialog).getAllByRole('button', { name: 'Close' });
      if (closeButton) await user.click(closeButton);
      browserWebAuthn.startAuthentication.mockResolvedValueOnce(assertion);
      await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
      dialog = await screen.findByRole('alertdialog', { name: 'Passkey sign-in failed' });
      expect(dialog.textContent).toContain('This passkey was not accepted.');
      expect(window.location.pathname).toBe('/login');
    });
  });
});
