import type { Account } from '@strongroom/contracts/accounts.ts';
import { useAccounts } from '../../lib/api/get-accounts.ts';
import { useMe } from '../../lib/api/get-me.ts';

export type BillPayAccess =
  | { state: 'loading' }
  | { state: 'failed'; query: ReturnType<typeof useAccounts> }
  | { state: 'not_approved' }
  | { state: 'approved'; accounts: readonly Account[] };

/**
 * Whether the customer can pay bills (the seed's rule, issue 33 item 6): only once the identity is
 * approved and an account is open to pay from. Until then every tile says 'Account has not been
 * approved'. The accounts a bill can be paid from are the open, active ones.
 */
export function useBillPayAccess(): BillPayAccess {
  const me = useMe();
  const accounts = useAccounts();
  const verified = me.data?.user.accountVerified ?? false;
  if (!verified) return me.isPending ? { state: 'loading' } : { state: 'not_approved' };
  if (accounts.isPending) return { state: 'loading' };
  if (accounts.isError) return { state: 'failed', query: accounts };
  const open = accounts.data.filter((account) => account.active && account.status === 'open');
  return open.length === 0 ? { state: 'not_approved' } : { state: 'approved', accounts: open };
}
