import { useState, type FormEvent } from 'react';
import { staffChangeProductRequestSchema } from '@strongroom/contracts/account-management.ts';
import type { AccountBalance } from '@strongroom/contracts/accounts.ts';
import type { Product } from '@strongroom/contracts/products.ts';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { useStaffAccountAction } from './api/manage-accounts.ts';
import { AuditReasonField, DialogFormActions } from './dialog-form-actions.tsx';
import { fieldErrorsOf } from './staff-account-form.ts';

interface Props {
  fullName: string;
  accounts: readonly AccountBalance[];
  products: readonly Product[];
  onClose: () => void;
  onDone: (message: string) => void;
}

/** Staff move one of the customer's checking accounts to another checking tier, with a reason. */
export function StaffChangeTierDialog({ fullName, accounts, products, onClose, onDone }: Props) {
  const checking = accounts.filter((account) => account.status === 'open' && account.type === 'checking');
  const tiers = products.filter((product) => product.kind === 'checking');
  const [accountId, setAccountId] = useState(checking[0]?.id ?? '');
  const [productId, setProductId] = useState(tiers[0]?.id ?? '');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const action = useStaffAccountAction();
  const chosen = tiers.find((product) => product.id === productId);

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = staffChangeProductRequestSchema.safeParse({ productId, reason });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setErrors({});
    action.mutate({ kind: 'change', accountId, body: parsed.data }, { onSuccess: ({ account }) => onDone(`${account.number} is now ${account.name}.`) });
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Change a checking tier of ${fullName}`}
      description="The account keeps its number and money; the new tier's fee and rate apply from now on."
      dismissible={!action.isPending}
    >
      <form onSubmit={submit} noValidate>
        <SelectField
          label="Checking account"
          options={checking.map((account) => ({ value: account.id, label: `${account.name} ${account.number}` }))}
          value={accountId}
          onChange={(event) => setAccountId(event.target.value)}
        />
        <SelectField
          label="New tier"
          options={tiers.map((product) => ({ value: product.id, label: product.name }))}
          value={productId}
          onChange={(event) => setProductId(event.target.value)}
          error={errors.productId}
        />
        <AuditReasonField value={reason} onChange={setReason} error={errors.reason} />
        <DialogFormActions
          failure={action.error?.message}
          busy={action.isPending}
          confirmLabel={`Change to ${chosen?.name ?? 'the new tier'}`}
          confirmVariant="primary"
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
