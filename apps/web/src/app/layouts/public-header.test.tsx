import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render-app.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('public navigation', () => {
  it('has a menu button that opens and closes the menu, which holds Login and Signup', async () => {
    const user = userEvent.setup();
    renderApp('/');
    const menuButton = screen.getByRole('button', { name: 'Menu' });
    const menu = document.getElementById(menuButton.getAttribute('aria-controls') ?? '');
    expect(menu?.tagName).toBe('NAV');
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');

    await user.click(menuButton);
    expect(menuButton.getAttribute('aria-expanded')).toBe('true');
    expect(menu?.className).toContain('site-nav--open');
    expect(screen.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login');
    expect(screen.getByRole('link', { name: 'Signup' }).getAttribute('href')).toBe('/signup');

    await user.click(menuButton);
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
  });

  it('opens Personal to reach Savings and Current, and Esc closes it again', async () => {
    const user = userEvent.setup();
    renderApp('/');
    const personal = screen.getByRole('button', { name: 'Personal' });
    await user.click(personal);
    expect(personal.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('link', { name: 'Savings' }).getAttribute('href')).toBe('/savings');
    expect(screen.getByRole('link', { name: 'Current' }).getAttribute('href')).toBe('/current');
    await user.keyboard('{Escape}');
    expect(personal.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(personal);
  });

  it('closes the menu when a link in it is followed', async () => {
    const user = userEvent.setup();
    renderApp('/');
    const menuButton = screen.getByRole('button', { name: 'Menu' });
    await user.click(menuButton);
    await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'FAQ' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Frequently asked questions' })).toBeTruthy();
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes the phone menu on Escape with the focus on the Menu button, and when the page already shown is chosen', async () => {
    const user = userEvent.setup();
    renderApp('/faq');
    const menuButton = screen.getByRole('button', { name: 'Menu' });
    await user.click(menuButton);
    expect(menuButton.getAttribute('aria-expanded')).toBe('true');
    await user.keyboard('{Escape}');
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(menuButton);

    await user.click(menuButton);
    await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'FAQ' }));
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
  });

  it('fills the footer with the address and phone from the bank settings', async () => {
    renderApp('/about');
    expect(await screen.findByRole('link', { name: '+1 202 555 0100' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '+1 202 555 0100' }).getAttribute('href')).toBe('tel:+12025550100');
  });
});
