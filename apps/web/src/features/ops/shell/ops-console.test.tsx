import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rolePermissions, type StaffRole } from '@strongroom/contracts/staff.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp, unauthenticated } from '../../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

function staffMe(role: StaffRole) {
  return { status: 200, body: { staff: { id: 's1', email: `${role}@bank.test`, role, permissions: [...rolePermissions[role]] } } };
}

const settings = {
  status: 200,
  body: { settings: { address: '1 Ledger Lane', phone: '+1 202 555 0100', supportEmail: 'help@bank.test', updatedAt: '2026-11-24T00:00:00.000Z' } },
};

describe('the console layout', () => {
  it('shows a support member only the pages their role may use, with who they are and a sign-out', async () => {
    renderApp('/ops', { 'GET /api/v1/staff/me': staffMe('support') });
    const navigation = await screen.findByRole('navigation', { name: 'Back office' });
    const links = within(navigation)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(links).toEqual(expect.arrayContaining(['Overview', 'Bank settings', 'My account']));
    expect(links).not.toContain('Staff');
    expect(links).not.toContain('Audit log');
    // Who they are, in the header: the overview page, loaded on its own, says it again once it arrives.
    expect(within(screen.getByRole('banner')).getByText(/support@bank\.test/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
    expect(screen.getByRole('main').id).toBe('main');
  });

  it('shows an admin the staff and audit pages too', async () => {
    renderApp('/ops', { 'GET /api/v1/staff/me': staffMe('admin') });
    const navigation = await screen.findByRole('navigation', { name: 'Back office' });
    expect(within(navigation).getByRole('link', { name: 'Staff' }).getAttribute('href')).toBe('/ops/staff');
    expect(within(navigation).getByRole('link', { name: 'Audit log' }).getAttribute('href')).toBe('/ops/audit');
  });

  it.each([
    ['support', '/ops/cards', 'Card requests', '/staff/cards'],
    ['support', '/ops/identity/r1', 'Identity review', '/staff/identity-reviews'],
    ['compliance', '/ops/loans', 'Loan applications', '/staff/loans'],
    ['operations', '/ops/held-transfers', 'Held transfers', '/staff/held-transfers'],
  ] as const)('a %s member who opens %s directly sees why, and no form of that page', async (role, path, label, pageApi) => {
    const { fetchMock } = renderApp(path, { 'GET /api/v1/staff/me': staffMe(role) });
    expect(await screen.findByRole('heading', { level: 1, name: label }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText(`Your role (${role}) cannot use this page: ask an administrator if you need it.`)).toBeTruthy();
    const main = screen.getByRole('main');
    expect(within(main).queryByRole('button')).toBeNull();
    expect(within(main).queryByRole('textbox')).toBeNull();
    // The navigation still counts the queues the role may use; the page itself asks nothing.
    const asked = fetchMock.mock.calls.map(([url]) => String(url));
    expect(asked.filter((url) => url.includes(pageApi))).toEqual([]);
  });

  it('sends a visitor without a staff session to the sign-in page, then back to the page first asked for', async () => {
    const user = userEvent.setup();
    let signedIn = false;
    renderApp('/ops/settings', {
      'GET /api/v1/staff/me': () => (signedIn ? staffMe('admin') : unauthenticated),
      'POST /api/v1/staff/auth/login': () => {
        signedIn = true;
        return staffMe('admin');
      },
      'GET /api/v1/staff/settings': settings,
    });
    await waitFor(() => expect(window.location.pathname).toBe('/ops/login'), { timeout: 5000 });
    await user.type(await screen.findByLabelText('Email'), 'admin@bank.test');
    await user.type(screen.getByLabelText('Password'), 'a long staff passphrase');
    await user.type(screen.getByLabelText(/Authenticator code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Bank settings', level: 1 })).toBeTruthy();
    expect(window.location.pathname).toBe('/ops/settings');
  });

  it('when an API call inside the console answers 401, goes to the sign-in page saying the session ended', async () => {
    renderApp('/ops/settings', { 'GET /api/v1/staff/me': staffMe('admin'), 'GET /api/v1/staff/settings': unauthenticated });
    expect(await screen.findByText(/Your session ended/, undefined, { timeout: 5000 })).toBeTruthy();
    expect(window.location.pathname).toBe('/ops/login');
  });
  it('goes to the sign-in page by itself 15 minutes after the last answer from the server, saying why', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderApp('/ops/settings', { 'GET /api/v1/staff/me': staffMe('admin'), 'GET /api/v1/staff/settings': settings });
      expect(await screen.findByRole('heading', { name: 'Bank settings', level: 1 })).toBeTruthy();
      await act(() => vi.advanceTimersByTimeAsync(14 * 60 * 1_000));
      expect(window.location.pathname).toBe('/ops/settings');
      await act(() => vi.advanceTimersByTimeAsync(60 * 1_000));
      expect(await screen.findByText(/a staff session ends after 15 minutes without activity/)).toBeTruthy();
      expect(window.location.pathname).toBe('/ops/login');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('/ops/login', () => {
  it('fills in the sandbox admin with the current code', async () => {
    const user = userEvent.setup();
    renderApp('/ops/login', {
      'GET /api/v1/staff/me': unauthenticated,
      'GET /api/v1/dev/staff-sign-in': { status: 200, body: { email: 'admin@strongroom.test', password: 'strongroom-admin', code: '654321' } },
    });
    await user.click(await screen.findByRole('button', { name: /sandbox admin/ }));
    await waitFor(() => expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('admin@strongroom.test'));
    expect((screen.getByLabelText(/Authenticator code/) as HTMLInputElement).value).toBe('654321');
  });

  it.each([
    ['a wrong code', 401, 'unauthenticated', 'The email, password or code is not correct'],
    ['a disabled account', 403, 'forbidden', 'This staff account is disabled. Ask an administrator.'],
    ['too many attempts', 429, 'rate_limited', 'Please wait a few minutes and try again'],
  ])('says so clearly after %s', async (_name, status, code, message) => {
    const user = userEvent.setup();
    renderApp('/ops/login', {
      'GET /api/v1/staff/me': unauthenticated,
      'POST /api/v1/staff/auth/login': (init) => {
        expect(jsonBodyOf(init)).toEqual({ email: 'a@bank.test', password: 'secret passphrase', code: '000000' });
        return { status, body: { error: { code, message } } };
      },
    });
    await user.type(await screen.findByLabelText('Email'), 'a@bank.test');
    await user.type(screen.getByLabelText('Password'), 'secret passphrase');
    await user.type(screen.getByLabelText(/Authenticator code/), '000000');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain(message);
    expect(window.location.pathname).toBe('/ops/login');
  });
});
