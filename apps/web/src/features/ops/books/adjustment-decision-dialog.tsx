import { useState } from 'react';
import type { Adjustment } from '@strongroom/contracts/books.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { decisionReasonField } from '@strongroom/contracts/staff.ts';
import { Notice } from '../../../components/ui/notice.tsx';
import { TextAreaField } from '../../../components/ui/text-field.tsx';
import { OutcomeDialog } from '../outcome-dialog.tsx';
import { useAdjustmentDecision } from './books-api.ts';
import { booksRefusalInWords } from './books-words.ts';

export interface AdjustmentDecisionDialogProps {
  adjustment: Adjustment;
  decision: 'approve' | 'reject';
  /** The accounts by name, for the question. */
  nameOf: (key: string) => string;
  /** Who asked for it, in words ("you" for the one deciding). */
  requestedBy: string;
  onClose: () => void;
}

/** A second finance member's decision on an entry waiting for approval: approve posts it, reject leaves the books as they are. */
export function AdjustmentDecisionDialog({ adjustment, decision, nameOf, requestedBy, onClose }: AdjustmentDecisionDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [outcome, setOutcome] = useState<string | undefined>();
  const decide = useAdjustmentDecision();
  const amount = formatMoney(adjustment.amountCents);
  const entry = `${amount}: debit ${nameOf(adjustment.debitAccount)}, credit ${nameOf(adjustment.creditAccount)}`;

  function confirm() {
    const checked = decisionReasonField.safeParse(reason);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'give a reason');
      return;
    }
    setError(undefined);
    decide.mutate(
      { id: adjustment.id, decision, reason: checked.data },
      { onSuccess: () => setOutcome(decision === 'approve' ? `The entry of ${entry} is posted.` : `The entry of ${entry} is rejected; nothing was posted.`) },
    );
  }

  return (
    <OutcomeDialog
      title={decision === 'approve' ? `Approve and post ${entry}?` : `Reject ${entry}?`}
      description={decision === 'approve' ? 'Approving posts the entry on the open day; it cannot be undone.' : 'Rejecting ends the request; no money moves.'}
      outcome={outcome}
      confirmLabel={decision === 'approve' ? `Approve: post ${amount}` : 'Reject the entry'}
      confirmVariant={decision === 'approve' ? 'primary' : 'danger'}
      busy={decide.isPending}
      onConfirm={confirm}
      onClose={onClose}
    >
      <p>
        Asked for by {requestedBy}, because: {adjustment.reason}
      </p>
      <TextAreaField
        label="Reason (kept in the audit log)"
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        error={error}
        maxLength={500}
        rows={3}
        data-autofocus
      />
      {decide.error ? (
        <Notice tone="error" role="alert">
          {booksRefusalInWords(decide.error)}
        </Notice>
      ) : null}
    </OutcomeDialog>
  );
}
