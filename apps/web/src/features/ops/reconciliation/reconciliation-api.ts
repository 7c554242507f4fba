import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import {
  bankStatementListResponseSchema,
  bankStatementResponseSchema,
  exceptionListResponseSchema,
  exceptionResponseSchema,
  type ResolveExceptionRequest,
} from '@strongroom/contracts/books.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';

/** Under `staff`, so signing out drops it with the rest of the console's data. */
const reconciliationKey = ['staff', 'reconciliation'] as const;

export type ExceptionStatus = 'open' | 'resolved';

/** `GET /api/v1/staff/reconciliation/statements` (`reconciliation.manage`): the statements imported, newest first. */
export function useStatements() {
  return useQuery({
    queryKey: [...reconciliationKey, 'statements'],
    queryFn: () => apiRequest('/staff/reconciliation/statements', { parse: (data) => bankStatementListResponseSchema.parse(data) }),
  });
}

/** `GET /api/v1/staff/reconciliation/exceptions?status=&cursor=`: the exceptions queue, page after page. */
export function useExceptions(status: ExceptionStatus) {
  return useInfiniteQuery({
    queryKey: [...reconciliationKey, 'exceptions', status],
    queryFn: ({ pageParam }) =>
      apiRequest('/staff/reconciliation/exceptions', { query: { status, cursor: pageParam }, parse: (data) => exceptionListResponseSchema.parse(data) }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** `POST /api/v1/staff/reconciliation/statements` `{ fileName, content }`: 201, 409 already_imported, 400 with the line at fault. */
export function useImportStatement() {
  return useMutation({
    mutationFn: (file: { fileName: string; content: string }) =>
      apiRequest('/staff/reconciliation/statements', { method: 'POST', body: file, parse: (data) => bankStatementResponseSchema.parse(data) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reconciliationKey }),
  });
}

/**
 * `POST /api/v1/staff/reconciliation/exceptions/{id}/resolve`: 200 resolved; 202 when the adjusting
 * entry waits for a second approval (the exception is still open then, with its adjustmentId).
 */
export function useResolveException() {
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ResolveExceptionRequest }) =>
      apiRequest(`/staff/reconciliation/exceptions/${encodeURIComponent(id)}/resolve`, {
        method: 'POST',
        body,
        parse: (data) => exceptionResponseSchema.parse(data),
      }),
    // An adjusting entry changes the books too.
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: reconciliationKey }), queryClient.invalidateQueries({ queryKey: ['staff', 'books'] })]),
  });
}
