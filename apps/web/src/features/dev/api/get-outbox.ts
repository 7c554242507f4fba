import { useQuery } from '@tanstack/react-query';
import { outboxListSchema, type OutboxItem } from '@strongroom/contracts/outbox.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** `GET /api/v1/dev/outbox?to=` (sandbox only): the mail and SMS the bank "sent", newest first. */
export const outboxPageSize = 50;
/** The inbox refreshes itself, so a code sent a moment ago shows up without a click. */
export const outboxRefreshMs = 5_000;

export async function getOutbox(to: string | undefined): Promise<OutboxItem[]> {
  const { items } = await apiRequest('/dev/outbox', {
    query: { to, limit: outboxPageSize },
    parse: (data) => outboxListSchema.parse(data),
  });
  // The server sorts already; sorting again costs nothing and keeps the promise of "newest first".
  return items.toSorted((a, b) => b.createdAt.localeCompare(a.createdAt));
}

export function useOutbox(to: string | undefined) {
  return useQuery({
    queryKey: queryKeys.outbox(to ?? ''),
    queryFn: () => getOutbox(to),
    refetchInterval: outboxRefreshMs,
    staleTime: 0,
  });
}
