import { useMutation } from '@tanstack/react-query';
import type { NotificationList } from '@strongroom/contracts/notifications.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** `DELETE /api/v1/notifications/{id}` -> 204. */
export function deleteNotification(id: string): Promise<void> {
  return apiRequest(`/notifications/${encodeURIComponent(id)}`, { method: 'DELETE', parse: () => undefined });
}

export function useDeleteNotification() {
  return useMutation({
    mutationFn: deleteNotification,
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<NotificationList>(queryKeys.notifications, (list) => {
        if (!list) return list;
        const deleted = list.items.find((item) => item.id === id);
        const unreadCount = deleted && !deleted.read ? Math.max(0, list.unreadCount - 1) : list.unreadCount;
        return { items: list.items.filter((item) => item.id !== id), unreadCount };
      });
      void queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
    },
  });
}
