import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { SessionsSection } from './sessions-section.tsx';
import { callsTo, renderSection } from '../../../test/render-section.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const current = {
  id: 's-1',
  current: true,
  device: 'Chrome on Windows',
  ip: '203.0.113.7',
  createdAt: '2026-11-24T08:00:00.000Z',
  lastSeenAt: '2026-11-24T09:00:00.000Z',
};
const phone = {
  id: 's-2',
  current: false,
  device: 'Safari on iPhone',
  ip: '198.51.100.4',
  createdAt: '2026-11-23T18:00:00.000Z',
  lastSeenAt: '2026-11-24T08:55:00.000Z',
};

describe('SessionsSection', () => {
  it('lists each session with device, address and times; this device has no End button', async () => {
    renderSection(<SessionsSection />, { 'GET /api/v1/me/sessions': { status: 200, body: { items: [current, phone] } } });
    const items = within(await screen.findByRole('list', { name: 'Sessions' })).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0] as HTMLElement).getByText('This device')).toBeTruthy();
    expect(within(items[0] as HTMLElement).queryByRole('button')).toBeNull();
    expect(within(items[1] as HTMLElement).getByText('Safari on iPhone')).toBeTruthy();
    expect(within(items[1] as HTMLElement).getByText(/Address 198\.51\.100\.4/)).toBeTruthy();
    expect(within(items[1] as HTMLElement).getByText(/Last seen Nov 24, 2026/)).toBeTruthy();
  });

  it('ends another session only after a confirmation, then refreshes the list', async () => {
    const user = userEvent.setup();
    let ended = false;
    const fetchMock = renderSection(<SessionsSection />, {
      'GET /api/v1/me/sessions': () => ({ status: 200, body: { items: ended ? [current] : [current, phone] } }),
      'DELETE /api/v1/me/sessions/s-2': () => {
        ended = true;
        return { status: 200, body: { ended: true, current: false } };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'End the session on Safari on iPhone' }));
    const dialog = await screen.findByRole('dialog', { name: 'End this session?' });
    expect(callsTo(fetchMock, 'DELETE', '/api/v1/me/sessions/s-2')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'End session' }));
    expect(await screen.findByText('Safari on iPhone is signed out')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: /End the session/ })).toBeNull());
    expect(screen.getByText('You are signed in on this device only.')).toBeTruthy();
  });

  it('signs out everywhere else after a confirmation; Cancel sends nothing', async () => {
    const user = userEvent.setup();
    const fetchMock = renderSection(<SessionsSection />, {
      'GET /api/v1/me/sessions': { status: 200, body: { items: [current, phone] } },
      'POST /api/v1/me/sessions/revoke-others': { status: 200, body: { ended: 1 } },
    });
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere else' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Sign out everywhere else?' })).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(fetchMock, 'POST', '/api/v1/me/sessions/revoke-others')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Sign out everywhere else?' })).getByRole('button', { name: 'Sign out others' }));
    expect(await screen.findByText('Signed out of 1 other session')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/api/v1/me/sessions/revoke-others')).toHaveLength(1);
  });

  it('says so when the list cannot be loaded, and offers to try again', async () => {
    renderSection(<SessionsSection />, {
      'GET /api/v1/me/sessions': { status: 500, body: { error: { code: 'internal_error', message: 'Something went wrong on our side' } } },
    });
    expect(await screen.findByRole('heading', { name: 'We could not load your sessions' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /try again/i })).toBeTruthy();
  });
});
