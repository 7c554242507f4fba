import { useMutation, useQuery } from '@tanstack/react-query';
import { dataRecipientListSchema, dataRecipientResponseSchema, type CreateDataRecipient } from '@strongroom/contracts/connected-apps.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';

/** Under `staff`, so signing out drops it with the rest of the console's data. */
const recipientsKey = ['staff', 'data-recipients'] as const;

/** `GET /api/v1/staff/data-recipients` (`connected_apps.manage`): every app, with its consents in force. */
export function useDataRecipients() {
  return useQuery({
    queryKey: recipientsKey,
    queryFn: () => apiRequest('/staff/data-recipients', { parse: (data) => dataRecipientListSchema.parse(data) }),
  });
}

/** `POST /api/v1/staff/data-recipients` (a new app, without `id`) or `PUT /api/v1/staff/data-recipients/{id}` (every field again). */
export function useSaveDataRecipient() {
  return useMutation({
    mutationFn: ({ id, request }: { id: string | null; request: CreateDataRecipient }) =>
      apiRequest(id === null ? '/staff/data-recipients' : `/staff/data-recipients/${encodeURIComponent(id)}`, {
        method: id === null ? 'POST' : 'PUT',
        body: request,
        parse: (data) => dataRecipientResponseSchema.parse(data),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: recipientsKey }),
  });
}

/** `POST /api/v1/staff/data-recipients/{id}/disable|enable` `{ reason }`. */
export function useChangeDataRecipientStatus() {
  return useMutation({
    mutationFn: ({ id, action, reason }: { id: string; action: 'disable' | 'enable'; reason: string }) =>
      apiRequest(`/staff/data-recipients/${encodeURIComponent(id)}/${action}`, {
        method: 'POST',
        body: { reason },
        parse: (data) => dataRecipientResponseSchema.parse(data),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: recipientsKey }),
  });
}
