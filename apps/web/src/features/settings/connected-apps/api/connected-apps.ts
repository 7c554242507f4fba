import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { connectedAppListSchema, type ConnectedAppList } from '@strongroom/contracts/connected-apps.ts';
import { apiRequest } from '../../../../lib/api-client.ts';
import { queryKeys } from '../../../../lib/query-keys.ts';

/** Settings > Connected apps (issue 38): the apps that can see the customer's data, and ending one's access. */

/** `GET /api/v1/me/connected-apps` -> `{ items }`: the consents in force, newest first. */
export function useConnectedApps() {
  return useQuery({
    queryKey: queryKeys.connectedApps,
    queryFn: ({ signal }) => apiRequest('/me/connected-apps', { signal, parse: (data) => connectedAppListSchema.parse(data) }),
  });
}

/**
 * `DELETE /api/v1/me/connected-apps/{consentId}` -> 204. The ended consent leaves the list at once,
 * without waiting for the list to be fetched again.
 */
export function useRevokeConnectedApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (consentId: string) => apiRequest(`/me/connected-apps/${encodeURIComponent(consentId)}`, { method: 'DELETE', parse: () => undefined }),
    onSuccess: (_nothing, consentId) => {
      queryClient.setQueryData<ConnectedAppList>(
        queryKeys.connectedApps,
        (list) => list && { items: list.items.filter((item) => item.consentId !== consentId) },
      );
      // The revocation is on the security timeline now.
      void queryClient.invalidateQueries({ queryKey: queryKeys.securityEvents });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.connectedApps }),
  });
}
