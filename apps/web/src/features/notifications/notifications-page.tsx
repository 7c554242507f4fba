import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { BellOff, Trash2 } from 'lucide-react';
import type { Notification, NotificationList } from '@strongroom/contracts/notifications.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { ErrorDialog } from '../../components/ui/error-dialog.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { Page, PageHeader } from '../../components/ui/page.tsx';
import { useToast } from '../../components/ui/toast.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { formatDateTime, machineDateTime } from '../../lib/dates.ts';
import { useDeleteNotification } from './api/delete-notification.ts';
import { useNotifications } from './api/get-notifications.ts';
import { useMarkNotificationsRead } from './api/mark-notifications-read.ts';
import './notifications-page.css';

/** Only a screen of this app is followed; anything else in `link` is ignored rather than opened. */
function isAppPath(link: string | null): link is string {
  return link !== null && link.startsWith('/') && !link.startsWith('//');
}

function NotificationCard({ notification, isNew, onDelete }: { notification: Notification; isNew: boolean; onDelete: () => void }) {
  const titleId = `notification-${notification.id}`;
  return (
    <Card as="li" className={isNew ? 'notification notification--new' : 'notification'} aria-labelledby={titleId}>
      <div className="notification__header">
        <div className="notification__title">
          {isNew ? (
            <Badge tone="accent" size="xs" strong dot>
              New
            </Badge>
          ) : null}
          <h2 id={titleId} className="notification__name">
            {notification.name}
          </h2>
        </div>
        <Button variant="ghost" className="notification__delete" aria-label={`Delete notification: ${notification.name}`} onClick={onDelete}>
          <Trash2 aria-hidden="true" size={20} />
        </Button>
      </div>
      <p className="notification__text">{notification.text}</p>
      <div className="notification__footer">
        <time dateTime={machineDateTime(notification.createdAt)} className="notification__date">
          {formatDateTime(notification.createdAt)}
        </time>
        {isAppPath(notification.link) ? <Link to={notification.link}>View details</Link> : null}
      </div>
    </Card>
  );
}

/**
 * /notifications: the customer's notifications, newest first. Opening the page marks them all read
 * (the header badge clears); those that were unread stay marked "New" for the rest of this visit.
 */
export default function NotificationsPage() {
  const notifications = useNotifications();
  const markRead = useMarkNotificationsRead();
  const deleteNotification = useDeleteNotification();
  const toast = useToast();
  const [newIds, setNewIds] = useState<ReadonlySet<string>>(new Set());
  const [pendingDelete, setPendingDelete] = useState<Notification | null>(null);
  const [dialogError, setDialogError] = useState<{ title: string; message: string } | null>(null);
  const [dismissedLoadErrorAt, setDismissedLoadErrorAt] = useState(0);

  const list = notifications.data;
  const { mutate: markAllRead } = markRead;
  // The list last marked read: each list with unread items is marked once, so a failure is shown
  // once instead of being retried in a loop. A new list (a notification arrived while the page is
  // open) is marked read too.
  const markedList = useRef<NotificationList | null>(null);
  useEffect(() => {
    if (!list || list.unreadCount === 0 || markedList.current === list) return;
    markedList.current = list;
    const unreadIds = list.items.filter((item) => !item.read).map((item) => item.id);
    setNewIds((current) => new Set([...current, ...unreadIds]));
    markAllRead(undefined, {
      onError: (error) => setDialogError({ title: 'Notifications were not marked as read', message: error.message }),
    });
  }, [list, markAllRead]);

  function confirmDelete() {
    if (!pendingDelete) return;
    deleteNotification.mutate(pendingDelete.id, {
      onSuccess: () => {
        setPendingDelete(null);
        toast.show('Notification deleted');
      },
      onError: (error) => {
        setPendingDelete(null);
        setDialogError({ title: 'The notification was not deleted', message: error.message });
      },
    });
  }

  const showLoadError = notifications.isError && notifications.errorUpdatedAt !== dismissedLoadErrorAt;

  return (
    <Page className="notifications">
      <PageMeta title="Notifications" description="Your notifications from the bank." noIndex />
      <PageHeader title="Notifications" />

      {notifications.isPending ? (
        <LoadingLine>Loading your notifications…</LoadingLine>
      ) : notifications.isError ? (
        <LoadFailed title="We could not load your notifications" query={notifications} />
      ) : notifications.data.items.length === 0 ? (
        <EmptyState icon={<BellOff aria-hidden="true" size={28} />} title="No notifications">
          <p>We let you know here when money comes in or goes out, and when something about your account changes.</p>
        </EmptyState>
      ) : (
        <ul className="stack-list">
          {notifications.data.items.map((notification) => (
            <NotificationCard
              key={notification.id}
              notification={notification}
              isNew={!notification.read || newIds.has(notification.id)}
              onDelete={() => setPendingDelete(notification)}
            />
          ))}
        </ul>
      )}

      <Dialog
        open={pendingDelete !== null}
        onClose={() => setPendingDelete(null)}
        dismissible={!deleteNotification.isPending}
        size="sm"
        title="Delete this notification?"
        description={<p>“{pendingDelete?.name}” will be removed from your notifications. This cannot be undone.</p>}
        footer={
          <>
            <Button variant="secondary" onClick={() => setPendingDelete(null)} disabled={deleteNotification.isPending}>
              Cancel
            </Button>
            <Button variant="danger" onClick={confirmDelete} loading={deleteNotification.isPending}>
              Delete
            </Button>
          </>
        }
      />
      <ErrorDialog
        title="Notifications could not be loaded"
        message={showLoadError ? notifications.error.message : null}
        onClose={() => setDismissedLoadErrorAt(notifications.errorUpdatedAt)}
      />
      <ErrorDialog title={dialogError?.title} message={dialogError?.message} onClose={() => setDialogError(null)} />
    </Page>
  );
}
