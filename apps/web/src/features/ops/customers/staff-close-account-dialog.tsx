import { useState, type FormEvent } from 'react';
import { staffCloseAccountRequestSchema } from '@strongroom/contracts/account-management.ts';
import type { AccountBalance } from '@strongroom/contracts/accounts.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { useStaffAccountAction } from './api/manage-accounts.ts';
import { AuditReasonField, DialogFormActions } from './dialog-form-actions.tsx';
import { fieldErrorsOf } from './staff-account-form.ts';

interface Props {
  fullName: string;
  accounts: readonly AccountBalance[];
  onClose: () => void;
  onDone: (message: string) => void;
}

const labelOf = (account: AccountBalance) => `${account.name} ${account.number} (${formatMoney(account.balanceCents)})`;

/** Staff close one of the customer's accounts: its balance and unpaid interest go to another of theirs; it cannot be undone. */
export function StaffCloseAccountDialog({ fullName, accounts, onClose, onDone }: Props) {
  const open = accounts.filter((account) => account.status === 'open');
  const [accountId, setAccountId] = useState(open[0]?.id ?? '');
  const [toAccountId, setToAccountId] = useState(open[1]?.id ?? '');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const action = useStaffAccountAction();
  const closing = open.find((account) => account.id === accountId);
  const destination = open.find((account) => account.id === toAccountId);
  const options = open.map((account) => ({ value: account.id, label: labelOf(account) }));

  function submit(event: FormEvent) {
    event.preventDefault();
    if (accountId === toAccountId) return setErrors({ toAccountId: 'choose another account for the balance' });
    const parsed = staffCloseAccountRequestSchema.safeParse({ toAccountId, reason });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setErrors({});
    action.mutate({ kind: 'close', accountId, body: parsed.data }, { onSuccess: ({ account }) => onDone(`${account.name} ${account.number} closed.`) });
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Close an account of ${fullName}`}
      description="Interest earned and not yet paid is paid first, then the whole balance moves to the account chosen, then the account is closed. This cannot be undone."
      dismissible={!action.isPending}
    >
      <form onSubmit={submit} noValidate>
        <SelectField label="Account to close" options={options} value={accountId} onChange={(event) => setAccountId(event.target.value)} />
        <SelectField
          label="Move the balance to"
          placeholder="Choose an account"
          options={options}
          value={toAccountId}
          onChange={(event) => setToAccountId(event.target.value)}
          error={errors.toAccountId}
        />
        <AuditReasonField value={reason} onChange={setReason} error={errors.reason} />
        <DialogFormActions
          failure={action.error?.message}
          busy={action.isPending}
          confirmLabel={closing && destination ? `Close ${closing.name} ${closing.number}, balance to ${destination.number}` : 'Close the account'}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
