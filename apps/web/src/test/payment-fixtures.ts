import type { Account } from '@strongroom/contracts/accounts.ts';
import type { Beneficiary } from '@strongroom/contracts/beneficiaries.ts';
import type { Payment } from '@strongroom/contracts/payments.ts';
import type { FakeAnswer } from './render-app.tsx';

/** Fakes shared by the money screens' tests. Account ids are UUIDs, as the contract requires. */
export const checking: Account = {
  id: '3f1c2b7a-5d4e-4a8b-9c1d-2e3f4a5b6c7d',
  type: 'checking',
  number: '6043797155',
  name: 'Easy Checking',
  balanceCents: 475_000,
  availableCents: 425_000,
  status: 'open',
  active: true,
  pendingDepositsCents: 0,
  pendingDepositsAvailableAt: null,
  productId: '00000000-0000-4000-8000-00000000d001',
  productName: 'Easy Checking',
  interestRateBps: 0,
  apyBps: 0,
  interestThisMonthCents: 0,
  interestThisYearCents: 0,
};

export const savings: Account = {
  id: '7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d',
  type: 'savings',
  number: '6927529963',
  name: 'Standard Savings',
  balanceCents: 10_000,
  availableCents: 10_000,
  status: 'open',
  active: true,
  pendingDepositsCents: 0,
  pendingDepositsAvailableAt: null,
  productId: '00000000-0000-4000-8000-00000000d004',
  productName: 'Standard Savings',
  interestRateBps: 150,
  apyBps: 151,
  interestThisMonthCents: 8,
  interestThisYearCents: 117,
};

export const graceAtThisBank: Beneficiary = {
  id: 'b1',
  accountName: 'Grace Hopper',
  accountNumber: '6111222333',
  routeNumber: '123456780',
  bankName: 'Strongroom Demo Bank',
  nameOfCountry: 'United States',
  bankType: 'mybank',
  accountType: 'savings',
  createdAt: '2026-03-01T10:00:00.000Z',
};

export const alanElsewhere: Beneficiary = {
  id: 'b2',
  accountName: 'Alan Turing',
  accountNumber: '99887766',
  routeNumber: '021000021',
  bankName: 'Bletchley Savings',
  nameOfCountry: 'United Kingdom',
  bankType: 'otherbank',
  accountType: null,
  createdAt: '2026-03-02T10:00:00.000Z',
};

export function paymentOf(overrides: Partial<Payment> = {}): Payment {
  return {
    id: 'f0e1d2c3-b4a5-4968-8776-655443322110',
    kind: 'external',
    status: 'completed',
    amountCents: 2_500,
    fromAccountId: checking.id,
    toAccountId: null,
    counterparty: { name: 'Alan Turing', accountNumber: '99887766', bankName: 'Bletchley Savings', routeNumber: '021000021', country: 'United Kingdom' },
    message: 'Rent',
    statusReason: null,
    expectedSettlementAt: null,
    createdAt: '2026-03-05T10:00:00.000Z',
    ...overrides,
  };
}

export function created(payment: Payment): FakeAnswer {
  return { status: 201, body: { transfer: payment } };
}

export function stepUpRequired(challengeId: string): FakeAnswer {
  return {
    status: 403,
    body: { error: { code: 'step_up_required', message: 'For your security, enter the 6-digit code we sent to •••• 0101.', challengeId } },
  };
}

export function apiError(status: number, code: string, message: string): FakeAnswer {
  return { status, body: { error: { code, message } } };
}

/** What a money request carried: its two headers and its body. */
export interface SentRequest {
  idempotencyKey: string | null;
  stepUp: string | null;
  body: unknown;
}

export function sentRequestOf(init: RequestInit | undefined): SentRequest {
  const headers = new Headers(init?.headers);
  const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
  return { idempotencyKey: headers.get('idempotency-key'), stepUp: headers.get('x-step-up'), body };
}
