import type { ReconciliationException } from '@strongroom/contracts/books.ts';
import { useActorInWords } from '../books/staff-names.ts';
import { formatBankDate } from '../disputes/dispute-words.ts';

/** What the bank's statement line and the ledger's entry say: the references, the text, the description. */
export function ExceptionDetails({ exception }: { exception: ReconciliationException }) {
  const line = exception.statementLine;
  const entry = exception.ledgerTransfer;
  const who = useActorInWords();
  return (
    <>
      {line ? (
        <span className="reconciliation__detail">
          Statement line (type {line.typeCode}):{' '}
          {[line.bankReference && `bank ref. ${line.bankReference}`, line.customerReference && `customer ref. ${line.customerReference}`]
            .filter(Boolean)
            .join(', ') || 'no references'}
          {line.text ? `; “${line.text}”` : ''}
        </span>
      ) : null}
      {entry ? (
        <span className="reconciliation__detail">
          Ledger entry: {entry.description}, booked on {formatBankDate(entry.postedOn)}
        </span>
      ) : null}
      {exception.resolutionReason ? (
        <span className="ops-secondary">
          {exception.resolvedBy ? `Resolved by ${who(exception.resolvedBy, exception.resolvedByEmail)}` : 'Resolved'}: {exception.resolutionReason}
        </span>
      ) : null}
    </>
  );
}
