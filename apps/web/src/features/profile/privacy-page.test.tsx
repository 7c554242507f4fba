import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, signedIn, unauthenticated, sessionAt } from '../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

async function expectFourCards() {
  expect(await screen.findByRole('heading', { level: 1, name: 'Terms and privacy' })).toBeTruthy();
  expect(screen.getByRole('heading', { level: 2, name: 'Strongroom Demo Bank Terms and Conditions' })).toBeTruthy();
  expect(screen.getByRole('heading', { level: 2, name: 'Strongroom Demo Bank Refund Policy' })).toBeTruthy();
  expect(screen.getByText(/within 30 days/)).toBeTruthy();
  expect(screen.getByText(/ACH and arrive in 3-5 business days/)).toBeTruthy();
  expect(screen.getByText(/wire and arrive within 24 hours/)).toBeTruthy();
  expect(screen.getByText(/we reply within 24 hours/)).toBeTruthy();
}

describe('/privacy', () => {
  it('is readable signed out, in the public frame and without the sign-in screen', async () => {
    renderApp('/privacy', { 'GET /api/v1/me': unauthenticated });
    await expectFourCards();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Online banking' })).toBeNull();
  });

  it('is readable by a customer still onboarding, in the public frame', async () => {
    renderApp('/privacy', { 'GET /api/v1/me': sessionAt('phone') });
    await expectFourCards();
    expect(window.location.pathname).toBe('/privacy');
  });

  it('shows in the bank’s frame to a signed-in customer', async () => {
    renderApp('/privacy', { 'GET /api/v1/me': signedIn });
    await expectFourCards();
    expect(screen.getByRole('navigation', { name: 'Online banking' })).toBeTruthy();
  });
});
