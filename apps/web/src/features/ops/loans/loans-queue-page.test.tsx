import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Loan, StaffLoan } from '@strongroom/contracts/loans.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp } from '../../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const operations = {
  status: 200,
  body: {
    staff: { id: 's1', email: 'olga@bank.test', role: 'operations', permissions: ['customers.read', 'cards.decide', 'loans.decide', 'payments.settle'] },
  },
};

const loanId = '9d3c7a10-4b2e-4f6a-8c1d-5e6f7a8b9c0d';

const loan: Loan = {
  id: loanId,
  status: 'submitted',
  maritalStatus: 'married',
  occupation: 'Nurse',
  address: '1 Main Street',
  purpose: 'A used car',
  requestedAmountCents: 1_200_000,
  annualIncomeCents: 6_000_000,
  durationMonths: 24,
  amountCents: null,
  aprBps: null,
  termMonths: null,
  balanceCents: null,
  nextDueDate: null,
  nextPaymentCents: null,
  rejectionReason: null,
  createdAt: new Date(Date.now() - 3 * 3_600_000).toISOString(),
  disbursedAt: null,
};

const application: StaffLoan = {
  loan,
  customerId: 'c1',
  customerName: 'Ada Lovelace',
  customerEmail: 'ada@example.com',
  accounts: [
    { id: 'a1', type: 'checking', number: '6043797155', availableCents: 425_000 },
    { id: 'a2', type: 'savings', number: '6927529963', availableCents: 10_000 },
  ],
  recentIncomeCents: 1_500_000,
  suggestedAprBps: 1_200,
  suggestedMonthlyPaymentCents: 56_488,
  debtToIncomeBps: 1_130,
  decidedBy: null,
  decidedAt: null,
};

const list = (items: StaffLoan[]) => ({ status: 200, body: { items, nextCursor: null, total: items.length } });

describe('the loan queue', { timeout: 20_000 }, () => {
  it('lists each application with income, suggested payment and debt to income, and counts them in the navigation', async () => {
    renderApp('/ops/loans', { 'GET /api/v1/staff/me': operations, 'GET /api/v1/staff/loans': list([application]) });
    const table = await screen.findByRole('table', { name: '1 waiting, oldest first' });
    const row = within(table).getAllByRole('row')[1];
    if (!row) throw new Error('no row');
    expect(within(row).getByText('Ada Lovelace')).toBeTruthy();
    expect(within(row).getByText('$12,000.00')).toBeTruthy();
    expect(within(row).getByText('24 months')).toBeTruthy();
    expect(within(row).getByText('$564.88')).toBeTruthy();
    expect(within(row).getByText('11.3%')).toBeTruthy();
    expect(within(row).getByText('3 h')).toBeTruthy();
    const navigation = screen.getByRole('navigation');
    expect(within(navigation).getByRole('link', { name: /Loan applications/ }).textContent).toContain('1');

    await user().click(within(row).getByRole('button', { name: "Review Ada Lovelace's application for $12,000.00" }));
    const accounts = await screen.findByRole('table', { name: "The customer's accounts" });
    expect(within(accounts).getByText('6043797155')).toBeTruthy();
    expect(screen.getByText('$15,000.00')).toBeTruthy();
    expect(screen.getByText('A used car')).toBeTruthy();
    expect(screen.getByText('$60,000.00')).toBeTruthy();
  });

  it('approves with the terms typed (APR as a percentage sent in basis points) after a confirmation showing the monthly payment', async () => {
    const bodies: unknown[] = [];
    let decided = false;
    renderApp('/ops/loans', {
      'GET /api/v1/staff/me': operations,
      'GET /api/v1/staff/loans': () => list(decided ? [] : [application]),
      [`POST /api/v1/staff/loans/${loanId}/decision`]: (init) => {
        bodies.push(jsonBodyOf(init));
        decided = true;
        return { status: 200, body: { loan: { ...application, loan: { ...loan, status: 'active', amountCents: 1_000_000, aprBps: 1_250, termMonths: 24 } } } };
      },
    });
    const person = user();
    await person.click(await screen.findByRole('button', { name: "Review Ada Lovelace's application for $12,000.00" }));
    const amount = screen.getByRole('textbox', { name: /^Amount/ });
    const apr = screen.getByRole('textbox', { name: /^APR/ });
    const term = screen.getByRole('textbox', { name: /^Term/ });
    // Suggested terms are filled in: the request and the suggested APR.
    expect((amount as HTMLInputElement).value).toBe('12000.00');
    expect((apr as HTMLInputElement).value).toBe('12.00');
    expect((term as HTMLInputElement).value).toBe('24');

    await person.clear(amount);
    await person.type(amount, '12,000.01');
    await person.clear(apr);
    await person.type(apr, '36.5');
    await person.clear(term);
    await person.type(term, '0');
    await person.click(screen.getByRole('button', { name: /^Approve/ }));
    expect(await screen.findByText('at most the $12,000.00 asked for')).toBeTruthy();
    expect(screen.getByText('the APR is 0% to 36%')).toBeTruthy();
    expect(screen.getByText('the term is 1 to 84 months')).toBeTruthy();
    expect(screen.getByText('field should not be empty')).toBeTruthy();

    await person.clear(amount);
    await person.type(amount, '10,000');
    await person.clear(apr);
    await person.type(apr, '12.5');
    await person.clear(term);
    await person.type(term, '24');
    await person.type(screen.getByRole('textbox', { name: /^Reason for approval/ }), 'Stable income, low debt');
    // 10,000.00 at 12.5% over 24 months: 473.07 a month.
    expect(screen.getByText('$473.07')).toBeTruthy();
    await person.click(screen.getByRole('button', { name: 'Approve $10,000.00' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve and offer $10,000.00 to Ada Lovelace?' });
    expect(within(dialog).getByText('$473.07')).toBeTruthy();
    expect(within(dialog).getByText('12.50%')).toBeTruthy();
    expect(bodies).toHaveLength(0);
    await person.click(within(dialog).getByRole('button', { name: 'Approve and offer $10,000.00' }));
    expect(
      await within(dialog).findByText(
        'Ada Lovelace is offered $10,000.00. Nothing is paid until they accept; the offer lapses in 30 days. The customer is told.',
      ),
    ).toBeTruthy();
    expect(bodies).toEqual([{ decision: 'approve', reason: 'Stable income, low debt', amountCents: 1_000_000, aprBps: 1_250, termMonths: 24 }]);
    await person.click(within(dialog).getByRole('button', { name: 'Done' }));
    // Decided, it leaves the queue.
    expect(await screen.findByText('No loan applications are waiting')).toBeTruthy();
  });

  it('rejects with a reason after a confirmation', async () => {
    const bodies: unknown[] = [];
    renderApp('/ops/loans', {
      'GET /api/v1/staff/me': operations,
      'GET /api/v1/staff/loans': list([application]),
      [`POST /api/v1/staff/loans/${loanId}/decision`]: (init) => {
        bodies.push(jsonBodyOf(init));
        return { status: 200, body: { loan: { ...application, loan: { ...loan, status: 'rejected', rejectionReason: 'Income too low' } } } };
      },
    });
    const person = user();
    await person.click(await screen.findByRole('button', { name: "Review Ada Lovelace's application for $12,000.00" }));
    await person.click(screen.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('field should not be empty')).toBeTruthy();
    await person.type(screen.getByRole('textbox', { name: /^Reason for rejection/ }), 'Income too low');
    await person.click(screen.getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: "Reject Ada Lovelace's application for $12,000.00?" });
    await person.click(within(dialog).getByRole('button', { name: 'Reject application' }));
    expect(await within(dialog).findByText("Ada Lovelace's application was rejected. The customer is told.")).toBeTruthy();
    expect(bodies).toEqual([{ decision: 'reject', reason: 'Income too low' }]);
  });

  it('shows the server’s refusal in the dialog (someone decided first)', async () => {
    renderApp('/ops/loans', {
      'GET /api/v1/staff/me': operations,
      'GET /api/v1/staff/loans': list([application]),
      [`POST /api/v1/staff/loans/${loanId}/decision`]: {
        status: 409,
        body: { error: { code: 'already_decided', message: 'This application was already decided' } },
      },
    });
    const person = user();
    await person.click(await screen.findByRole('button', { name: "Review Ada Lovelace's application for $12,000.00" }));
    await person.type(screen.getByRole('textbox', { name: /^Reason for rejection/ }), 'Income too low');
    await person.click(screen.getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog');
    await person.click(within(dialog).getByRole('button', { name: 'Reject application' }));
    expect(await within(dialog).findByText('This application was already decided')).toBeTruthy();
  });

  it('filters by status and shows the decided terms', async () => {
    const approved: StaffLoan = {
      ...application,
      loan: { ...loan, status: 'active', amountCents: 1_000_000, aprBps: 1_250, termMonths: 24 },
      decidedBy: 'olga@bank.test',
      decidedAt: '2026-11-24T09:00:00.000Z',
    };
    const { fetchMock } = renderApp('/ops/loans', {
      'GET /api/v1/staff/me': operations,
      'GET /api/v1/staff/loans': () => (fetchMock.mock.calls.some(([input]) => String(input).includes('status=active')) ? list([approved]) : list([])),
    });
    expect(await screen.findByText('No loan applications are waiting')).toBeTruthy();
    const person = user();
    await person.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'active');
    await person.click(await screen.findByRole('button', { name: "Review Ada Lovelace's application for $12,000.00" }));
    expect(await screen.findByText('$10,000.00 at 12.50% over 24 months')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reject' })).toBeNull();
  });

  it('lists the offers waiting for the customer with the date each lapses', async () => {
    const offered: StaffLoan = {
      ...application,
      loan: { ...loan, status: 'offered', amountCents: 1_000_000, aprBps: 1_250, termMonths: 24, offerExpiresAt: '2026-12-24T10:00:00.000Z' },
      decidedBy: 'olga@bank.test',
      decidedAt: '2026-11-24T09:00:00.000Z',
    };
    const { fetchMock } = renderApp('/ops/loans', {
      'GET /api/v1/staff/me': operations,
      'GET /api/v1/staff/loans': () => (fetchMock.mock.calls.some(([input]) => String(input).includes('status=offered')) ? list([offered]) : list([])),
    });
    expect(await screen.findByText('No loan applications are waiting')).toBeTruthy();
    const person = user();
    await person.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'offered');
    const table = await screen.findByRole('table', { name: /1 offered/ });
    expect(within(table).getByRole('columnheader', { name: 'Offer lapses' })).toBeTruthy();
    expect(within(table).getByText(/Dec 24, 2026/)).toBeTruthy();
    await person.click(screen.getByRole('button', { name: "Review Ada Lovelace's application for $12,000.00" }));
    expect(await screen.findByText('Offer lapses', { selector: 'dt' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reject' })).toBeNull();
  });

  it('says when the queue cannot be loaded', async () => {
    renderApp('/ops/loans', {
      'GET /api/v1/staff/me': operations,
      'GET /api/v1/staff/loans': { status: 500, body: { error: { code: 'internal_error', message: 'Something broke' } } },
    });
    expect(await screen.findByRole('heading', { name: 'The loan applications could not be loaded' }, { timeout: 10_000 })).toBeTruthy();
  });
});

function user() {
  return userEvent.setup({ delay: null });
}
