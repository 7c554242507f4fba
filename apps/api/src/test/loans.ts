import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TestBrowser } from './client.ts';

/** A loan application the contract accepts: $1,200 over 12 months on a $60,000 income. */
export const validApplication = {
  maritalStatus: 'married',
  occupation: 'Nurse',
  address: '1 Demo Street, Washington',
  amountCents: 120_000,
  annualIncomeCents: 6_000_000,
  purpose: 'A used car',
  durationMonths: 12,
};

/**
 * The customer accepts the loan's offer (an approval is an offer, decision 058): the money is paid
 * into checking and the loan is `active`. Answers the response for tests that look further.
 */
export async function acceptLoanOffer(browser: TestBrowser, loanId: string, key: string = randomUUID()) {
  const accepted = await browser.request({ method: 'POST', url: `/api/v1/loans/${loanId}/accept`, headers: { 'idempotency-key': key } });
  expect(accepted.statusCode, accepted.body).toBe(200);
  return accepted;
}

/** Applies for a loan as the web does, with a fresh Idempotency-Key unless given: the response, for the test to read. */
export function applyForLoan(browser: TestBrowser, body: object = validApplication, key: string = randomUUID()) {
  return browser.request({ method: 'POST', url: '/api/v1/loans', payload: body, headers: { 'idempotency-key': key } });
}

/** The terms staff approve a loan on. */
export interface LoanTerms {
  reason: string;
  amountCents: number;
  aprBps: number;
  termMonths: number;
}

/** A loan applied for (`validApplication` unless given) and approved by `staff` on `terms`: its id, the offer waiting for the customer. */
export async function offeredLoan(customer: TestBrowser, staff: TestBrowser, terms: LoanTerms, application: object = validApplication): Promise<string> {
  const applied = await applyForLoan(customer, application);
  expect(applied.statusCode, applied.body).toBe(201);
  const loanId = applied.json<{ loan: { id: string } }>().loan.id;
  const approved = await staff.post(`/api/v1/staff/loans/${loanId}/decision`, { decision: 'approve', ...terms });
  expect(approved.statusCode, approved.body).toBe(200);
  return loanId;
}

/** An offered loan the customer accepted: `active`, its money paid into checking. */
export async function activeLoan(customer: TestBrowser, staff: TestBrowser, terms: LoanTerms, application: object = validApplication): Promise<string> {
  const loanId = await offeredLoan(customer, staff, terms, application);
  await acceptLoanOffer(customer, loanId);
  return loanId;
}
