import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SecurityEvent } from '@strongroom/contracts/security-events.ts';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, signedIn } from '../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const signIn: SecurityEvent = {
  id: '42',
  action: 'auth.login',
  kind: 'sign_in',
  title: 'Signed in',
  outcome: 'success',
  at: '2026-11-24T09:00:00.000Z',
  device: 'Chrome on Windows',
  ip: '203.0.113.9',
  reported: false,
};
const failed: SecurityEvent = { ...signIn, id: '41', title: 'Failed sign-in: wrong password', outcome: 'failure', at: '2026-11-24T08:59:00.000Z' };
const older: SecurityEvent = { ...signIn, id: '7', action: 'card.revealed', kind: 'card', title: 'Card number and CVV shown', at: '2026-11-01T08:00:00.000Z' };

describe('/settings/activity', () => {
  it('lists the events with device and address, marks failures, and loads more', async () => {
    const user = userEvent.setup();
    const pages = [
      { items: [signIn, failed], nextCursor: 'next' },
      { items: [older], nextCursor: null },
    ];
    let calls = 0;
    renderApp('/settings/activity', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/me/security-events': () => ({ status: 200, body: pages[Math.min(calls++, 1)] }),
    });
    const list = await screen.findByRole('list', { name: 'Security events' });
    expect(within(list).getByRole('heading', { name: 'Signed in' })).toBeTruthy();
    expect(within(list).getAllByText('Chrome on Windows')).toHaveLength(2);
    expect(within(list).getAllByText('203.0.113.9')).toHaveLength(2);
    expect(within(list).getByText('Failed')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(list).findByRole('heading', { name: 'Card number and CVV shown' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('leads from a connected-app event to the connected apps, and from no other', async () => {
    const revoked: SecurityEvent = {
      ...signIn,
      id: '50',
      action: 'connected_app.revoked',
      kind: 'connected_app',
      title: "You ended an app's access: it can no longer see your data",
    };
    renderApp('/settings/activity', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/me/security-events': { status: 200, body: { items: [revoked, signIn], nextCursor: null } },
    });
    const list = await screen.findByRole('list', { name: 'Security events' });
    const links = within(list).getAllByRole('link', { name: 'See and manage your connected apps' });
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/settings/connected-apps']);
    expect(within(links[0]?.closest('li') as HTMLElement).getByRole('heading', { name: revoked.title })).toBeTruthy();
  });

  it('says so when there is nothing yet', async () => {
    renderApp('/settings/activity', { 'GET /api/v1/me': signedIn, 'GET /api/v1/me/security-events': { status: 200, body: { items: [], nextCursor: null } } });
    expect(await screen.findByText('No security activity yet')).toBeTruthy();
  });

  it('"This wasn\'t me" says exactly what happens, does nothing on cancel, and signs out to the sign-in page on confirm', async () => {
    const user = userEvent.setup();
    const report = vi.fn(() => ({ status: 200, body: { report: { threadId: 't1', frozen: true, sessionsEnded: 2, alreadyReported: false } } }));
    renderApp('/settings/activity', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/me/security-events': { status: 200, body: { items: [signIn], nextCursor: null } },
      'POST /api/v1/me/security-events/42/not-me': report,
    });
    await user.click(await screen.findByRole('button', { name: /^This wasn't me: Signed in/ }));
    let dialog = await screen.findByRole('dialog', { name: 'This wasn’t you?' });
    expect(within(dialog).getByText(/Every device signed in to your account is signed out, this one too/)).toBeTruthy();
    expect(within(dialog).getByText(/No money can move from your account/)).toBeTruthy();
    expect(within(dialog).getByText(/Our support team gets a secure message with this event/)).toBeTruthy();
    expect(within(dialog).getByText(/We email you/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(report).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: /^This wasn't me: Signed in/ }));
    dialog = await screen.findByRole('dialog', { name: 'This wasn’t you?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere and freeze' }));
    expect(await screen.findByText(/Done: every device was signed out, money movement on your account is frozen/)).toBeTruthy();
    expect(report).toHaveBeenCalledTimes(1);
  });

  it('shows the refusal in the dialog when the report fails', async () => {
    const user = userEvent.setup();
    renderApp('/settings/activity', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/me/security-events': { status: 200, body: { items: [signIn], nextCursor: null } },
      'POST /api/v1/me/security-events/42/not-me': { status: 404, body: { error: { code: 'not_found', message: 'No such security event' } } },
    });
    await user.click(await screen.findByRole('button', { name: /^This wasn't me: Signed in/ }));
    const dialog = await screen.findByRole('dialog', { name: 'This wasn’t you?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere and freeze' }));
    expect(await within(dialog).findByRole('alert')).toBeTruthy();
    expect(within(dialog).getByText('No such security event')).toBeTruthy();
  });
});
