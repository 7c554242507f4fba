import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../lib/query-client.ts';
import { renderApp, signedIn, unauthenticated } from '../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  // One cache serves the whole app; each test starts with no knowledge of a session.
  queryClient.clear();
});

const marketingPages = [
  { path: '/', heading: 'Banking that accounts for every cent', title: 'Strongroom Demo Bank: online banking, savings, checking and cards' },
  { path: '/about', heading: 'The story of Strongroom Demo Bank', title: 'About us | Strongroom Demo Bank' },
  { path: '/savings', heading: 'Savings accounts', title: 'Savings accounts | Strongroom Demo Bank' },
  { path: '/current', heading: 'Current accounts', title: 'Current accounts | Strongroom Demo Bank' },
  { path: '/cards', heading: 'Cards that reward how you spend', title: 'Credit cards | Strongroom Demo Bank' },
  { path: '/faq', heading: 'Frequently asked questions', title: 'Frequently asked questions | Strongroom Demo Bank' },
  { path: '/contact', heading: 'Contact us', title: 'Contact us | Strongroom Demo Bank' },
] as const;

describe('routes', () => {
  it.each(marketingPages)('$path renders its page, title and meta description', async ({ path, heading, title }) => {
    renderApp(path);
    expect(screen.getByRole('heading', { level: 1, name: heading })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe(title));
    expect(document.head.querySelector('meta[name="description"]')?.getAttribute('content')?.length).toBeGreaterThan(50);
  });

  it.each([
    ['/current', 'Gold Checking', '/signup?product=gold-checking'],
    ['/savings', 'Package Money Market Savings', '/signup?product=package-money-market-savings'],
  ])('%s: each "Open an account" carries its account into sign-up (issue 39 item 11)', (path, account, href) => {
    renderApp(path);
    expect(screen.getByRole('link', { name: `Open an account: ${account}` }).getAttribute('href')).toBe(href);
  });

  it('shows the not-found page with a way home for a path the app does not know', () => {
    renderApp('/no-such-page');
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');
  });

  it('shows the sandbox banner in sandbox mode only', () => {
    const { unmount } = renderApp('/');
    expect(screen.getByText('Sandbox: no real money')).toBeTruthy();
    unmount();
    renderApp('/', {}, { name: 'Real Bank', mode: 'production' });
    expect(screen.queryByText('Sandbox: no real money')).toBeNull();
  });

  it('offers the sandbox inbox in sandbox mode and not in production', async () => {
    const { unmount } = renderApp('/dev/mail', { 'GET /api/v1/dev/outbox': { status: 200, body: { items: [] } } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sandbox inbox' })).toBeTruthy();
    expect(await screen.findByText('No messages yet')).toBeTruthy();
    unmount();
    renderApp('/dev/mail', {}, { name: 'Real Bank', mode: 'production' });
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
  });
});

describe('route guard', () => {
  it('shows the sign-in screen in place of a customer page when /me answers 401, keeping the address', async () => {
    renderApp('/dashboard', { 'GET /api/v1/me': unauthenticated });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in to online banking' })).toBeTruthy();
    expect(window.location.pathname).toBe('/dashboard');
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/signup');
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forgetpassword');
  });

  it("takes /new-card (where the seed sends a new customer) to the card screens, and /cards' offers to the card request", async () => {
    renderApp('/new-card', { 'GET /api/v1/me': signedIn, 'GET /api/v1/cards': { status: 200, body: { items: [] } } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Card' })).toBeTruthy();
    queryClient.clear();
    renderApp('/cards');
    for (const link of screen.getAllByRole('link', { name: /^Request this card/ })) expect(link.getAttribute('href')).toBe('/card-form');
  });

  it('shows the customer page inside the bank layout when /me answers 200', async () => {
    renderApp('/home', { 'GET /api/v1/me': signedIn });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your dashboard' })).toBeTruthy();
    expect(screen.getByText(/^Good (morning|afternoon|evening|night), Ada$/)).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Online banking' })).toBeTruthy();
    for (const link of screen.getAllByRole('link', { name: 'Beneficiaries' })) expect(link.getAttribute('href')).toBe('/beneficiaries');
  });

  it('answers "page not found" to a signed-in customer for a path no screen has', async () => {
    renderApp('/settings/no-such-screen', { 'GET /api/v1/me': signedIn });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
  });
});
