import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { renderApp, signedIn } from '../../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

describe('/otp', () => {
  it('explains that codes are asked for inside a payment, with no input that goes nowhere and a way to the transfer screen', async () => {
    renderApp('/otp', { 'GET /api/v1/me': signedIn });
    expect(await screen.findByRole('heading', { level: 1, name: 'One-time codes' })).toBeTruthy();
    expect(screen.getByText(/There is nothing to enter here/)).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByRole('link', { name: 'Make a transfer' }).getAttribute('href')).toBe('/transfer');
  });
});
