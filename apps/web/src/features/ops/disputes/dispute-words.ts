import type { DisputeLetter, DisputeStatus, StaffDispute, StaffDisputeDetail } from '@strongroom/contracts/disputes.ts';
import type { PaymentKind } from '@strongroom/contracts/payments.ts';
import { isApiError } from '../../../lib/api-client.ts';
import { statusInWords } from '../status-words.ts';

/** A case's status as staff read it, by word (never by colour alone). */
export const disputeStatusWords: Readonly<Record<DisputeStatus, string>> = {
  submitted: 'New, not yet investigated',
  investigating: 'Investigating',
  provisionally_credited: 'Provisionally credited',
  resolved: 'Resolved for the customer',
  denied: 'Denied',
  withdrawn: 'Withdrawn by the customer',
};

/** The cases still open: staff can act on these; the others are decided or withdrawn. */
export const openStatuses: readonly DisputeStatus[] = ['submitted', 'investigating', 'provisionally_credited'];

export const eventWords: Readonly<Record<StaffDisputeDetail['events'][number]['kind'], string>> = {
  submitted: 'Reported by the customer',
  evidence_added: 'Evidence added',
  investigating: 'Investigation started',
  information_requested: 'Customer asked for information',
  information_given: 'Customer answered',
  provisional_credit: 'Provisional credit given',
  resolved: 'Resolved for the customer',
  denied: 'Denied',
  reversal_scheduled: 'Reversal of the provisional credit scheduled',
  reversed: 'Provisional credit taken back',
  chargeback: 'Charged back to the card network',
  withdrawn: 'Withdrawn by the customer',
  card_replaced: 'Card frozen and replaced',
  decision_proposed: 'Decision proposed, waiting for a second person',
};

export const letterWords: Readonly<Record<DisputeLetter['kind'], string>> = {
  acknowledgement: 'Acknowledgement',
  provisional_credit: 'Provisional credit notice',
  result: 'Result',
  information_request: 'Request for information',
  reversal_notice: 'Reversal notice',
};

/** Payment kinds in words; a kind this console does not know yet still reads as words. */
const kindWords: Partial<Record<PaymentKind, string>> = {
  own: 'Between own accounts',
  internal: 'Within the bank',
  external: 'To another bank',
  card: 'Card',
  bill: 'Bill payment',
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  dispute_credit: 'Provisional credit (dispute)',
  dispute_reversal: 'Provisional credit reversed (dispute)',
};

export function paymentKindInWords(kind: PaymentKind): string {
  return kindWords[kind] ?? statusInWords(kind);
}

const bankDateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A bank date (YYYY-MM-DD) in words, "Nov 29, 2026": a calendar day, not an instant, so read in UTC. */
export function formatBankDate(day: string): string {
  return bankDateFormat.format(new Date(`${day}T00:00:00Z`));
}

/** Which deadline `nextDeadline` is: provisional credit by, until it is given; then resolve by. */
export function nextDeadlineName(dispute: StaffDispute): string {
  return dispute.nextDeadline === dispute.provisionalCreditBy && dispute.provisionalCreditCents === 0 ? 'Provisional credit by' : 'Resolve by';
}

/** Why the server refused an action, in words staff can act on. */
export function refusalInWords(error: Error): string {
  if (!isApiError(error)) return error.message;
  switch (error.code) {
    case 'four_eyes_required':
      return 'A second person must approve this decision: not the staff member who proposed it, nor anyone linked to them by grants of back-office access.';
    case 'dispute_state':
      return 'The case has changed and no longer allows this: someone else may have acted on it just now. It has been reloaded: close this and look again.';
    case 'forbidden':
      return 'Your role cannot work on disputes.';
    case 'not_found':
      return 'This case no longer exists.';
    default: {
      const fields = Object.values(error.fields);
      return fields.length > 0 ? `${error.message}: ${fields.join('; ')}` : error.message;
    }
  }
}
