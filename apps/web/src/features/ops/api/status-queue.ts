import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * A staff queue of one status (card requests, held transfers, identity reviews, loans, messages):
 * `GET {path}?status=&cursor=`, page after page by the cursor the last page gave.
 */
export function useStatusQueue<Page extends { nextCursor?: string | null | undefined }>(
  queryKey: QueryKey,
  path: string,
  status: string,
  parse: (data: unknown) => Page,
) {
  return useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => apiRequest(path, { query: { status, cursor: pageParam }, parse }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
