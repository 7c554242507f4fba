import { useMutation } from '@tanstack/react-query';
import type { NotificationList } from '@strongroom/contracts/notifications.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** `POST /api/v1/notifications/read` -> 204: every notification of the customer is read. */
export function markNotificationsRead(): Promise<void> {
  return apiRequest('/notifications/read', { method: 'POST', parse: () => undefined });
}

export function useMarkNotificationsRead() {
  return useMutation({
    mutationFn: markNotificationsRead,
    // The server's answer is known: everything is read. Writing it into the cache clears the badge
    // at once, without asking for the list again.
    onSuccess: () => {
      queryClient.setQueryData<NotificationList>(queryKeys.notifications, (list) =>
        list ? { items: list.items.map((item) => ({ ...item, read: true })), unreadCount: 0 } : list,
      );
    },
  });
}
