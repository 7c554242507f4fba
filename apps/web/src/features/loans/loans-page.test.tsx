import { screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loanMessages } from '@strongroom/contracts/loans.ts';
import { noAccountMessages, validationMessages } from '@strongroom/contracts/messages.ts';
import { queryClient } from '../../lib/query-client.ts';
import { jsonBodyOf, renderApp, signedIn, type FakeAnswer } from '../../test/render-app.tsx';
import { checking, savings } from '../../test/payment-fixtures.ts';
import { loan } from './test-fixtures.ts';

beforeAll(() => import('./loans-page.tsx'));

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const noLoans = { status: 200, body: { items: [] } };

function renderLoans(extra: Record<string, FakeAnswer | ((init: RequestInit | undefined) => FakeAnswer)> = {}) {
  return renderApp('/loan', {
    'GET /api/v1/me': signedIn,
    'GET /api/v1/loans': noLoans,
    'GET /api/v1/accounts': { status: 200, body: [checking, savings] },
    ...extra,
  });
}

async function fillValid(user: UserEvent, overrides: Partial<Record<string, string>> = {}) {
  const values = {
    Occupation: 'Engineer',
    Address: '1 Main Street, Springfield',
    'Desired amount': '12,000',
    'Duration in months': '24',
    'Annual income': '85,000.50',
    Purpose: 'A used car',
    ...overrides,
  };
  await user.selectOptions(screen.getByRole('combobox', { name: /Marital status/ }), 'married');
  for (const [label, value] of Object.entries(values)) {
    const field = screen.getByRole('textbox', { name: new RegExp(`^${label}`) });
    await user.clear(field);
    if (value !== '') await user.type(field, value);
  }
}

function errorOf(label: string): string | null {
  const field = screen.getByRole(label === 'Marital status' ? 'combobox' : 'textbox', { name: new RegExp(`^${label}`) });
  const describedBy = field.getAttribute('aria-describedby') ?? '';
  const texts = describedBy
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .filter((text) => text.includes('empty') || text.includes('valid') || text.includes(' is ') || text.includes('must'));
  return texts[0] ?? null;
}

describe('/loan', { timeout: 20_000 }, () => {
  it('tells a customer whose identity is being checked that their accounts open once it is, in place of a form the bank would refuse', async () => {
    const waiting = { status: 200, body: { ...signedIn.body, user: { ...signedIn.body.user, identityStatus: 'submitted', accountVerified: false } } };
    renderLoans({ 'GET /api/v1/me': waiting, 'GET /api/v1/accounts': { status: 200, body: [] } });
    expect(await screen.findByText(noAccountMessages.identityPending)).toBeTruthy();
    expect(screen.queryByText(/customer care/i)).toBeNull();
    expect(screen.queryByRole('button', { name: /Apply|Send/ })).toBeNull();
  });

  it('shows full name, email and phone from the profile, read-only', async () => {
    renderLoans();
    const name = await screen.findByRole('textbox', { name: /^Full name/ });
    expect((name as HTMLInputElement).value).toBe('Ada Lovelace');
    expect((name as HTMLInputElement).readOnly).toBe(true);
    expect((screen.getByRole('textbox', { name: /^Email/ }) as HTMLInputElement).value).toBe('ada@example.com');
    expect((screen.getByRole('textbox', { name: /^Phone/ }) as HTMLInputElement).value).toBe('+12025550101');
    expect(screen.getByText(/You have no loans yet/)).toBeTruthy();
  });

  it('says "field should not be empty" under each of the seven inputs and sends nothing', async () => {
    const user = userEvent.setup({ delay: null });
    const post = vi.fn(() => ({ status: 500, body: {} }));
    renderLoans({ 'POST /api/v1/loans': post });
    await user.click(await screen.findByRole('button', { name: 'Send application' }));
    expect(await screen.findAllByText(validationMessages.required)).toHaveLength(7);
    for (const label of ['Marital status', 'Occupation', 'Address', 'Desired amount', 'Annual income', 'Purpose', 'Duration in months']) {
      expect(errorOf(label)).toBe(validationMessages.required);
    }
    expect(post).not.toHaveBeenCalled();
  });

  it.each([
    ['Desired amount', 'abc', validationMessages.numberInvalid],
    ['Annual income', 'lots', validationMessages.numberInvalid],
    ['Duration in months', 'twelve', validationMessages.numberInvalid],
    ['Duration in months', '12.5', validationMessages.numberInvalid],
    ['Desired amount', '499.99', 'the amount is $500 to $100,000'],
    ['Desired amount', '100,000.01', 'the amount is $500 to $100,000'],
    ['Desired amount', '0', 'the amount is $500 to $100,000'],
    ['Duration in months', '5', 'the duration is 6 to 84 months'],
    ['Duration in months', '85', 'the duration is 6 to 84 months'],
    ['Annual income', '0', validationMessages.amountNotPositive],
  ])('%s "%s" says "%s"', async (label, typed, message) => {
    const user = userEvent.setup({ delay: null });
    const post = vi.fn(() => ({ status: 500, body: {} }));
    renderLoans({ 'POST /api/v1/loans': post });
    await screen.findByRole('button', { name: 'Send application' });
    await fillValid(user, { [label]: typed });
    await user.click(screen.getByRole('button', { name: 'Send application' }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(errorOf(label)).toBe(message);
    expect(post).not.toHaveBeenCalled();
  });

  it('accepts the bounds themselves', async () => {
    const user = userEvent.setup({ delay: null });
    const bodies: unknown[] = [];
    renderLoans({
      'POST /api/v1/loans': (init) => {
        bodies.push(jsonBodyOf(init));
        return { status: 201, body: { loan: loan({ status: 'submitted' }) } };
      },
    });
    await screen.findByRole('button', { name: 'Send application' });
    await fillValid(user, { 'Desired amount': '$100,000.00', 'Duration in months': '84' });
    await user.click(screen.getByRole('button', { name: 'Send application' }));
    await screen.findByText(loanMessages.sent);
    expect(bodies).toEqual([expect.objectContaining({ amountCents: 10_000_000, durationMonths: 84 })]);
  });

  it('sends the application in cents with an Idempotency-Key and says "Loan application sent"', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: { body: unknown; key: string | null }[] = [];
    let applied = false;
    renderLoans({
      'GET /api/v1/loans': () => ({
        status: 200,
        body: { items: applied ? [loan({ status: 'submitted', amountCents: null, requestedAmountCents: 1_200_000, durationMonths: 24 })] : [] },
      }),
      'POST /api/v1/loans': (init) => {
        applied = true;
        sent.push({ body: jsonBodyOf(init), key: new Headers(init?.headers).get('Idempotency-Key') });
        return { status: 201, body: { loan: loan({ status: 'submitted' }) } };
      },
    });
    await screen.findByRole('button', { name: 'Send application' });
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Send application' }));
    expect(await screen.findByText(loanMessages.sent)).toBeTruthy();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({
      maritalStatus: 'married',
      occupation: 'Engineer',
      address: '1 Main Street, Springfield',
      amountCents: 1_200_000,
      annualIncomeCents: 8_500_050,
      purpose: 'A used car',
      durationMonths: 24,
    });
    expect(sent[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
    // The open application takes the form's place.
    expect(await screen.findByRole('heading', { name: 'Your application is waiting for a decision' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send application' })).toBeNull();
  });

  it('shows an estimate as the amount, duration and income are typed, and says it is not an offer', async () => {
    const user = userEvent.setup({ delay: null });
    renderLoans();
    await screen.findByRole('button', { name: 'Send application' });
    const estimate = screen.getByRole('region', { name: 'Estimate' });
    expect(within(estimate).getByText(/Our rates are 7\.99% to 24\.99% APR\. Enter an amount and a duration/)).toBeTruthy();
    expect(within(estimate).getByText(/This is an estimate, not an offer/)).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: /^Desired amount/ }), '12,000');
    await user.type(screen.getByRole('textbox', { name: /^Duration in months/ }), '24');
    // $12,000.00 over 24 months at 7.99% and at 24.99%, by the schedule's own amortisation.
    expect(await within(estimate).findByText('$542.67 to $640.40')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: /^Annual income/ }), '85,000.50');
    // A loan under a fifth of the income: the lowest rate.
    expect(await within(estimate).findByText(/With the income you entered, our usual rate would be 7\.99%/)).toBeTruthy();
    expect(within(estimate).getByText('$542.67')).toBeTruthy();
    // A duration out of range shows no payment, only the range.
    await user.clear(screen.getByRole('textbox', { name: /^Duration in months/ }));
    await user.type(screen.getByRole('textbox', { name: /^Duration in months/ }), '90');
    expect(await within(estimate).findByText(/Enter an amount and a duration/)).toBeTruthy();
  });

  it('shows a waiting offer instead of a second form, with the date it lapses and a link to it', async () => {
    renderLoans({
      'GET /api/v1/loans': {
        status: 200,
        body: { items: [loan({ status: 'offered', balanceCents: null, disbursedAt: null, offerExpiresAt: '2026-12-24T10:00:00.000Z' })] },
      },
    });
    expect(await screen.findByRole('heading', { name: 'Your loan offer is waiting for your answer' })).toBeTruthy();
    expect(screen.getByText(/We offer you \$100\.00 over 6 months\. Nothing is paid until you accept\. Answer by Dec 24, 2026/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Read the offer, then accept or decline it' }).getAttribute('href')).toMatch(/^\/loan\//);
    expect(screen.getByText('Offer waiting for you')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send application' })).toBeNull();
  });

  it('shows the open application instead of a second form', async () => {
    renderLoans({
      'GET /api/v1/loans': {
        status: 200,
        body: { items: [loan({ status: 'submitted', amountCents: null, requestedAmountCents: 1_500_000, durationMonths: 36 })] },
      },
    });
    expect(await screen.findByRole('heading', { name: 'Your application is waiting for a decision' })).toBeTruthy();
    expect(screen.getByText(/\$15,000\.00 over 36 months/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send application' })).toBeNull();
  });

  it('says so when the server has an open application already (409 loan_application_open)', async () => {
    const user = userEvent.setup({ delay: null });
    renderLoans({
      'POST /api/v1/loans': { status: 409, body: { error: { code: 'loan_application_open', message: loanMessages.applicationOpen } } },
    });
    await screen.findByRole('button', { name: 'Send application' });
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Send application' }));
    expect(await screen.findByText(loanMessages.applicationOpen)).toBeTruthy();
  });

  it('lists each loan with its status, next payment and balance, linked to its page', async () => {
    renderLoans({
      'GET /api/v1/loans': {
        status: 200,
        body: {
          items: [
            loan({ balanceCents: 8_375, nextDueDate: '2027-01-24', nextPaymentCents: 1_725 }),
            loan({
              id: 'r1',
              status: 'rejected',
              amountCents: null,
              aprBps: null,
              termMonths: null,
              balanceCents: null,
              rejectionReason: 'Income too low for this amount',
            }),
          ],
        },
      },
    });
    const link = await screen.findByRole('link', { name: 'Loan of $100.00' });
    expect(link.getAttribute('href')).toBe('/loan/5b0e8f4e-2a7c-4c1e-9a55-7d7c3f1b2a10');
    const active = link.closest('li');
    const rejected = screen.getByRole('link', { name: 'Application for $100.00' }).closest('li');
    if (!active || !rejected) throw new Error('two loans expected');
    expect(within(active).getByText('Active')).toBeTruthy();
    expect(within(active).getByText('$17.25')).toBeTruthy();
    expect(within(active).getByText(/Jan 24, 2027/)).toBeTruthy();
    expect(within(active).getByText('$83.75')).toBeTruthy();
    expect(within(rejected).getByText('Not approved')).toBeTruthy();
    expect(within(rejected).getByText('Income too low for this amount')).toBeTruthy();
  });

  it('shows what failed when the loans cannot be loaded', async () => {
    renderLoans({ 'GET /api/v1/loans': { status: 500, body: { error: { code: 'internal_error', message: 'Something broke' } } } });
    expect(await screen.findByRole('heading', { name: 'We could not load your loans' }, { timeout: 10_000 })).toBeTruthy();
  });
});
