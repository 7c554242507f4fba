import type { DisputeEvent, DisputeLetter, DisputeStatus } from '@strongroom/contracts/disputes.ts';
import type { BadgeTone } from '../../components/ui/badge.tsx';
import { ApiError, type ApiErrorCode } from '../../lib/api-client.ts';

/** A report's status in words, with its colour (never the colour alone). */
export const disputeStatusWords: Record<DisputeStatus, { label: string; tone: BadgeTone }> = {
  submitted: { label: 'Received', tone: 'accent' },
  investigating: { label: 'Being investigated', tone: 'accent' },
  provisionally_credited: { label: 'Provisional credit given', tone: 'warning' },
  resolved: { label: 'Resolved in your favour', tone: 'success' },
  denied: { label: 'Not upheld', tone: 'danger' },
  withdrawn: { label: 'Withdrawn', tone: 'neutral' },
};

/** Before the bank's decision the customer may still add evidence, answer a question or withdraw. */
export function isOpen(status: DisputeStatus): boolean {
  return status === 'submitted' || status === 'investigating' || status === 'provisionally_credited';
}

export const letterWords: Record<DisputeLetter['kind'], string> = {
  acknowledgement: 'We received your report',
  provisional_credit: 'Provisional credit notice',
  result: 'The result of our investigation',
  information_request: 'We need more information',
  reversal_notice: 'Notice: the provisional credit will be taken back',
};

export const eventWords: Record<DisputeEvent['kind'], string> = {
  submitted: 'You reported the problem',
  evidence_added: 'Evidence added',
  investigating: 'We started investigating',
  information_requested: 'We asked you a question',
  information_given: 'You answered',
  provisional_credit: 'Provisional credit given',
  resolved: 'Resolved in your favour',
  denied: 'Not upheld',
  reversal_scheduled: 'Provisional credit to be taken back',
  reversed: 'Provisional credit taken back',
  chargeback: 'Charged back to the merchant’s bank',
  withdrawn: 'You withdrew the report',
  card_replaced: 'Card frozen and a new one ordered',
};

/** The refusals of a report or of a step on it, in words; the server's message follows with the particulars (a date, what to do instead). */
const disputeErrorWords: Partial<Record<ApiErrorCode, string>> = {
  already_disputed: 'You have already reported a problem with this transaction. You can follow it in your reported problems.',
  dispute_window_passed: 'It is too late to report this transaction: a problem must be reported within 60 days of the statement that first showed it.',
  not_disputable: 'This transaction cannot be reported as a problem.',
  dispute_state: 'This report has changed and no longer allows that. The page has been refreshed: please look again.',
  not_found: 'We could not find this transaction among yours.',
};

export function disputeErrorMessage(error: unknown): { words: string; detail: string | null } {
  if (error instanceof ApiError) {
    const words = disputeErrorWords[error.code];
    if (words) return { words, detail: error.message && error.message !== words ? error.message : null };
    // A field the server refused (a description it did not accept, a card it would not replace) says which.
    const fields = Object.values(error.fields);
    return { words: error.message, detail: fields.length > 0 ? fields.join(' ') : null };
  }
  return { words: 'We could not read the bank’s answer. Please look at your reported problems before you try again.', detail: null };
}
