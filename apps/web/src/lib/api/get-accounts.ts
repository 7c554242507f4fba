import { useQuery } from '@tanstack/react-query';
import { accountListSchema, type Account } from '@strongroom/contracts/accounts.ts';
import { apiRequest } from '../api-client.ts';
import { queryKeys } from '../query-keys.ts';

/**
 * While a new customer's identity is being checked they have no accounts yet; they open the moment
 * it is approved (in the sandbox within seconds), so an empty list is asked for again this often.
 */
export const accountsOpeningRefreshMs = 5_000;

/** `GET /api/v1/accounts` -> `[{ id, type, number, name, balanceCents, availableCents, status, active, productName, interestRateBps, apyBps, ... }]`, balances from the ledger. */
export function getAccounts(): Promise<Account[]> {
  return apiRequest('/accounts', { parse: (data) => accountListSchema.parse(data) });
}

export function useAccounts() {
  return useQuery({
    queryKey: queryKeys.accounts,
    queryFn: getAccounts,
    refetchInterval: (query) => (query.state.data?.length === 0 ? accountsOpeningRefreshMs : false),
  });
}
