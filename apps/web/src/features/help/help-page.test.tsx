import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, signedIn } from '../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

describe('/help', () => {
  it('answers the three topics in collapsible sections that open with the keyboard', async () => {
    const user = userEvent.setup();
    renderApp('/help', { 'GET /api/v1/me': signedIn, 'GET /api/v1/messages': { status: 200, body: { items: [], nextCursor: null } } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Help' })).toBeTruthy();
    const withdraw = screen.getByRole('button', { name: 'How to withdraw' });
    expect(withdraw.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByRole('button', { name: 'How to edit your profile' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'How to deposit' })).toBeTruthy();
    withdraw.focus();
    await user.keyboard('{Enter}');
    expect(withdraw.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText(/reaches the other bank by wire within 24 hours/)).toBeTruthy();
    const withdrawPanel = screen.getByRole('region', { name: 'How to withdraw' });
    expect(within(withdrawPanel).getByRole('link', { name: 'Withdraw' }).getAttribute('href')).toBe('/withdraw');
    await user.keyboard('{ArrowDown}{Enter}');
    const profilePanel = screen.getByRole('region', { name: 'How to edit your profile' });
    expect(within(profilePanel).getByRole('link', { name: 'Profile' }).getAttribute('href')).toBe('/profile');
    expect(within(profilePanel).getByText(/PNG or JPEG of up to 5 MB/)).toBeTruthy();
  });

  it("'Live chat' opens secure messages with a new message", async () => {
    const user = userEvent.setup();
    renderApp('/help', { 'GET /api/v1/me': signedIn, 'GET /api/v1/messages': { status: 200, body: { items: [], nextCursor: null } } });
    await user.click(await screen.findByRole('link', { name: 'Live chat' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Messages' })).toBeTruthy();
    expect(screen.getByRole('form', { name: 'New message' })).toBeTruthy();
    expect(screen.getByLabelText(/^Subject/)).toBeTruthy();
  });
});
