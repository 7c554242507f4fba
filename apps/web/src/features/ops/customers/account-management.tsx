import { useState } from 'react';
import type { AccountBalance } from '@strongroom/contracts/accounts.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { useDepositProducts } from './api/manage-accounts.ts';
import { StaffChangeTierDialog } from './staff-change-tier-dialog.tsx';
import { StaffCloseAccountDialog } from './staff-close-account-dialog.tsx';
import { StaffOpenAccountDialog } from './staff-open-account-dialog.tsx';

interface Props {
  customerId: string;
  fullName: string;
  accounts: readonly AccountBalance[];
  onDone: (message: string | null) => void;
}

/** Open, close and change the customer's accounts (`accounts.manage`), each in its dialog with a reason. */
export function AccountManagement({ customerId, fullName, accounts, onDone }: Props) {
  const [asked, setAsked] = useState<'open' | 'close' | 'change' | null>(null);
  const products = useDepositProducts();
  const open = accounts.filter((account) => account.status === 'open');
  const ask = (which: 'open' | 'close' | 'change') => {
    onDone(null);
    setAsked(which);
  };
  const shared = {
    fullName,
    accounts,
    onClose: () => setAsked(null),
    onDone: (message: string) => {
      setAsked(null);
      onDone(message);
    },
  };

  return (
    <div className="customer-care__account-actions">
      <Button variant="secondary" onClick={() => ask('open')} disabled={!products.data}>
        Open an account
      </Button>
      <Button variant="secondary" onClick={() => ask('change')} disabled={!products.data || !open.some((account) => account.type === 'checking')}>
        Change a checking tier
      </Button>
      <Button variant="secondary" onClick={() => ask('close')} disabled={open.length < 2}>
        Close an account
      </Button>
      {products.isError ? <Notice tone="error">The account types could not be loaded, so accounts cannot be opened or changed now.</Notice> : null}
      {asked === 'open' && products.data ? <StaffOpenAccountDialog {...shared} customerId={customerId} products={products.data} /> : null}
      {asked === 'change' && products.data ? <StaffChangeTierDialog {...shared} products={products.data} /> : null}
      {asked === 'close' ? <StaffCloseAccountDialog {...shared} /> : null}
    </div>
  );
}
