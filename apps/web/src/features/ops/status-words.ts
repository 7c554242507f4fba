import type { CardStatus } from '@strongroom/contracts/cards.ts';
import type { LoanStatus } from '@strongroom/contracts/loans.ts';
import type { PaymentStatus } from '@strongroom/contracts/payments.ts';
import type { AuditEntryView } from '@strongroom/contracts/staff-audit.ts';
import type { CustomerSummary } from '@strongroom/contracts/staff-customers.ts';
import type { StaffMessageStatus } from '@strongroom/contracts/staff-messages.ts';
import type { HeldTransferDecisionResponse, HeldTransferStatus } from '@strongroom/contracts/staff-payments.ts';
import type { StaffAccount } from '@strongroom/contracts/staff.ts';

/** Every status code the back office receives from the API. */
export type BackOfficeStatus =
  | PaymentStatus
  | HeldTransferStatus
  | HeldTransferDecisionResponse['status']
  | CustomerSummary['identityStatus']
  | CardStatus
  | LoanStatus
  | StaffMessageStatus
  | StaffAccount['status']
  | AuditEntryView['outcome'];

/**
 * The back office's one map from a status code to the words staff read ("pending_approval" is
 * "Waiting for approval"). A Record of the union above, so a status the contracts add fails the
 * type check here until it has words.
 */
export const statusWords: Readonly<Record<BackOfficeStatus, string>> = {
  completed: 'Completed',
  pending: 'Pending',
  in_review: 'In review',
  rejected: 'Rejected',
  returned: 'Returned',
  released: 'Released',
  awaiting_second_approval: 'Waiting for a second approval',
  not_submitted: 'Not submitted',
  submitted: 'Waiting for review',
  approved: 'Approved',
  pending_approval: 'Waiting for approval',
  active: 'Active',
  frozen: 'Frozen',
  closed: 'Closed',
  paid_off: 'Paid off',
  offered: 'Offered, waiting for the customer',
  declined: 'Declined by the customer',
  expired: 'Offer expired',
  open: 'Open',
  answered: 'Answered',
  disabled: 'Disabled',
  success: 'Succeeded',
  failure: 'Failed',
  denied: 'Denied',
};

// Own keys only: `'constructor' in statusWords` is true.
const isBackOfficeStatus = (status: string): status is BackOfficeStatus => Object.hasOwn(statusWords, status);

/** A status in words; a code this console does not know yet (a newer server) reads as words too, never as snake_case. */
export function statusInWords(status: string): string {
  if (isBackOfficeStatus(status)) return statusWords[status];
  const spaced = status.replaceAll('_', ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
