import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { jsonBodyOf, renderApp, signedIn, type FakeApi } from '../../test/render-app.tsx';
import { checkingAccount, detail, loan, loanId } from './test-fixtures.ts';

beforeAll(() => import('./loan-page.tsx'));

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const path = `/loan/${loanId}`;

function renderLoan(api: FakeApi = {}) {
  return renderApp(path, {
    'GET /api/v1/me': signedIn,
    'GET /api/v1/accounts': { status: 200, body: [checkingAccount] },
    [`GET /api/v1/loans/${loanId}`]: { status: 200, body: detail() },
    ...api,
  });
}

function definition(container: HTMLElement, term: string): string | null | undefined {
  const dt = within(container).getByText(term, { selector: 'dt' });
  return dt.nextElementSibling?.textContent;
}

describe('/loan/{id}', { timeout: 20_000 }, () => {
  it('shows the Truth in Lending box: amount financed, finance charge, APR with two decimals, total of payments', async () => {
    renderLoan();
    const box = (await screen.findByRole('heading', { name: 'Truth in Lending disclosure' })).closest('section');
    if (!box) throw new Error('no disclosure');
    expect(definition(box, 'Annual percentage rate')).toBe('12.00%');
    expect(definition(box, 'Finance charge')).toBe('$3.53');
    expect(definition(box, 'Amount financed')).toBe('$100.00');
    expect(definition(box, 'Total of payments')).toBe('$103.53');
    expect(
      within(box).getByText('Payment schedule: 5 monthly payments of $17.25, the first on Dec 24, 2026, and a final payment of $17.28 on May 24, 2027.'),
    ).toBeTruthy();
    // Nothing paid yet: the box is introduced as what to read before the first payment.
    expect(screen.getByText(/Before your first payment/)).toBeTruthy();
  });

  it('lists the schedule with paid, due and late, and offers it as PDF and CSV', async () => {
    renderLoan();
    const table = await screen.findByRole('table', { name: 'Payment schedule' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(7);
    const first = rows[1];
    const last = rows[6];
    if (!first || !last) throw new Error('rows expected');
    expect(within(first).getByText('Late')).toBeTruthy();
    expect(within(first).getByText('$16.25')).toBeTruthy();
    expect(within(first).getByText('$1.00')).toBeTruthy();
    expect(within(first).getByText('$83.75')).toBeTruthy();
    expect(within(last).getByText('$17.28')).toBeTruthy();
    expect(within(last).getByText('Due')).toBeTruthy();
    expect(screen.getByText(/One payment is late/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download PDF' }).getAttribute('href')).toBe(`/api/v1/loans/${loanId}/schedule.pdf`);
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(`/api/v1/loans/${loanId}/schedule.csv`);
  });

  it('lists the schedule on a phone as one card per payment, with its interest, balance and status, and no table', async () => {
    // A screen narrower than 600 px, as far as CSS media queries go (the history screen's breakpoint).
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width: 599.98px'),
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    renderLoan();
    const list = await screen.findByRole('list', { name: 'Payment schedule' });
    expect(screen.queryByRole('table', { name: 'Payment schedule' })).toBeNull();
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(6);
    const first = items[0];
    if (!first) throw new Error('a payment expected');
    expect(within(first).getByText('Late')).toBeTruthy();
    expect(definition(first, 'Payment')).toBe('$17.25');
    expect(definition(first, 'Principal')).toBe('$16.25');
    expect(definition(first, 'Interest')).toBe('$1.00');
    expect(definition(first, 'Balance after')).toBe('$83.75');
  });

  it('says the loan is not there for an unknown or someone else’s id', async () => {
    renderLoan({ [`GET /api/v1/loans/${loanId}`]: { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } } });
    expect(await screen.findByRole('heading', { name: 'We could not find this loan' })).toBeTruthy();
  });

  it('shows why an application was not approved', async () => {
    renderLoan({
      [`GET /api/v1/loans/${loanId}`]: {
        status: 200,
        body: {
          loan: loan({
            status: 'rejected',
            amountCents: null,
            aprBps: null,
            termMonths: null,
            balanceCents: null,
            nextDueDate: null,
            nextPaymentCents: null,
            disbursedAt: null,
            rejectionReason: 'Debt to income too high',
          }),
          schedule: [],
          disclosure: null,
        },
      },
    });
    expect(await screen.findByText('Debt to income too high')).toBeTruthy();
    expect(screen.getByText('Your application was not approved.')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Truth in Lending disclosure' })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Pay early' })).toBeNull();
  });

  it('pays early after a confirmation, with an Idempotency-Key, and refuses more than is owed', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: { body: unknown; key: string | null }[] = [];
    renderLoan({
      [`POST /api/v1/loans/${loanId}/repayments`]: (init) => {
        sent.push({ body: jsonBodyOf(init), key: new Headers(init?.headers).get('Idempotency-Key') });
        return { status: 201, body: { ...detail({ balanceCents: 5_000 }), transferId: 't1' } };
      },
    });
    const form = await screen.findByRole('form', { name: 'Pay early' });
    expect(screen.getByText('$100.00', { selector: 'strong' })).toBeTruthy();
    const amount = within(form).getByRole('textbox', { name: /^Amount/ });
    await user.type(amount, '100.01');
    await user.click(within(form).getByRole('button', { name: 'Review payment' }));
    expect(await screen.findByText('you owe $100.00: pay at most that')).toBeTruthy();
    await user.clear(amount);
    await user.type(amount, 'ten');
    await user.click(within(form).getByRole('button', { name: 'Review payment' }));
    expect(await screen.findByText('number is not valid')).toBeTruthy();

    await user.clear(amount);
    await user.type(amount, '50');
    await user.click(within(form).getByRole('button', { name: 'Review payment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pay $50.00 to your loan?' });
    expect(within(dialog).getByText(/You will owe \$50\.00 after it/)).toBeTruthy();
    expect(sent).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Pay $50.00' }));
    expect(await screen.findByText('You paid $50.00. You now owe $50.00.')).toBeTruthy();
    expect(sent).toEqual([{ body: { fromAccountId: checkingAccount.id, amountCents: 5_000 }, key: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);
  });

  it('fills the payoff amount and says a full payment closes the loan', async () => {
    const user = userEvent.setup({ delay: null });
    const paidOff = detail({ status: 'paid_off', balanceCents: 0, nextDueDate: null, nextPaymentCents: null });
    let paid = false;
    renderLoan({
      [`GET /api/v1/loans/${loanId}`]: () => ({ status: 200, body: paid ? paidOff : detail() }),
      [`POST /api/v1/loans/${loanId}/repayments`]: () => {
        paid = true;
        return { status: 201, body: { ...paidOff, transferId: 't1' } };
      },
    });
    const form = await screen.findByRole('form', { name: 'Pay early' });
    await user.click(within(form).getByRole('button', { name: 'Pay off in full' }));
    expect((within(form).getByRole('textbox', { name: /^Amount/ }) as HTMLInputElement).value).toBe('100.00');
    await user.click(within(form).getByRole('button', { name: 'Review payment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pay $100.00 to your loan?' });
    expect(within(dialog).getByText(/This pays the loan off in full/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Pay $100.00' }));
    expect(await screen.findByText('You paid $100.00. Your loan is paid off.')).toBeTruthy();
    // The page shows the loan as the answer left it: paid off, nothing more to pay early.
    expect(screen.getByText('Paid off')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Pay early' })).toBeNull();
  });

  it('shows the server’s refusal of a payment (an instalment is late) and keeps the form', async () => {
    const user = userEvent.setup({ delay: null });
    renderLoan({
      [`POST /api/v1/loans/${loanId}/repayments`]: {
        status: 409,
        body: { error: { code: 'loan_instalment_late', message: 'An instalment is late: it is taken first, by the daily run.' } },
      },
    });
    const form = await screen.findByRole('form', { name: 'Pay early' });
    await user.type(within(form).getByRole('textbox', { name: /^Amount/ }), '20');
    await user.click(within(form).getByRole('button', { name: 'Review payment' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Pay $20.00' }));
    expect(await screen.findByText('An instalment is late: it is taken first, by the daily run.')).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Pay early' })).toBeTruthy();
  });
});
