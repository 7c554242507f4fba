import { useState } from 'react';
import type { Account } from '@strongroom/contracts/accounts.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { ConfirmDialog } from '../forms/confirm-dialog.tsx';
import { accountLabel } from '../payment/account-options.ts';
import { Notice } from '../ui/notice.tsx';
import { SelectField } from '../ui/select-field.tsx';
import { useCloseAccount } from './manage-account.ts';

interface CloseAccountDialogProps {
  account: Account;
  /** The customer's other open accounts: where the balance may go. */
  others: readonly Account[];
  onClose: () => void;
  onClosed: (message: string) => void;
}

/**
 * The confirmation before closing: which account the balance (and the interest earned and not yet
 * paid) goes to, and that it cannot be undone. The bank's refusal (what still depends on the account) is shown as it is.
 */
export function CloseAccountDialog({ account, others, onClose, onClosed }: CloseAccountDialogProps) {
  const [toAccountId, setToAccountId] = useState(others[0]?.id ?? '');
  const closing = useCloseAccount(account.id);
  const destination = others.find((other) => other.id === toAccountId);

  return (
    <ConfirmDialog
      title={`Close ${account.name} ${account.number}`}
      description={
        destination
          ? `Its balance of ${formatMoney(account.balanceCents)}, and any interest it has earned and not yet been paid, moves to ${destination.name} ${destination.number}. Then the account is closed. This cannot be undone.`
          : 'You need another open account for the balance to go to before you can close this one.'
      }
      confirmLabel={`Close ${account.name}`}
      confirmVariant="danger"
      busy={closing.isPending}
      onCancel={onClose}
      onConfirm={() => {
        if (!destination) return;
        closing.mutate(
          { toAccountId: destination.id },
          { onSuccess: () => onClosed(`${account.name} ${account.number} is closed. Its balance went to ${destination.name} ${destination.number}.`) },
        );
      }}
    >
      {others.length > 0 ? (
        <SelectField
          label="Move the balance to"
          options={others.map((other) => ({ value: other.id, label: accountLabel(other) }))}
          value={toAccountId}
          onChange={(event) => setToAccountId(event.target.value)}
          required
        />
      ) : null}
      {closing.error ? (
        <Notice tone="error" role="alert">
          {closing.error.message}
        </Notice>
      ) : null}
    </ConfirmDialog>
  );
}
