import { useState, type FormEvent } from 'react';
import { staffOpenAccountRequestSchema } from '@strongroom/contracts/account-management.ts';
import type { AccountBalance } from '@strongroom/contracts/accounts.ts';
import type { Product } from '@strongroom/contracts/products.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { parseDollarsToCents } from '@strongroom/contracts/money-input.ts';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { newIdempotencyKey } from '../../../lib/idempotency-key.ts';
import { useStaffAccountAction } from './api/manage-accounts.ts';
import { AuditReasonField, DialogFormActions } from './dialog-form-actions.tsx';
import { fieldErrorsOf } from './staff-account-form.ts';

interface Props {
  customerId: string;
  fullName: string;
  accounts: readonly AccountBalance[];
  products: readonly Product[];
  onClose: () => void;
  onDone: (message: string) => void;
}

/** Staff open an account for the customer: the product, the opening deposit from one of their accounts, the disclosure given in person, a reason. */
export function StaffOpenAccountDialog({ customerId, fullName, accounts, products, onClose, onDone }: Props) {
  const [form, setForm] = useState({ productId: products[0]?.id ?? '', fromAccountId: '', amount: '', disclosureGiven: false, reason: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [key] = useState(newIdempotencyKey);
  const action = useStaffAccountAction();
  const product = products.find((candidate) => candidate.id === form.productId);
  const set = (patch: Partial<typeof form>) => setForm((current) => ({ ...current, ...patch }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const cents = form.amount.trim() === '' ? { ok: true as const, cents: 0 } : parseDollarsToCents(form.amount);
    if (!cents.ok) return setErrors({ openingDepositCents: 'Enter an amount like 500.00' });
    const parsed = staffOpenAccountRequestSchema.safeParse({
      productId: form.productId,
      ...(form.fromAccountId ? { fromAccountId: form.fromAccountId } : {}),
      openingDepositCents: cents.cents,
      disclosureGiven: form.disclosureGiven,
      reason: form.reason,
    });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setErrors({});
    action.mutate(
      { kind: 'open', customerId, body: parsed.data, idempotencyKey: key },
      { onSuccess: ({ account }) => onDone(`${account.name} ${account.number} opened for ${fullName}.`) },
    );
  }

  return (
    <Dialog open onClose={onClose} title={`Open an account for ${fullName}`} dismissible={!action.isPending}>
      <form onSubmit={submit} noValidate>
        <SelectField
          label="Account type"
          options={products.map((item) => ({ value: item.id, label: item.name }))}
          value={form.productId}
          onChange={(event) => set({ productId: event.target.value })}
          error={errors.productId}
        />
        {product ? <p>Minimum opening deposit: {formatMoney(product.openingDepositCents)}.</p> : null}
        <SelectField
          label="Opening deposit from"
          placeholder="No opening deposit"
          options={accounts
            .filter((account) => account.status === 'open')
            .map((account) => ({ value: account.id, label: `${account.name} ${account.number} (${formatMoney(account.availableCents)} available)` }))}
          value={form.fromAccountId}
          onChange={(event) => set({ fromAccountId: event.target.value })}
          error={errors.fromAccountId}
        />
        <TextField
          label="Opening deposit"
          inputMode="decimal"
          hint="In dollars"
          value={form.amount}
          onChange={(event) => set({ amount: event.target.value })}
          error={errors.openingDepositCents}
        />
        <Checkbox
          label="The customer was given the Truth in Savings disclosure and accepted it"
          checked={form.disclosureGiven}
          onChange={(event) => set({ disclosureGiven: event.target.checked })}
          error={errors.disclosureGiven}
        />
        <AuditReasonField value={form.reason} onChange={(reason) => set({ reason })} error={errors.reason} />
        <DialogFormActions
          failure={action.error?.message}
          busy={action.isPending}
          confirmLabel={`Open ${product?.name ?? 'account'} for ${fullName}`}
          confirmVariant="primary"
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
