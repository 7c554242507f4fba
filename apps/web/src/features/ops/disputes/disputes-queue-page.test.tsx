import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rolePermissions } from '@strongroom/contracts/staff.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { renderApp, type FakeAnswer } from '../../../test/render-app.tsx';
import { staffDispute, staffMe } from './test-fixtures.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const listed = (items: unknown[]): FakeAnswer => ({ status: 200, body: { items } });

const overdue = staffDispute({
  id: '00000000-0000-4000-8000-00000000d002',
  customer: { id: 'c2', name: 'Alan Turing', email: 'alan@example.com' },
  transaction: { kind: 'bill', description: 'City Power bill', amountCents: 12_000, date: '2026-10-01' },
  amountCents: 12_000,
  status: 'investigating',
  nextDeadline: '2026-11-10',
  provisionalCreditBy: '2026-11-10',
  overdue: true,
});
const onTime = staffDispute();

describe('/ops/disputes, the queue', () => {
  it('lists the cases in the order the server gives (nearest deadline first), with an Overdue badge only where one is passed', async () => {
    renderApp('/ops/disputes', { 'GET /api/v1/staff/me': staffMe('operations'), 'GET /api/v1/staff/disputes': listed([overdue, onTime]) });
    const table = await screen.findByRole('table', { name: 'Disputes, nearest deadline first' });
    const [, first, second] = within(table).getAllByRole('row') as HTMLElement[];
    expect(first?.textContent).toContain('Alan Turing');
    expect(first?.textContent).toContain('alan@example.com');
    expect(first?.textContent).toContain('City Power bill');
    expect(first?.textContent).toContain('$120.00');
    expect(first?.textContent).toContain('Investigating');
    expect(first?.textContent).toContain('Nov 10, 2026');
    expect(within(first as HTMLElement).getByText('Overdue')).toBeTruthy();
    expect(second?.textContent).toContain('Ada Lovelace');
    expect(second?.textContent).toContain('Corner Electronics');
    expect(second?.textContent).toContain('$42.50');
    expect(second?.textContent).toContain('New, not yet investigated');
    expect(second?.textContent).toContain('Nov 16, 2026');
    expect(second?.textContent).toContain('Provisional credit by');
    expect(within(second as HTMLElement).queryByText('Overdue')).toBeNull();
    expect(
      within(second as HTMLElement)
        .getByRole('link', { name: 'Ada Lovelace' })
        .getAttribute('href'),
    ).toBe(`/ops/disputes/${onTime.id}`);
  });

  it('asks the server for the chosen status only, and says when none has it', async () => {
    const user = userEvent.setup();
    // The fake API ignores the query string; the address of the request being answered is fetch's last call.
    const lastAsked = () => String(vi.mocked(fetch).mock.calls.at(-1)?.[0]);
    const { fetchMock } = renderApp('/ops/disputes', {
      'GET /api/v1/staff/me': staffMe('operations'),
      'GET /api/v1/staff/disputes': () => {
        const url = lastAsked();
        return listed(url.includes('status=investigating') ? [overdue] : url.includes('status=') ? [] : [overdue, onTime]);
      },
    });
    const asked = () => fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('/staff/disputes'));
    await screen.findByRole('table', { name: 'Disputes, nearest deadline first' });
    await user.selectOptions(screen.getByLabelText('Status'), 'investigating');
    expect(await screen.findByText('Alan Turing')).toBeTruthy();
    await vi.waitFor(() => expect(screen.queryByText('Ada Lovelace')).toBeNull());
    expect(asked()).toEqual(['/api/v1/staff/disputes', '/api/v1/staff/disputes?status=investigating']);
    await user.selectOptions(screen.getByLabelText('Status'), 'withdrawn');
    expect(await screen.findByText('No withdrawn by the customer cases')).toBeTruthy();
    expect(asked().at(-1)).toBe('/api/v1/staff/disputes?status=withdrawn');
  });

  it('says when there are no disputes, and when they could not be loaded', async () => {
    renderApp('/ops/disputes', { 'GET /api/v1/staff/me': staffMe('admin'), 'GET /api/v1/staff/disputes': listed([]) });
    expect(await screen.findByText('No disputes')).toBeTruthy();
    cleanup();
    queryClient.clear();
    renderApp('/ops/disputes', {
      'GET /api/v1/staff/me': staffMe('admin'),
      'GET /api/v1/staff/disputes': { status: 500, body: { error: { code: 'internal_error', message: 'Something went wrong on our side' } } },
    });
    expect(await screen.findByText('The disputes could not be loaded')).toBeTruthy();
    expect(screen.getByText('Something went wrong on our side')).toBeTruthy();
  });

  it('is in the navigation of operations and admin only; support and compliance opening it ask nothing', async () => {
    for (const role of ['operations', 'admin'] as const) {
      renderApp('/ops', { 'GET /api/v1/staff/me': staffMe(role), 'GET /api/v1/staff/disputes': listed([]) });
      const navigation = await screen.findByRole('navigation', { name: 'Back office' });
      expect(within(navigation).getByRole('link', { name: 'Disputes' }).getAttribute('href')).toBe('/ops/disputes');
      cleanup();
      queryClient.clear();
    }
    expect(rolePermissions.support).not.toContain('disputes.manage');
    // The contract's compliance role keeps exactly its three permissions (PRODUCT.md section 6).
    expect(rolePermissions.compliance).not.toContain('disputes.manage');
    const { fetchMock } = renderApp('/ops/disputes', { 'GET /api/v1/staff/me': staffMe('support') });
    const navigation = await screen.findByRole('navigation', { name: 'Back office' });
    expect(within(navigation).queryByRole('link', { name: 'Disputes' })).toBeNull();
    expect(await screen.findByText('Your role (support) cannot use this page: ask an administrator if you need it.')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/staff/disputes'))).toBe(false);
  });
});
