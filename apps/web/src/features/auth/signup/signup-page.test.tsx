import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp, validationFailed } from '../../../test/render-app.tsx';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  queryClient.clear();
});

function errorOf(input: HTMLElement): string | null | undefined {
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent).find((text) => text && !text.startsWith('At least'));
}

async function fillValidForm(user: ReturnType<typeof userEvent.setup>, password = 'lantern harbour quietly') {
  await user.type(await screen.findByRole('textbox', { name: 'First name' }), 'Grace');
  await user.type(screen.getByRole('textbox', { name: 'Last name' }), 'Hopper');
  await user.type(screen.getByRole('textbox', { name: 'Email' }), 'grace@example.com');
  await user.type(screen.getByLabelText('Password'), password);
  await user.type(screen.getByLabelText('Confirm password'), password);
  await user.click(screen.getByRole('checkbox', { name: /terms and conditions/ }));
}

describe('sign-up', () => {
  it('turns the button on only when every field is valid and the terms are accepted', async () => {
    const user = userEvent.setup();
    renderApp('/signup');
    const button = await screen.findByRole('button', { name: 'Create account' });
    expect(button).toHaveProperty('disabled', true);
    expect(document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Fill in every field and accept the terms to continue.');
    await fillValidForm(user);
    expect(button).toHaveProperty('disabled', false);
    await user.click(screen.getByRole('checkbox', { name: /terms and conditions/ }));
    await user.tab();
    expect(button).toHaveProperty('disabled', true);
    expect(screen.getByText('please accept the terms and conditions')).toBeTruthy();
  });

  it('gives the shared messages under each field as it is left', async () => {
    const user = userEvent.setup();
    renderApp('/signup');
    const firstName = await screen.findByRole('textbox', { name: 'First name' });
    await user.click(firstName);
    await user.tab();
    expect(errorOf(firstName)).toBe('field should not be empty');
    const email = screen.getByRole('textbox', { name: 'Email' });
    await user.type(email, 'grace@example');
    await user.tab();
    expect(errorOf(email)).toBe('email is not valid');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    const password = screen.getByLabelText('Password');
    await user.type(password, 'short');
    await user.tab();
    expect(errorOf(password)).toBe('password should be at least 8 characters');
  });

  it('says the passwords do not match as soon as both are typed, and again when the password changes', async () => {
    const user = userEvent.setup();
    renderApp('/signup');
    const password = await screen.findByLabelText('Password');
    const confirm = screen.getByLabelText('Confirm password');
    await user.type(password, 'lantern harbour quietly');
    await user.type(confirm, 'lantern harbour');
    await user.tab();
    expect(errorOf(confirm)).toBe('passwords do not match');
    await user.type(confirm, ' quietly');
    expect(errorOf(confirm)).toBeUndefined();
    await user.type(password, '!');
    expect(errorOf(confirm)).toBe('passwords do not match');
  });

  it('shows what only the server knows under its field, with focus on it: a common password', async () => {
    const user = userEvent.setup();
    renderApp('/signup', { 'POST /api/v1/auth/signup': validationFailed({ password: 'this password is too common' }) });
    await fillValidForm(user, 'password123');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    const password = screen.getByLabelText('Password');
    expect(await screen.findByText('this password is too common')).toBeTruthy();
    expect(errorOf(password)).toBe('this password is too common');
    expect(document.activeElement).toBe(password);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('links the terms and the privacy policy to /privacy, in a new tab so the form is kept', async () => {
    renderApp('/signup');
    const terms = await screen.findByRole('link', { name: 'terms and conditions' });
    const privacy = screen.getByRole('link', { name: 'privacy policy' });
    for (const link of [terms, privacy]) {
      expect(link.getAttribute('href')).toBe('/privacy');
      expect(link.getAttribute('target')).toBe('_blank');
    }
  });

  it('carries a friend’s code from ?ref= into the sign-up, and sends none without one', async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    const answer = (init: RequestInit | undefined) => {
      bodies.push(jsonBodyOf(init));
      return { status: 201, body: { message: 'Check your email: we sent a link to verify your address.', next: 'verify-email' } };
    };
    const view = renderApp('/signup?ref=K7M2Q9XA', { 'POST /api/v1/auth/signup': answer });
    expect(((await screen.findByRole('textbox', { name: /Referral code/ })) as HTMLInputElement).value).toBe('K7M2Q9XA');
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await screen.findByRole('heading', { level: 1, name: 'Check your email' });
    expect(bodies[0]).toMatchObject({ referralCode: 'K7M2Q9XA', email: 'grace@example.com' });
    view.unmount();
    queryClient.clear();

    renderApp('/signup', { 'POST /api/v1/auth/signup': answer });
    expect(screen.queryByRole('textbox', { name: /Referral code/ })).toBeNull();
    await fillValidForm(user);
    await user.click(await screen.findByRole('button', { name: 'Create account' }));
    await screen.findByRole('heading', { level: 1, name: 'Check your email' });
    expect(bodies[1]).not.toHaveProperty('referralCode');
  });

  it('carries the account chosen with "Open an account" into the sign-up, says so, and leaves out one the bank does not offer (issue 39 item 11)', async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    const answer = (init: RequestInit | undefined) => {
      bodies.push(jsonBodyOf(init));
      return { status: 201, body: { message: 'Check your email: we sent a link to verify your address.', next: 'verify-email' } };
    };
    const view = renderApp('/signup?product=gold-checking', { 'POST /api/v1/auth/signup': answer });
    const chosen = (await screen.findByText(/You are opening/)).closest('[role="status"]');
    expect(chosen?.textContent).toContain('You are opening Gold Checking, with Standard Savings beside it');
    expect(screen.getByRole('link', { name: 'Choose another account' }).getAttribute('href')).toBe('/current');
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await screen.findByRole('heading', { level: 1, name: 'Check your email' });
    expect(bodies[0]).toMatchObject({ product: 'gold-checking', email: 'grace@example.com' });
    view.unmount();
    queryClient.clear();

    renderApp('/signup?product=narnia-gold', { 'POST /api/v1/auth/signup': answer });
    await screen.findByRole('textbox', { name: 'First name' });
    expect(screen.queryByText(/You are opening/)).toBeNull();
    await fillValidForm(user);
    await user.click(await screen.findByRole('button', { name: 'Create account' }));
    await screen.findByRole('heading', { level: 1, name: 'Check your email' });
    expect(bodies[1]).not.toHaveProperty('product');
  });

  it('shows an unknown referral code under its field, and a cleared code is not sent', async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    renderApp('/signup?ref=ZZZZZZZZ', {
      'POST /api/v1/auth/signup': (init) => {
        bodies.push(jsonBodyOf(init));
        return bodies.length === 1
          ? validationFailed({ referralCode: 'this referral code does not exist' })
          : { status: 201, body: { message: 'Check your email: we sent a link to verify your address.', next: 'verify-email' } };
      },
    });
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    const code = screen.getByRole('textbox', { name: /Referral code/ });
    expect(await screen.findByText('this referral code does not exist')).toBeTruthy();
    expect(code.getAttribute('aria-invalid')).toBe('true');
    expect(
      code
        .getAttribute('aria-describedby')
        ?.split(' ')
        .map((id) => document.getElementById(id)?.textContent),
    ).toContain('this referral code does not exist');
    await user.clear(code);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await screen.findByRole('heading', { level: 1, name: 'Check your email' });
    expect(bodies[1]).not.toHaveProperty('referralCode');
  });

  it('shows any other failure in the error dialog', async () => {
    const user = userEvent.setup();
    renderApp('/signup', {
      'POST /api/v1/auth/signup': { status: 429, body: { error: { code: 'rate_limited', message: 'Too many attempts. Please wait before trying again.' } } },
    });
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Sign-up failed' });
    expect(dialog.textContent).toContain('Too many attempts');
  });

  it('shows the server’s message, counts down and goes to /verify/{email} after 3 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    const { fetchMock } = renderApp('/signup', {
      'POST /api/v1/auth/signup': { status: 201, body: { message: 'Check your email: we sent a link to verify your address.', next: 'verify-email' } },
      'POST /api/v1/auth/signup/status': { status: 200, body: { verified: false } },
    });
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Check your email' })).toBeTruthy();
    expect(screen.getByText('Check your email: we sent a link to verify your address.')).toBeTruthy();
    expect(screen.getByText(/Taking you to the next step in 3 seconds/)).toBeTruthy();
    const [, init] = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/auth/signup')) ?? [];
    expect(jsonBodyOf(init)).toEqual({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.com',
      password: 'lantern harbour quietly',
      confirmPassword: 'lantern harbour quietly',
      acceptTerms: true,
    });
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    expect(window.location.pathname).toBe('/verify/grace%40example.com');
    expect(await screen.findByRole('heading', { level: 1, name: 'Verify your email' })).toBeTruthy();
  });
});
