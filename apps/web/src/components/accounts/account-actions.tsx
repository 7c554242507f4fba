import { useState } from 'react';
import type { Account } from '@strongroom/contracts/accounts.ts';
import { Button } from '../ui/button.tsx';
import { Notice } from '../ui/notice.tsx';
import { useToast } from '../ui/toast.tsx';
import { useProducts } from '../../lib/api/get-products.ts';
import { ChangeTierDialog } from './change-tier-dialog.tsx';
import { CloseAccountDialog } from './close-account-dialog.tsx';
import './account-actions.css';

/** An open account's own actions: "Change account type" (checking only) and "Close account", each behind its dialog. */
export function AccountActions({ account, accounts }: { account: Account; accounts: readonly Account[] }) {
  const [asked, setAsked] = useState<'close' | 'tier' | null>(null);
  const toast = useToast();
  const products = useProducts();
  if (account.status !== 'open') return null;
  const others = accounts.filter((other) => other.id !== account.id && other.status === 'open');
  const finish = (message: string) => {
    setAsked(null);
    // A toast, not a line in the card: a closed account leaves the list, and its card with it.
    toast.show(message);
  };

  return (
    <>
      <div className="account-actions">
        {account.type === 'checking' ? (
          <Button size="sm" variant="secondary" onClick={() => setAsked('tier')} aria-label={`Change account type of ${account.name} ${account.number}`}>
            Change account type
          </Button>
        ) : null}
        <Button size="sm" variant="secondary" onClick={() => setAsked('close')} aria-label={`Close account ${account.name} ${account.number}`}>
          Close account
        </Button>
      </div>
      {asked === 'close' ? <CloseAccountDialog account={account} others={others} onClose={() => setAsked(null)} onClosed={finish} /> : null}
      {asked === 'tier' && products.data ? (
        <ChangeTierDialog account={account} products={products.data} onClose={() => setAsked(null)} onChanged={finish} />
      ) : null}
      {asked === 'tier' && products.isError ? (
        <Notice tone="error" role="alert">
          We could not load the account types. Please try again.
        </Notice>
      ) : null}
    </>
  );
}
