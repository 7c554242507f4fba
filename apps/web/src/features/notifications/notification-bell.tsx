import { NavLink } from 'react-router';
import { Bell } from 'lucide-react';
import { useNotifications } from './api/get-notifications.ts';
import './notification-bell.css';

/** More than this shows as "99+": the badge stays the size of two digits. */
const maxShownCount = 99;

/**
 * The bell in the bank's header: a link to /notifications with the number of unread ones. It reads
 * the same query as the page, so it changes when a live event arrives or the page marks them read.
 */
export function NotificationBell() {
  const notifications = useNotifications();
  const unreadCount = notifications.data?.unreadCount;
  const label = unreadCount === undefined ? 'Notifications' : `Notifications, ${unreadCount} unread`;
  return (
    <NavLink to="/notifications" className="notification-bell" aria-label={label}>
      <Bell aria-hidden="true" size={22} />
      {unreadCount ? (
        <span className="notification-bell__badge tabular" aria-hidden="true">
          {unreadCount > maxShownCount ? `${maxShownCount}+` : unreadCount}
        </span>
      ) : null}
    </NavLink>
  );
}
