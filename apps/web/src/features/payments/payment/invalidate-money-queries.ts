import type { QueryClient } from '@tanstack/react-query';

/** What a payment changes: balances, the dashboard's figures, history, notifications, favourites. */
const moneyQueryKeys = [['accounts'], ['dashboard'], ['transactions'], ['notifications'], ['beneficiaries']] as const;

export function invalidateMoneyQueries(queryClient: QueryClient): Promise<void> {
  return Promise.all(moneyQueryKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey }))).then(() => undefined);
}
