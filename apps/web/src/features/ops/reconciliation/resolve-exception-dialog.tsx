import { useState } from 'react';
import { resolveExceptionRequestSchema, type ReconciliationException, type ResolveExceptionRequest } from '@strongroom/contracts/books.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { Notice } from '../../../components/ui/notice.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextAreaField } from '../../../components/ui/text-field.tsx';
import { formatBankDate } from '../disputes/dispute-words.ts';
import { OutcomeDialog } from '../outcome-dialog.tsx';
import { useResolveException } from './reconciliation-api.ts';
import { directionWords, exceptionKindWords, matchCandidates, reconciliationRefusalInWords } from './reconciliation-words.ts';
import { ExceptionDetails } from './exception-cells.tsx';

type Resolution = ResolveExceptionRequest['resolution'];

function candidateLabel(other: ReconciliationException): string {
  const what = other.ledgerTransfer ? `ledger entry: ${other.ledgerTransfer.description}` : `statement line ${other.statementLine?.bankReference ?? ''}`.trim();
  return `${formatBankDate(other.day)}, ${formatMoney(other.amountCents)}, ${what}`;
}

/**
 * Resolving an exception with a reason: matched by hand with the other side's open exception (same
 * account, direction and amount), or an adjusting entry that brings the ledger to what the bank
 * says. An entry of the four-eyes amount or more waits for a second finance member (202).
 */
export function ResolveExceptionDialog({
  exception,
  open,
  onClose,
}: {
  exception: ReconciliationException;
  open: readonly ReconciliationException[];
  onClose: () => void;
}) {
  const candidates = matchCandidates(exception, open);
  const [resolution, setResolution] = useState<Resolution>(candidates.length > 0 ? 'matched' : 'adjusted');
  const [matchWith, setMatchWith] = useState(candidates[0]?.id ?? '');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Partial<Record<'resolution' | 'matchWith' | 'reason', string>>>({});
  const [outcome, setOutcome] = useState<string | undefined>();
  const resolve = useResolveException();
  const amount = formatMoney(exception.amountCents);

  function confirm() {
    const checked = resolveExceptionRequestSchema.safeParse(resolution === 'matched' ? { resolution, matchWith, reason } : { resolution, reason });
    if (!checked.success) {
      setErrors(Object.fromEntries(checked.error.issues.map((issue) => [String(issue.path[0] ?? 'resolution'), issue.message])));
      return;
    }
    setErrors({});
    resolve.mutate(
      { id: exception.id, body: checked.data },
      {
        onSuccess: (answer) =>
          setOutcome(
            answer.exception.status === 'resolved'
              ? `The ${amount} exception is resolved.`
              : `The adjusting entry of ${amount} waits for a second finance member's approval; the exception resolves when it posts.`,
          ),
      },
    );
  }

  return (
    <OutcomeDialog
      title={`Resolve the ${amount} exception of ${formatBankDate(exception.day)}`}
      description={`${exceptionKindWords[exception.kind]}: ${directionWords[exception.direction].toLowerCase()}, ${exception.settlementAccountName}.`}
      outcome={outcome}
      confirmLabel={resolution === 'matched' ? 'Match and resolve' : `Book an adjusting entry of ${amount}`}
      confirmVariant="primary"
      busy={resolve.isPending}
      onConfirm={confirm}
      onClose={onClose}
    >
      <p className="reconciliation__facts">
        <ExceptionDetails exception={exception} />
      </p>
      <SelectField
        label="Resolve by"
        value={resolution}
        onChange={(event) => setResolution(event.target.value === 'matched' ? 'matched' : 'adjusted')}
        options={[
          ...(candidates.length > 0 ? [{ value: 'matched', label: 'Match with another open exception' }] : []),
          { value: 'adjusted', label: 'Book an adjusting entry' },
        ]}
        error={errors.resolution}
        hint={candidates.length > 0 ? undefined : 'No open exception of the other side has the same account, direction and amount.'}
      />
      {resolution === 'matched' ? (
        <SelectField
          label="Match with"
          value={matchWith}
          onChange={(event) => setMatchWith(event.target.value)}
          options={candidates.map((other) => ({ value: other.id, label: candidateLabel(other) }))}
          error={errors.matchWith}
        />
      ) : (
        <p>
          An adjusting entry of {amount} brings the ledger&rsquo;s {exception.settlementAccountName} to what the bank reported, against reconciliation
          differences.
        </p>
      )}
      <TextAreaField
        label="Reason (kept in the audit log)"
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        error={errors.reason}
        maxLength={500}
        rows={3}
        data-autofocus
      />
      {resolve.error ? (
        <Notice tone="error" role="alert">
          {reconciliationRefusalInWords(resolve.error)}
        </Notice>
      ) : null}
    </OutcomeDialog>
  );
}
