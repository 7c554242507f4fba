import { useQuery } from '@tanstack/react-query';
import { notificationListSchema, type NotificationList } from '@strongroom/contracts/notifications.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** The list and the header badge share this key; the live event 'notifications' makes it stale. */
export const notificationsQueryKey = ['notifications'] as const;

/** `GET /api/v1/notifications` -> `{ items, unreadCount }`, newest first. */
export function getNotifications(): Promise<NotificationList> {
  return apiRequest('/notifications', { parse: (data) => notificationListSchema.parse(data) });
}

export function useNotifications() {
  return useQuery({ queryKey: notificationsQueryKey, queryFn: getNotifications });
}
