import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { renderApp, sessionAt } from '../../../test/render-app.tsx';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  queryClient.clear();
});

const token = 'a'.repeat(43);

describe('/verify/{email}', () => {
  it('counts down from 05:50 under "Arrive in" and asks the server every second until the link is opened', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let verified = false;
    const { fetchMock } = renderApp('/verify/grace%40example.com', {
      'POST /api/v1/auth/signup/status': () =>
        verified ? { status: 200, body: { verified: true, ...sessionAt('phone').body } } : { status: 200, body: { verified: false } },
      'GET /api/v1/me': sessionAt('phone'),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Verify your email' })).toBeTruthy();
    expect(screen.getByText('grace@example.com')).toBeTruthy();
    expect(screen.getByText('Arrive in').parentElement?.textContent).toBe('Arrive in 05:50');
    const statusCalls = () => fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/auth/signup/status')).length;
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    expect(screen.getByText('Arrive in').parentElement?.textContent).toBe('Arrive in 05:47');
    expect(statusCalls()).toBeGreaterThanOrEqual(3);

    verified = true;
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(await screen.findByRole('heading', { level: 1, name: 'Your phone number' })).toBeTruthy();
    expect(window.location.pathname).toBe('/phonesignup');
  });

  it('resends the email, and says how long to wait when the server says it is too soon', async () => {
    const user = userEvent.setup();
    let sent = 0;
    renderApp('/verify/grace%40example.com', {
      'POST /api/v1/auth/signup/status': { status: 200, body: { verified: false } },
      'POST /api/v1/auth/signup/resend': () =>
        sent++ === 0
          ? { status: 200, body: { message: 'We sent a new link. It works for 24 hours.' } }
          : {
              status: 429,
              body: { error: { code: 'rate_limited', message: 'We just sent a link. Please wait a minute before asking again.' } },
              headers: { 'retry-after': '42' },
            },
    });
    const resend = await screen.findByRole('button', { name: 'Resend email' });
    await user.click(resend);
    expect(await screen.findByText('We sent a new link. It works for 24 hours.')).toBeTruthy();
    expect(resend).toHaveProperty('disabled', true);
    expect(screen.getByText(/You can ask for another link in \d+ s\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Change email address' }).getAttribute('href')).toBe('/signup');
  });

  it('shows the 429 message and the wait from Retry-After', async () => {
    const user = userEvent.setup();
    renderApp('/verify/grace%40example.com', {
      'POST /api/v1/auth/signup/status': { status: 200, body: { verified: false } },
      'POST /api/v1/auth/signup/resend': {
        status: 429,
        body: { error: { code: 'rate_limited', message: 'We just sent a link. Please wait a minute before asking again.' } },
        headers: { 'retry-after': '42' },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Resend email' }));
    expect(await screen.findByText('We just sent a link. Please wait a minute before asking again.')).toBeTruthy();
    expect(screen.getByText(/You can ask for another link in 4[12] s\./)).toBeTruthy();
  });
});

describe('/verification/{token}', () => {
  it('shows "Verification in progress", then the result with a way to sign in', async () => {
    renderApp(`/verification/${token}`, { 'POST /api/v1/auth/verify-email': { status: 200, body: { message: 'Your email address is verified.' } } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Verification in progress' })).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 1, name: 'Email verified' })).toBeTruthy();
    expect(screen.getByText('Your email address is verified. You can close this tab; the tab where you signed up continues.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in here' }).getAttribute('href')).toBe('/login');
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Email verified' }));
  });

  it('shows the server’s clear message for a link that is used or expired', async () => {
    renderApp(`/verification/${token}`, {
      'POST /api/v1/auth/verify-email': {
        status: 400,
        body: { error: { code: 'bad_request', message: 'This verification link is not valid, has expired or was already used. Sign in to get a new one.' } },
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'This link does not work' })).toBeTruthy();
    expect(screen.getByText(/already used\. Sign in to get a new one\./)).toBeTruthy();
  });

  it('does not ask the server about a link cut short', async () => {
    const { fetchMock } = renderApp('/verification/abc');
    expect(await screen.findByRole('heading', { level: 1, name: 'This link does not work' })).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('verify-email'))).toBe(false);
  });
});
