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
