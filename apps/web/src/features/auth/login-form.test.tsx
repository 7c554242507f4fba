import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { publicSettings, renderApp, signedIn, unauthenticated } from '../../test/render-app.tsx';

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
});
