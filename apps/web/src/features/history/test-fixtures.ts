import type { Transaction, TransactionDetail } from '@strongroom/contracts/transactions.ts';
import { checking, savings } from '../../test/payment-fixtures.ts';
import { signedIn, type FakeAnswer, type FakeApi, type renderApp } from '../../test/render-app.tsx';

export const accounts = [
  { ...checking, id: '0b6c1d2e-0000-4000-8000-000000000001' },
  { ...savings, id: '0b6c1d2e-0000-4000-8000-000000000002', balanceCents: 12_550, availableCents: 12_550 },
] as const;

/** `matchMedia` of a screen narrower than 600 px, where history is a list: `vi.stubGlobal('matchMedia', narrowMatchMedia)`. */
export function narrowMatchMedia(query: string) {
  return {
    matches: query.includes('max-width: 599.98px'),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  };
}

const checkingId = accounts[0].id;

export function line(overrides: Partial<Transaction> & Pick<Transaction, 'id'>): Transaction {
  return {
    transferId: overrides.id.split(':')[0] ?? overrides.id,
    accountId: checkingId,
    kind: 'external',
    status: 'completed',
    amountCents: -123_400,
    description: 'Rent for March',
    category: 'Transfer',
    createdAt: '2026-03-14T12:00:00.000Z',
    ...overrides,
  };
}

export const rentOut = line({ id: 't1:out', status: 'in_review', amountCents: -123_400, description: 'Rent for March', category: 'Transfer' });
export const salaryIn = line({
  id: 't2:in',
  kind: 'internal',
  amountCents: 525_000,
  description: 'Salary',
  category: 'Credit',
  createdAt: '2026-03-10T12:00:00.000Z',
});
export const cardOut = line({
  id: 't3:out',
  kind: 'card',
  status: 'pending',
  amountCents: -4_999,
  description: 'Card to Ada',
  category: 'Debit',
  createdAt: '2026-03-09T12:00:00.000Z',
});
export const cashOut = line({
  id: 't4:out',
  kind: 'withdrawal',
  status: 'returned',
  amountCents: -20_000,
  description: 'Cash',
  category: 'Withdrawal',
  createdAt: '2026-03-08T12:00:00.000Z',
});
export const depositIn = line({
  id: 't5:in',
  kind: 'deposit',
  status: 'rejected',
  amountCents: 100_000,
  description: 'Savings jar',
  category: 'Deposit',
  createdAt: '2026-03-07T12:00:00.000Z',
});
export const openingIn = line({
  id: 't6:in',
  kind: 'funding',
  amountCents: 500_000,
  description: 'Opening deposit',
  category: 'Funding',
  createdAt: '2026-03-01T12:00:00.000Z',
});

export const allLines = [rentOut, salaryIn, cardOut, cashOut, depositIn, openingIn];

export function page(items: readonly Transaction[], nextCursor: string | null = null): FakeAnswer {
  return { status: 200, body: { items, nextCursor } };
}

export const rentDetail: TransactionDetail = {
  transaction: rentOut,
  account: { id: checkingId, type: 'checking', number: '6043797155' },
  counterparty: { name: 'Grace Landlord', accountNumber: '000123456789', routeNumber: '021000021', bankName: 'First Example Bank' },
  reason: 'Rent for March',
  medium: 'ACH',
  statusReason: null,
  receiptReference: 'RCPT-7F3K-92QZ',
};

export const depositDetail: TransactionDetail = {
  transaction: depositIn,
  account: { id: checkingId, type: 'checking', number: '6043797155' },
  counterparty: { name: 'Ada Lovelace', accountNumber: null, routeNumber: null, bankName: null },
  reason: 'Savings jar',
  medium: 'Deposit (ACH)',
  statusReason: 'The sending bank refused it',
  receiptReference: 'RCPT-DEP-0001',
};

/** The API a history test starts from: signed in, two accounts, one page of `items`. */
export function historyApi(items: readonly Transaction[] = allLines, extra: FakeApi = {}): FakeApi {
  return {
    'GET /api/v1/me': signedIn,
    'GET /api/v1/accounts': { status: 200, body: accounts },
    'GET /api/v1/transactions': page(items),
    ...extra,
  };
}

/** The query strings of every `GET /transactions` the page sent, in order. */
export function listQueries(fetchMock: ReturnType<typeof renderApp>['fetchMock']): URLSearchParams[] {
  return fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === '/api/v1/transactions')
    .map((url) => url.searchParams);
}
