import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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

const achCredit = {
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
};

describe('the outgoing payments page', () => {
  it('lists pending payments by settlement date and links the ACH file of a day', async () => {
    renderApp('/ops/payments', {
      'GET /api/v1/staff/me': me,
      'GET /api/v1/staff/payments': {
        status: 200,
        body: {
          items: [achCredit],
          nextCursor: null,
          total: 1,
        },
      },
    });
    const table = await screen.findByRole('table', { name: 'Payments pending at the rails, by expected settlement' });
    expect(within(table).getByText('Outside Payee')).toBeTruthy();
    expect(within(table).getByText('$123.45')).toBeTruthy();
    expect(within(table).getByText('Not sent yet')).toBeTruthy();
    const link = await screen.findByRole('link', { name: /Download ACH file for/ });
    expect(link.getAttribute('href')).toMatch(/^\/api\/v1\/staff\/payments\/ach-file\?date=\d{4}-\d{2}-\d{2}$/);
  });

  it('asks for the reason the audit log keeps before the ACH file downloads, and sends it with the download', async () => {
    const user = userEvent.setup();
    renderApp('/ops/payments', {
      'GET /api/v1/staff/me': me,
      'GET /api/v1/staff/payments': { status: 200, body: { items: [achCredit], nextCursor: null, total: 1 } },
    });
    const link = await screen.findByRole('link', { name: /Download ACH file for/ });
    await user.click(link);
    const reason = screen.getByLabelText(/^Reason for the download/);
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('field should not be empty')).toBeTruthy();

    await user.type(reason, 'Daily file for the bank');
    expect(reason.getAttribute('aria-invalid')).toBeNull();
    expect(link.getAttribute('href')).toMatch(/^\/api\/v1\/staff\/payments\/ach-file\?date=\d{4}-\d{2}-\d{2}&reason=Daily\+file\+for\+the\+bank$/);
  });

  it('disables the ACH download and says why when no ACH credit is pending for the day', async () => {
    const wire = { ...achCredit, id: 'p2', rail: 'wire' };
    renderApp('/ops/payments', {
      'GET /api/v1/staff/me': me,
      'GET /api/v1/staff/payments': { status: 200, body: { items: [wire], nextCursor: null, total: 1 } },
    });
    expect(await screen.findByText(/Nothing is pending at the ACH rail for \d{4}-\d{2}-\d{2}: there is no file to download\./)).toBeTruthy();
    expect(screen.getByRole('button', { name: /Download ACH file for/ }).hasAttribute('disabled')).toBe(true);
    expect(screen.queryByRole('link', { name: /Download ACH file for/ })).toBeNull();
  });

  it('says so when nothing is pending', async () => {
    renderApp('/ops/payments', { 'GET /api/v1/staff/me': me, 'GET /api/v1/staff/payments': { status: 200, body: { items: [], nextCursor: null, total: 0 } } });
    expect(await screen.findByText('No payments pending at the rails')).toBeTruthy();
  });
});
