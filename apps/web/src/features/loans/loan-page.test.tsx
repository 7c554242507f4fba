import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { jsonBodyOf, renderApp, signedIn, type FakeApi } from '../../test/render-app.tsx';
import { checkingAccount, detail, loan, loanId, offer } from './test-fixtures.ts';

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
      [`GET /api/v1/loans/${loanId}`]: { status: 200, body: detail({}, { firstLate: false }) },
      [`POST /api/v1/loans/${loanId}/repayments`]: (init) => {
        sent.push({ body: jsonBodyOf(init), key: new Headers(init?.headers).get('Idempotency-Key') });
        return { status: 201, body: { ...detail({ balanceCents: 5_000 }, { firstLate: false }), transferId: 't1' } };
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
      [`GET /api/v1/loans/${loanId}`]: () => ({ status: 200, body: paid ? paidOff : detail({}, { firstLate: false }) }),
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

  it('takes a payment while an instalment is late: it goes to the late amount first, and the payoff counts the late instalment in full', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: unknown[] = [];
    renderLoan({
      [`POST /api/v1/loans/${loanId}/repayments`]: (init) => {
        sent.push(jsonBodyOf(init));
        return { status: 201, body: { ...detail({ balanceCents: 8_375 }, { firstLate: false }), transferId: 't1' } };
      },
    });
    const form = await screen.findByRole('form', { name: 'Pay now' });
    // $17.25 late and $83.75 of principal not yet due.
    expect(screen.getByText(/A payment goes to the late amount first/)).toBeTruthy();
    expect(screen.getByText('$17.25', { selector: 'strong' })).toBeTruthy();
    expect(screen.getByText('$101.00', { selector: 'strong' })).toBeTruthy();
    await user.type(within(form).getByRole('textbox', { name: /^Amount/ }), '17.25');
    await user.click(within(form).getByRole('button', { name: 'Review payment' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Pay $17.25' }));
    expect(await screen.findByText('You paid $17.25. You now owe $83.75.')).toBeTruthy();
    expect(sent).toEqual([{ fromAccountId: checkingAccount.id, amountCents: 1_725 }]);
  });

  it('shows the server’s refusal of a payment and keeps the form', async () => {
    const user = userEvent.setup({ delay: null });
    renderLoan({
      [`POST /api/v1/loans/${loanId}/repayments`]: {
        status: 422,
        body: { error: { code: 'insufficient_funds', message: 'Insufficient funds: the amount is more than the available balance of this account.' } },
      },
    });
    const form = await screen.findByRole('form', { name: 'Pay now' });
    await user.type(within(form).getByRole('textbox', { name: /^Amount/ }), '20');
    await user.click(within(form).getByRole('button', { name: 'Review payment' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Pay $20.00' }));
    expect(await screen.findByText('Insufficient funds: the amount is more than the available balance of this account.')).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Pay now' })).toBeTruthy();
  });

  describe('an offer (decision 058)', () => {
    it('shows the APR, the monthly payment, the date it lapses, the Truth in Lending box and the schedule before anything is paid', async () => {
      renderLoan({ [`GET /api/v1/loans/${loanId}`]: { status: 200, body: offer() } });
      const panel = (await screen.findByRole('heading', { name: 'Your loan offer' })).closest('section');
      if (!panel) throw new Error('no offer');
      expect(definition(panel, 'Amount')).toBe('$100.00');
      expect(definition(panel, 'Interest rate (APR)')).toBe('12.00%');
      expect(definition(panel, 'Monthly payment')).toBe('$17.25');
      expect(definition(panel, 'Term')).toBe('6 months');
      expect(definition(panel, 'Answer by')).toMatch(/Dec 24, 2026/);
      expect(within(panel).getByText(/Nothing is paid until you accept/)).toBeTruthy();
      expect(screen.getByText(/Before you accept, here is what this loan would cost you/)).toBeTruthy();
      expect(screen.getByRole('heading', { name: 'Truth in Lending disclosure' })).toBeTruthy();
      expect(screen.getByRole('table', { name: 'Payment schedule' })).toBeTruthy();
      expect(screen.queryByRole('form', { name: 'Pay early' })).toBeNull();
    });

    it('accepts after a confirmation, with an Idempotency-Key, and shows the loan paid out', async () => {
      const user = userEvent.setup({ delay: null });
      const keys: (string | null)[] = [];
      let accepted = false;
      const active = detail({}, { firstLate: false });
      renderLoan({
        [`GET /api/v1/loans/${loanId}`]: () => ({ status: 200, body: accepted ? active : offer() }),
        [`POST /api/v1/loans/${loanId}/accept`]: (init) => {
          keys.push(new Headers(init?.headers).get('Idempotency-Key'));
          accepted = true;
          return { status: 200, body: active };
        },
      });
      await user.click(await screen.findByRole('button', { name: 'Accept offer' }));
      const dialog = await screen.findByRole('dialog', { name: 'Accept the loan of $100.00?' });
      expect(within(dialog).getByText(/paid into your checking account now/)).toBeTruthy();
      expect(within(dialog).getByText(/\$103\.53 in all/)).toBeTruthy();
      expect(keys).toHaveLength(0);
      await user.click(within(dialog).getByRole('button', { name: 'Accept and pay out $100.00' }));
      expect(await screen.findByText('You accepted the loan. $100.00 was paid into your checking account.')).toBeTruthy();
      expect(keys).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);
      expect(screen.queryByRole('heading', { name: 'Your loan offer' })).toBeNull();
      expect(await screen.findByRole('form', { name: 'Pay early' })).toBeTruthy();
    });

    it('cancels the confirmation without sending anything, and declines after one', async () => {
      const user = userEvent.setup({ delay: null });
      let declines = 0;
      renderLoan({
        [`GET /api/v1/loans/${loanId}`]: () => ({ status: 200, body: declines ? offer({ status: 'declined' }) : offer() }),
        [`POST /api/v1/loans/${loanId}/decline`]: () => {
          declines += 1;
          return { status: 200, body: offer({ status: 'declined' }) };
        },
      });
      await user.click(await screen.findByRole('button', { name: 'Decline offer' }));
      await user.click(within(await screen.findByRole('dialog', { name: 'Decline this loan offer?' })).getByRole('button', { name: 'Keep the offer' }));
      expect(declines).toBe(0);
      await user.click(screen.getByRole('button', { name: 'Decline offer' }));
      await user.click(within(await screen.findByRole('dialog', { name: 'Decline this loan offer?' })).getByRole('button', { name: 'Decline offer' }));
      expect(await screen.findByText('You declined the offer. Nothing was paid.')).toBeTruthy();
      expect(declines).toBe(1);
      expect(screen.getByText(/You declined this offer/)).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Accept offer' })).toBeNull();
    });

    it('says so when the offer expired before the answer reached the bank', async () => {
      const user = userEvent.setup({ delay: null });
      renderLoan({
        [`GET /api/v1/loans/${loanId}`]: { status: 200, body: offer() },
        [`POST /api/v1/loans/${loanId}/accept`]: { status: 409, body: { error: { code: 'offer_expired', message: 'This loan offer has expired.' } } },
      });
      await user.click(await screen.findByRole('button', { name: 'Accept offer' }));
      await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Accept and pay out $100.00' }));
      expect(await screen.findByText('This offer has expired, so nothing was paid. You can apply again.')).toBeTruthy();
    });

    it('shows an expired offer without Accept or Decline', async () => {
      renderLoan({ [`GET /api/v1/loans/${loanId}`]: { status: 200, body: offer({ status: 'expired' }) } });
      expect(await screen.findByText(/This offer expired on .* without an answer\. Nothing was paid\./)).toBeTruthy();
      expect(screen.getByText('Offer expired')).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Accept offer' })).toBeNull();
    });
  });
});
