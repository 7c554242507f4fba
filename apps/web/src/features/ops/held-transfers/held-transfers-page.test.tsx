import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HeldTransfer } from '@strongroom/contracts/staff-payments.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp } from '../../../test/render-app.tsx';
import { waitingFor } from './waiting-for.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const me = (email: string) => ({
  status: 200,
  body: { staff: { id: 's1', email, role: 'compliance', permissions: ['customers.read', 'identity.decide', 'transfers.review'] } },
});

const transfer = (overrides: Partial<HeldTransfer> = {}): HeldTransfer => ({
  id: '11111111-1111-4111-8111-111111111111',
  kind: 'internal',
  status: 'in_review',
  amountCents: 6_000_000,
  message: '<img src=x onerror=alert(1)>',
  rule: 'A single payment of $10,000.00 or more',
  heldAt: new Date(Date.now() - 2 * 3_600_000).toISOString(),
  decidedAt: null,
  decisionReason: null,
  customer: { id: 'c1', name: 'Dana Demo', email: 'dana@example.com' },
  payee: { name: 'Erin Example', accountLast4: '4321', bankName: null },
  recentPayments: [
    { id: 'p1', createdAt: '2026-11-20T10:00:00Z', kind: 'external', payee: 'Grocer', amountCents: 4_500, status: 'completed' },
    { id: 'p2', createdAt: '2026-11-21T10:00:00Z', kind: 'external', payee: 'Landlord', amountCents: 90_000, status: 'in_review' },
  ],
  fourEyes: { required: true, thresholdCents: 5_000_000, approvals: [] },
  ...overrides,
});

const list = (items: HeldTransfer[]) => ({ status: 200, body: { items, nextCursor: null, total: items.length } });

describe('the held-transfers queue', () => {
  it('lists customer, payee, amount, rule and waiting time, and shows the recent payments in the detail', async () => {
    renderApp('/ops/held-transfers', { 'GET /api/v1/staff/me': me('ann@bank.test'), 'GET /api/v1/staff/held-transfers': list([transfer()]) });
    const table = await screen.findByRole('table', { name: 'Transfers held for review' });
    const row = within(table).getAllByRole('row')[1];
    if (!row) throw new Error('no row');
    expect(within(row).getByText('Dana Demo')).toBeTruthy();
    expect(within(row).getByText('Erin Example')).toBeTruthy();
    expect(within(row).getByText('$60,000.00')).toBeTruthy();
    expect(within(row).getByText('A single payment of $10,000.00 or more')).toBeTruthy();
    expect(within(row).getByText('2 h')).toBeTruthy();
    await userEvent.click(within(row).getByRole('button', { name: 'Review $60,000.00 to Erin Example' }));
    expect(await screen.findByRole('table', { name: "The customer's recent payments" })).toBeTruthy();
    expect(screen.getByText('Grocer')).toBeTruthy();
    // Statuses in words, never the raw code.
    const recent = screen.getByRole('table', { name: "The customer's recent payments" });
    expect(within(recent).getByText('Completed')).toBeTruthy();
    expect(within(recent).getByText('In review')).toBeTruthy();
    expect(within(recent).queryByText(/in_review|in review/)).toBeNull();
    // HTML in a message is shown as text, inert.
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeTruthy();
    expect(document.querySelector('img[src="x"]')).toBeNull();
  });

  it('shows the next page of a long queue on "Show more", by its cursor', async () => {
    const first = transfer({ id: 'p1', payee: { ...transfer().payee, name: 'First Payee' } });
    const second = transfer({ id: 'p2', payee: { ...transfer().payee, name: 'Second Payee' } });
    const { fetchMock } = renderApp('/ops/held-transfers', {
      'GET /api/v1/staff/me': me('ann@bank.test'),
      'GET /api/v1/staff/held-transfers': () =>
        fetchMock.mock.calls.some(([input]) => String(input).includes('cursor=c1'))
          ? { status: 200, body: { items: [second], nextCursor: null, total: 2 } }
          : { status: 200, body: { items: [first], nextCursor: 'c1', total: 2 } },
    });
    await screen.findByText('First Payee');
    expect(screen.getByText(/2 waiting for review, oldest first \(the first 1 shown\)/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await screen.findByText('Second Payee');
    expect(screen.getByText('First Payee')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it('asks for a reason and a confirmation, and says a first approval awaits someone else', async () => {
    const bodies: unknown[] = [];
    renderApp('/ops/held-transfers', {
      'GET /api/v1/staff/me': me('ann@bank.test'),
      'GET /api/v1/staff/held-transfers': list([transfer()]),
      'POST /api/v1/staff/held-transfers/11111111-1111-4111-8111-111111111111/decision': (init) => {
        bodies.push(jsonBodyOf(init));
        return {
          status: 202,
          body: {
            status: 'awaiting_second_approval',
            transfer: transfer({
              fourEyes: {
                required: true,
                thresholdCents: 5_000_000,
                approvals: [{ staffId: 's1', email: 'ann@bank.test', reason: 'Seen', approvedAt: '2026-11-24T01:00:00Z' }],
              },
            }),
          },
        };
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Review $60,000.00 to Erin Example' }));
    await userEvent.click(screen.getByRole('button', { name: 'Approve release (first of two)' }));
    const dialog = screen.getByRole('dialog', { name: 'Release $60,000.00 to Erin Example?' });
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'no');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Release' }));
    expect(within(dialog).getByText('the reason needs at least 3 characters')).toBeTruthy();
    expect(bodies).toEqual([]);
    await userEvent.clear(within(dialog).getByLabelText('Reason'));
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'Source of funds seen');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Release' }));
    expect(await within(dialog).findByText('Your approval is recorded. Awaiting a second approval by someone other than you.')).toBeTruthy();
    expect(bodies).toEqual([{ decision: 'release', reason: 'Source of funds seen' }]);
  });

  it('names the first approver to someone else, who may complete the release', async () => {
    const approved = transfer({
      fourEyes: {
        required: true,
        thresholdCents: 5_000_000,
        approvals: [{ staffId: 's9', email: 'ann@bank.test', reason: 'Seen', approvedAt: '2026-11-24T01:00:00Z' }],
      },
    });
    renderApp('/ops/held-transfers', { 'GET /api/v1/staff/me': me('bob@bank.test'), 'GET /api/v1/staff/held-transfers': list([approved]) });
    await userEvent.click(await screen.findByRole('button', { name: 'Review $60,000.00 to Erin Example' }));
    expect(screen.getByText(/Awaiting a second approval by someone other than ann@bank.test/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Release' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('says a release needs two independent staff members: neither granted the other access, nor one person both', async () => {
    const waiting = transfer();
    const approved = transfer({
      id: '22222222-2222-4222-8222-222222222222',
      payee: { ...transfer().payee, name: 'Fay Example' },
      fourEyes: {
        required: true,
        thresholdCents: 5_000_000,
        approvals: [{ staffId: 's9', email: 'ann@bank.test', reason: 'Seen', approvedAt: '2026-11-24T01:00:00Z' }],
      },
    });
    renderApp('/ops/held-transfers', { 'GET /api/v1/staff/me': me('bob@bank.test'), 'GET /api/v1/staff/held-transfers': list([waiting, approved]) });
    const rule = "Neither approver may have granted the other's back-office access, directly or through others, and no one person may have granted both.";
    await userEvent.click(await screen.findByRole('button', { name: 'Review $60,000.00 to Erin Example' }));
    expect(screen.getByText(`A release needs two independent staff members ($50,000.00 or more). ${rule}`)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Review $60,000.00 to Fay Example' }));
    const notice = screen.getByText(/^Awaiting a second approval by someone other than ann@bank\.test/);
    expect(notice.textContent?.endsWith(rule)).toBe(true);
  });

  it('shows an empty queue', async () => {
    renderApp('/ops/held-transfers', { 'GET /api/v1/staff/me': me('ann@bank.test'), 'GET /api/v1/staff/held-transfers': list([]) });
    expect(await screen.findByText('No transfers wait for review')).toBeTruthy();
  });

  it('says how long in the largest whole unit', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(waitingFor('2026-11-24T11:55:00Z', now)).toBe('5 min');
    expect(waitingFor('2026-11-24T09:00:00Z', now)).toBe('3 h');
    expect(waitingFor('2026-11-21T12:00:00Z', now)).toBe('3 d');
  });
});
