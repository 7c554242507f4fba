import { useState } from 'react';
import type { Account } from '@strongroom/contracts/accounts.ts';
import type { Product } from '@strongroom/contracts/products.ts';
import { ConfirmDialog } from '../forms/confirm-dialog.tsx';
import { Notice } from '../ui/notice.tsx';
import { SelectField } from '../ui/select-field.tsx';
import { useChangeProduct } from './manage-account.ts';
import { monthlyFeeText, rateText } from './product-facts.ts';

interface ChangeTierDialogProps {
  account: Account;
  products: readonly Product[];
  onClose: () => void;
  onChanged: (message: string) => void;
}

/** Another checking tier for a checking account: the new tier's fee, waiver and rate, said before it is chosen. */
export function ChangeTierDialog({ account, products, onClose, onChanged }: ChangeTierDialogProps) {
  const tiers = products.filter((product) => product.kind === 'checking' && product.id !== account.productId);
  const [productId, setProductId] = useState(tiers[0]?.id ?? '');
  const changing = useChangeProduct(account.id);
  const chosen = tiers.find((product) => product.id === productId);

  return (
    <ConfirmDialog
      title={`Change the type of ${account.name} ${account.number}`}
      description="The account keeps its number and its money. From now on the new type's terms apply: this month's fee is the one of the type the account has at the month's end."
      confirmLabel={chosen ? `Change to ${chosen.name}` : 'Change'}
      busy={changing.isPending}
      onCancel={onClose}
      onConfirm={() => {
        if (!chosen) return;
        changing.mutate({ productId: chosen.id }, { onSuccess: () => onChanged(`${account.number} is now a ${chosen.name} account.`) });
      }}
    >
      <SelectField
        label="New account type"
        options={tiers.map((product) => ({ value: product.id, label: product.name }))}
        value={productId}
        onChange={(event) => setProductId(event.target.value)}
        hint={chosen ? `${monthlyFeeText(chosen)}. ${chosen.waiverText} ${rateText(chosen)}.` : undefined}
        required
      />
      {changing.error ? (
        <Notice tone="error" role="alert">
          {changing.error.message}
        </Notice>
      ) : null}
    </ConfirmDialog>
  );
}
