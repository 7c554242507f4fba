import type { ReconciliationException } from '@strongroom/contracts/books.ts';
import { isApiError } from '../../../lib/api-client.ts';

/** What kind of difference an exception is, in words. */
export const exceptionKindWords: Readonly<Record<ReconciliationException['kind'], string>> = {
  unmatched_statement_line: 'The bank reported a movement the ledger does not have',
  unmatched_ledger_entry: 'The ledger has a movement the bank did not report',
  amount_mismatch: 'The bank and the ledger differ in amount',
};

/** Short names for the queue's column. */
export const exceptionKindShortWords: Readonly<Record<ReconciliationException['kind'], string>> = {
  unmatched_statement_line: 'Statement line without a ledger entry',
  unmatched_ledger_entry: 'Ledger entry without a statement line',
  amount_mismatch: 'Amounts differ',
};

/** From the bank account's side: credit is money in, debit money out. */
export const directionWords: Readonly<Record<ReconciliationException['direction'], string>> = { credit: 'Money in', debit: 'Money out' };

/** How an exception was settled, or that it waits, in words. */
export function exceptionStateWords(exception: ReconciliationException): string {
  if (exception.status === 'resolved') return exception.resolution === 'matched' ? 'Resolved: matched by hand' : 'Resolved: adjusting entry posted';
  return exception.adjustmentId ? 'Open: adjusting entry waiting for a second approval' : 'Open';
}

const oppositeKinds: Partial<Record<ReconciliationException['kind'], ReconciliationException['kind']>> = {
  unmatched_statement_line: 'unmatched_ledger_entry',
  unmatched_ledger_entry: 'unmatched_statement_line',
};

/** What a statement line may be matched with by hand: an open ledger entry of the same account, direction and amount (and the other way round). */
export function matchCandidates(exception: ReconciliationException, open: readonly ReconciliationException[]): ReconciliationException[] {
  const kind = oppositeKinds[exception.kind];
  if (!kind) return [];
  return open.filter(
    (other) =>
      other.status === 'open' &&
      other.kind === kind &&
      other.settlementAccount === exception.settlementAccount &&
      other.direction === exception.direction &&
      other.amountCents === exception.amountCents,
  );
}

/** Why the server refused, in words staff can act on. */
export function reconciliationRefusalInWords(error: Error): string {
  if (!isApiError(error)) return error.message;
  switch (error.code) {
    case 'already_resolved':
      return 'Someone resolved this exception just now. The queue has been reloaded: close this and look again.';
    case 'forbidden':
      return 'Your role cannot work the reconciliation.';
    default: {
      // The server's message may already quote its field's (the line at fault of a statement).
      const fields = Object.values(error.fields).filter((text) => !error.message.includes(text));
      return fields.length > 0 ? `${error.message}: ${fields.join('; ')}` : error.message;
    }
  }
}
