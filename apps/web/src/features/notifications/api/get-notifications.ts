import { useQuery } from '@tanstack/react-query';
import { notificationListSchema, type NotificationList } from '@strongroom/contracts/notifications.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** `GET /api/v1/notifications` -> `{ items, unreadCount }`, newest first. */
export function getNotifications(): Promise<NotificationList> {
  return apiRequest('/notifications', { parse: (data) => notificationListSchema.parse(data) });
}

export function useNotifications() {
  return useQuery({ queryKey: queryKeys.notifications, queryFn: getNotifications });
}
