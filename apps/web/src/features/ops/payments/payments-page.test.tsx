import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { renderApp } from '../../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const me = {
  status: 200,
  body: { staff: { id: 's1', email: 'ops@bank.test', role: 'operations', permissions: ['customers.read', 'cards.decide', 'loans.decide', 'payments.settle'] } },
};

describe('the outgoing payments page', () => {
  it('lists pending payments by settlement date and links the ACH file of a day', async () => {
    renderApp('/ops/payments', {
      'GET /api/v1/staff/me': me,
      'GET /api/v1/staff/payments': {
        status: 200,
        body: {
          items: [
            {
              id: 'p1',
              kind: 'external',
              rail: 'ach',
              entry: 'credit',
              status: 'pending',
              amountCents: 12_345,
              counterparty: 'Outside Payee',
              customer: { id: 'c1', name: 'Dana Demo', email: 'dana@example.com' },
              createdAt: '2026-11-24T01:00:00Z',
              expectedSettlementAt: '2026-11-26T15:00:00Z',
              traceNumber: null,
            },
          ],
          nextCursor: null,
          total: 1,
        },
      },
    });
    const table = await screen.findByRole('table', { name: 'Payments pending at the rails, by expected settlement' });
    expect(within(table).getByText('Outside Payee')).toBeTruthy();
    expect(within(table).getByText('$123.45')).toBeTruthy();
    expect(within(table).getByText('Not sent yet')).toBeTruthy();
    const link = screen.getByRole('link', { name: /Download ACH file for/ });
    expect(link.getAttribute('href')).toMatch(/^\/api\/v1\/staff\/payments\/ach-file\?date=\d{4}-\d{2}-\d{2}$/);
  });

  it('says so when nothing is pending', async () => {
    renderApp('/ops/payments', { 'GET /api/v1/staff/me': me, 'GET /api/v1/staff/payments': { status: 200, body: { items: [], nextCursor: null, total: 0 } } });
    expect(await screen.findByText('No payments pending at the rails')).toBeTruthy();
  });
});
