import { screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp } from '../../test/render-app.tsx';
import { apiError } from '../../test/payment-fixtures.ts';
import { disputeApi, disputeOf } from './test-fixtures.ts';

beforeAll(() => import('./disputes-page.tsx'));

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

describe('/disputes', { timeout: 20_000 }, () => {
  it('lists each report with its status in words, the transaction and the dates it will change by', async () => {
    const open = disputeOf();
    const credited = disputeOf({
      id: '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
      status: 'provisionally_credited',
      reason: 'duplicate',
      provisionalCreditCents: 12_000,
      transaction: { kind: 'bill', description: 'Bill payment to City Water, account ending 4821', amountCents: -12_000, date: '2026-02-20' },
    });
    const withdrawn = disputeOf({
      id: '3b4c5d6e-7f8a-4b9c-8d1e-2f3a4b5c6d7e',
      status: 'withdrawn',
      transaction: { ...open.transaction, description: 'Cafe Luna · Restaurants' },
    });
    renderApp('/disputes', disputeApi({ 'GET /api/v1/disputes': { status: 200, body: { items: [open, credited, withdrawn] } } }));
    const rows = within(await screen.findByRole('list', { name: 'Your reports' })).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    const [first, second, third] = rows;
    if (!first || !second || !third) throw new Error('three rows expected');
    expect(within(first).getByRole('link', { name: 'Corner Grocer · Groceries' }).getAttribute('href')).toBe(`/disputes/${open.id}`);
    expect(within(first).getByText('Received')).toBeTruthy();
    expect(within(first).getByText('I did not make or allow this. Transaction of Mon 2 Mar 2026, reported Mon 9 Mar 2026.')).toBeTruthy();
    expect(within(first).getByText('If we have not finished by Mon 23 Mar 2026, we give you provisional credit of $49.99 by then.')).toBeTruthy();
    expect(within(first).getByText('We finish by Fri 5 Jun 2026.')).toBeTruthy();
    expect(within(first).getByText('-$49.99')).toBeTruthy();
    expect(within(second).getByText('Provisional credit given')).toBeTruthy();
    expect(within(second).getByText('We gave you provisional credit of $120.00 while we investigate.')).toBeTruthy();
    expect(within(third).getByText('Withdrawn')).toBeTruthy();
    expect(within(third).queryByText(/We finish by/)).toBeNull();
  });

  it('says when there are no reports, and how to make one', async () => {
    renderApp('/disputes', disputeApi({ 'GET /api/v1/disputes': { status: 200, body: { items: [] } } }));
    expect(await screen.findByRole('heading', { name: 'You have not reported any problems' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open your history' }).getAttribute('href')).toBe('/transaction-history');
  });

  it('says when the reports cannot be loaded, with a way to try again', async () => {
    renderApp('/disputes', disputeApi({ 'GET /api/v1/disputes': apiError(500, 'internal_error', 'The bank is having trouble') }));
    expect(await screen.findByRole('heading', { name: 'We could not load your reported problems' })).toBeTruthy();
    expect(screen.getByText('The bank is having trouble')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
