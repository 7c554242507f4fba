import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditMessages } from '@strongroom/contracts/staff-audit.ts';
import { rolePermissions } from '@strongroom/contracts/staff.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { renderApp } from '../../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const admin = { status: 200, body: { staff: { id: 's1', email: 'admin@bank.test', role: 'admin', permissions: [...rolePermissions.admin] } } };
const entry = (id: string, action: string, details: Record<string, string> = {}) => ({
  id,
  at: '2026-11-24T02:00:00.000Z',
  actorType: 'staff',
  actorId: 's1',
  action,
  subject: 'bank_settings',
  outcome: 'success',
  ip: '127.0.0.1',
  details,
});

describe('/ops/audit', () => {
  it('lists entries, loads more by cursor, filters, and links the CSV export of the same filter', async () => {
    const user = userEvent.setup();
    const requested: string[] = [];
    const { fetchMock } = renderApp('/ops/audit', {
      'GET /api/v1/staff/me': admin,
      'GET /api/v1/staff/audit': () => {
        const search = new URL(String(fetchMock.mock.calls.at(-1)?.[0]), 'http://localhost').search;
        requested.push(search);
        if (search.includes('cursor=2')) return { status: 200, body: { items: [entry('1', 'staff.login')], nextCursor: null } };
        return { status: 200, body: { items: [entry('3', 'settings.update', { reason: '<b>moved</b>' }), entry('2', 'staff.create')], nextCursor: '2' } };
      },
    });
    const table = await screen.findByRole('table', undefined, { timeout: 5000 });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByText(/reason: <b>moved<\/b>/)).toBeTruthy();
    expect(table.querySelector('b')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await vi.waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    await user.type(screen.getByLabelText(/^Action/), 'staff.');
    await user.type(screen.getByLabelText(/^From/), '2026-11-01');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await vi.waitFor(() => expect(requested.at(-1)).toBe('?action=staff.&from=2026-11-01'));
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe('/api/v1/staff/audit.csv?action=staff.&from=2026-11-01');
  });

  it('names the actor and the subject beside their ids, which stay for copying', async () => {
    renderApp('/ops/audit', {
      'GET /api/v1/staff/me': admin,
      'GET /api/v1/staff/audit': {
        status: 200,
        body: {
          items: [
            { ...entry('2', 'customer.frozen'), actorName: 'admin@bank.test', subject: 'c-42', subjectName: 'Zoë Tester' },
            { ...entry('1', 'auth.login'), actorType: 'customer', actorId: 'c-42', actorName: 'Zoë Tester', subject: null, subjectName: null },
          ],
          nextCursor: null,
        },
      },
    });
    const table = await screen.findByRole('table', undefined, { timeout: 5000 });
    const [frozen, login] = within(table).getAllByRole('row').slice(1);
    if (!frozen || !login) throw new Error('two rows expected');
    expect(within(frozen).getByText('admin@bank.test')).toBeTruthy();
    expect(within(frozen).getByText('Zoë Tester')).toBeTruthy();
    expect(within(frozen).getByText('c-42')).toBeTruthy();
    expect(within(frozen).getByText('staff s1')).toBeTruthy();
    expect(within(login).getByText('Zoë Tester')).toBeTruthy();
    expect(within(login).getByText('customer c-42')).toBeTruthy();
    expect(within(frozen).getByText('Succeeded')).toBeTruthy();
  });

  it('says From after To is a field error and does not ask the API', async () => {
    const user = userEvent.setup();
    const requested: string[] = [];
    const { fetchMock } = renderApp('/ops/audit', {
      'GET /api/v1/staff/me': admin,
      'GET /api/v1/staff/audit': () => {
        requested.push(new URL(String(fetchMock.mock.calls.at(-1)?.[0]), 'http://localhost').search);
        return { status: 200, body: { items: [], nextCursor: null } };
      },
    });
    await screen.findByText('No entry matches this filter.', undefined, { timeout: 5000 });
    await user.type(screen.getByLabelText(/^From/), '2026-11-02');
    await user.type(screen.getByLabelText(/^To/), '2026-11-01');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    const from = screen.getByLabelText(/^From/);
    expect(from.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(auditMessages.fromAfterTo)).toBeTruthy();
    expect(requested).toEqual(['']);

    await user.clear(screen.getByLabelText(/^To/));
    await user.type(screen.getByLabelText(/^To/), '2026-11-03');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await vi.waitFor(() => expect(requested.at(-1)).toBe('?from=2026-11-02&to=2026-11-03'));
    expect(screen.queryByText(auditMessages.fromAfterTo)).toBeNull();
  });

  it('says so when no entry matches', async () => {
    renderApp('/ops/audit', { 'GET /api/v1/staff/me': admin, 'GET /api/v1/staff/audit': { status: 200, body: { items: [], nextCursor: null } } });
    expect(await screen.findByText('No entry matches this filter.', undefined, { timeout: 5000 })).toBeTruthy();
  });
});
