import type { Dispute, DisputeDetail } from '@strongroom/contracts/disputes.ts';
import type { Transaction, TransactionDetail } from '@strongroom/contracts/transactions.ts';
import { checking } from '../../test/payment-fixtures.ts';
import { signedIn, type FakeApi } from '../../test/render-app.tsx';

/** Fakes of the disputes screens' tests. Transfer ids are UUIDs, as `POST /disputes` requires. */
export const cardPurchaseId = '9d3e2f1a-0b4c-4d5e-8f6a-7b8c9d0e1f2a';
export const transferOutId = '8c2d1e0f-9a3b-4c4d-8e5f-6a7b8c9d0e1f';
export const depositId = '7b1c0d9e-8f2a-4b3c-9d4e-5f6a7b8c9d0e';
export const feeId = '6a0b9c8d-7e1f-4a2b-8c3d-4e5f6a7b8c9d';

export function lineOf(overrides: Partial<Transaction> & Pick<Transaction, 'transferId'>): Transaction {
  return {
    id: `${overrides.transferId}:${(overrides.amountCents ?? -1) < 0 ? 'out' : 'in'}`,
    accountId: checking.id,
    kind: 'card',
    status: 'completed',
    amountCents: -4_999,
    description: 'Corner Grocer · Groceries',
    party: null,
    category: 'Debit',
    createdAt: '2026-03-02T15:00:00.000Z',
    ...overrides,
  };
}

export const cardPurchase = lineOf({ transferId: cardPurchaseId });
export const transferOut = lineOf({
  transferId: transferOutId,
  kind: 'external',
  amountCents: -120_000,
  description: 'Rent for March',
  party: 'To Grace Landlord, First Example Bank',
  category: 'Transfer',
});
export const depositLine = lineOf({
  transferId: depositId,
  kind: 'deposit',
  amountCents: 50_000,
  description: 'From my other bank',
  party: null,
  category: 'Deposit',
});
export const feeLine = lineOf({ transferId: feeId, kind: 'fee', amountCents: -1_200, description: 'Monthly maintenance fee', category: 'Fee' });

export function detailOfLine(transaction: Transaction): TransactionDetail {
  return {
    transaction,
    account: { id: checking.id, type: 'checking', number: checking.number },
    counterparty: { name: 'Corner Grocer', accountNumber: null, routeNumber: null, bankName: null },
    reason: '',
    medium: transaction.kind === 'card' ? 'Card' : 'ACH',
    statusReason: null,
    receiptReference: 'RCPT-0001',
  };
}

export function disputeOf(overrides: Partial<Dispute> = {}): Dispute {
  return {
    id: '1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b',
    status: 'submitted',
    transferId: cardPurchaseId,
    reason: 'unauthorized',
    description: 'I have never shopped at Corner Grocer.',
    amountCents: 4_999,
    transaction: { kind: 'card', description: 'Corner Grocer · Groceries', amountCents: -4_999, date: '2026-03-02' },
    receivedOn: '2026-03-09',
    provisionalCreditBy: '2026-03-23',
    resolveBy: '2026-06-05',
    provisionalCreditCents: 0,
    reversalOn: null,
    cardReplaced: false,
    createdAt: '2026-03-09T14:00:00.000Z',
    updatedAt: '2026-03-09T14:00:00.000Z',
    ...overrides,
  };
}

export function disputeDetailOf(dispute: Dispute = disputeOf(), extra: Partial<Omit<DisputeDetail, 'dispute'>> = {}): DisputeDetail {
  return {
    dispute,
    events: [{ kind: 'submitted', text: 'You reported this transaction.', at: '2026-03-09T14:00:00.000Z' }],
    letters: [{ id: 'a0a0a0a0-0000-4000-8000-000000000001', kind: 'acknowledgement', createdAt: '2026-03-09T14:00:00.000Z' }],
    evidence: [],
    ...extra,
  };
}

/** A signed-in customer with one checking account, and `extra`. */
export function disputeApi(extra: FakeApi = {}): FakeApi {
  return {
    'GET /api/v1/me': signedIn,
    'GET /api/v1/accounts': { status: 200, body: [checking] },
    ...extra,
  };
}

/** The line's detail where the form looks for it: `GET /transactions/{transferId}:out`, or `:in` for money in. */
export function transactionRoute(transaction: Transaction): FakeApi {
  return { [`GET /api/v1/transactions/${encodeURIComponent(transaction.id)}`]: { status: 200, body: detailOfLine(transaction) } };
}

/** A file of `bytes` bytes (its content does not matter to the browser's checks: type and size). */
export function fileOf(name: string, type: string, bytes = 1_024): File {
  return new File([new Uint8Array(bytes)], name, { type });
}
