import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, signedIn } from '../../test/render-app.tsx';
import { welcomeStorageKey } from '../../lib/welcome.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
  window.localStorage.clear();
});

describe('the online banking menu on a phone', () => {
  it('closes on Escape with the focus on the Menu button, and when the page already shown is chosen', async () => {
    window.localStorage.setItem(welcomeStorageKey(signedIn.body.user.id), '2026-01-01T00:00:00.000Z');
    const user = userEvent.setup();
    renderApp('/dashboard', { 'GET /api/v1/me': signedIn, 'GET /api/v1/accounts': { status: 200, body: [] } });
    await screen.findByRole('heading', { level: 1, name: 'Your dashboard' });
    const menuButton = screen.getByRole('button', { name: 'Menu' });

    await user.click(menuButton);
    expect(menuButton.getAttribute('aria-expanded')).toBe('true');
    await user.keyboard('{Escape}');
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(menuButton);

    await user.click(menuButton);
    await user.click(within(screen.getByRole('navigation', { name: 'Online banking' })).getByRole('link', { name: 'Home' }));
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
    expect(window.location.pathname).toBe('/dashboard');
  });
});
