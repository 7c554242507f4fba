import { useInfiniteQuery } from '@tanstack/react-query';
import { auditPageSchema, type AuditFilter } from '@strongroom/contracts/staff-audit.ts';
import { apiRequest, apiUrl } from '../../../lib/api-client.ts';
import { staffQueryKeys } from '../api/staff-query-keys.ts';

export type AuditFilterForm = { [Key in keyof AuditFilter]-?: string };

const parse = (data: unknown) => auditPageSchema.parse(data);

/** `GET /api/v1/staff/audit`: newest first, a page at a time ("Load more" follows `nextCursor`). */
export function useAuditLog(filter: AuditFilterForm) {
  return useInfiniteQuery({
    queryKey: staffQueryKeys.audit(filter),
    initialPageParam: '',
    queryFn: ({ pageParam }) => apiRequest('/staff/audit', { query: { ...filter, cursor: pageParam || undefined }, parse }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

/** The CSV export of the same filter: a plain link, so the browser downloads it with the staff cookie. */
export function auditCsvUrl(filter: AuditFilterForm): string {
  return apiUrl('/staff/audit.csv', filter);
}
