import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, signedIn, type FakeAnswer } from '../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const moneyIn = {
  id: 'n1',
  kind: 'money_in',
  name: 'Money in',
  text: 'You received $250.00 from Grace Hopper.',
  createdAt: '2026-03-14T09:30:00.000Z',
  read: false,
  link: '/transaction-history',
};
const signIn = {
  id: 'n2',
  kind: 'new_sign_in',
  name: 'New sign-in',
  text: 'Someone signed in to your online banking from a new browser.',
  createdAt: '2026-03-12T18:05:00.000Z',
  read: true,
  link: null,
};

function list(items: readonly object[], unreadCount: number): FakeAnswer {
  return { status: 200, body: { items, unreadCount } };
}

describe('/notifications', () => {
  it('shows each notification with its name, text and date, marks the unread ones as new, and marks them all read on opening', async () => {
    let read = false;
    const { fetchMock } = renderApp('/notifications', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/notifications': () => (read ? list([{ ...moneyIn, read: true }, signIn], 0) : list([moneyIn, signIn], 1)),
      'POST /api/v1/notifications/read': () => {
        read = true;
        return { status: 204 };
      },
    });

    const first = (await screen.findByRole('heading', { level: 2, name: 'Money in' })).closest('li');
    if (!first) throw new Error('the notification is not a list item');
    expect(within(first).getByText('You received $250.00 from Grace Hopper.')).toBeTruthy();
    expect(within(first).getByText('New')).toBeTruthy();
    expect(within(first).getByRole('link', { name: 'View details' }).getAttribute('href')).toBe('/transaction-history');
    expect(within(first).getByText(/2026/).tagName).toBe('TIME');

    const second = screen.getByRole('heading', { level: 2, name: 'New sign-in' }).closest('li');
    if (!second) throw new Error('the notification is not a list item');
    expect(within(second).queryByText('New')).toBeNull();
    expect(within(second).queryByRole('link')).toBeNull();

    await waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => String(url).endsWith('/notifications/read') && init?.method === 'POST')).toBe(true));
    expect(await screen.findByRole('link', { name: 'Notifications, 0 unread' })).toBeTruthy();
    // Still marked new for the rest of this visit, so the customer sees what arrived.
    expect(within(first).getByText('New')).toBeTruthy();
  });

  it('deletes a notification only after the customer confirms', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp('/notifications', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/notifications': () =>
        fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE') ? list([signIn], 0) : list([{ ...moneyIn, read: true }, signIn], 0),
      'DELETE /api/v1/notifications/n1': { status: 204 },
    });
    const deleteButton = await screen.findByRole('button', { name: 'Delete notification: Money in' });

    await user.click(deleteButton);
    const dialog = screen.getByRole('dialog', { name: 'Delete this notification?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);

    await user.click(deleteButton);
    await user.click(within(screen.getByRole('dialog', { name: 'Delete this notification?' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('heading', { level: 2, name: 'Money in' })).toBeNull());
    expect(screen.getByRole('heading', { level: 2, name: 'New sign-in' })).toBeTruthy();
    expect(await screen.findByText('Notification deleted')).toBeTruthy();
    const deletes = fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE');
    expect(deletes.map(([url]) => String(url))).toEqual(['/api/v1/notifications/n1']);
  });

  it('shows an error from deleting in a dialog', async () => {
    const user = userEvent.setup();
    renderApp('/notifications', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/notifications': list([signIn], 0),
      'DELETE /api/v1/notifications/n2': { status: 404, body: { error: { code: 'not_found', message: 'Notification not found' } } },
    });
    await user.click(await screen.findByRole('button', { name: 'Delete notification: New sign-in' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    const alert = await screen.findByRole('alertdialog', { name: 'The notification was not deleted' });
    expect(within(alert).getByText('Notification not found')).toBeTruthy();
  });

  it('says once, in a dialog, when the notifications could not be marked read', async () => {
    const { fetchMock } = renderApp('/notifications', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/notifications': list([moneyIn], 1),
      'POST /api/v1/notifications/read': { status: 500, body: { error: { code: 'internal_error', message: 'Something broke on our side' } } },
    });
    const alert = await screen.findByRole('alertdialog', { name: 'Notifications were not marked as read' });
    expect(within(alert).getByText('Something broke on our side')).toBeTruthy();
    // Settled: nothing fetching, nothing being marked. A second attempt would have to start from here.
    await waitFor(() => expect(queryClient.isFetching() + queryClient.isMutating()).toBe(0));
    expect(fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/notifications/read'))).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Notifications, 1 unread' })).toBeTruthy();
  });

  it('says so when there are no notifications', async () => {
    renderApp('/notifications', { 'GET /api/v1/me': signedIn, 'GET /api/v1/notifications': list([], 0) });
    expect(await screen.findByRole('heading', { name: 'No notifications' })).toBeTruthy();
  });

  it('shows a failure to load in a dialog, and a way to try again', async () => {
    renderApp('/notifications', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/notifications': { status: 503, body: { error: { code: 'service_unavailable', message: 'The bank is busy, try again in a minute' } } },
    });
    const alert = await screen.findByRole('alertdialog', { name: 'Notifications could not be loaded' }, { timeout: 10_000 });
    expect(within(alert).getByText('The bank is busy, try again in a minute')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  }, 15_000);
});

describe('the notifications bell', () => {
  it('shows the number of unread notifications in the header and leads to the list', async () => {
    renderApp('/billpay', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/notifications': list([moneyIn, { ...moneyIn, id: 'n3' }, { ...moneyIn, id: 'n4' }], 3),
    });
    const bell = await screen.findByRole('link', { name: 'Notifications, 3 unread' });
    expect(bell.getAttribute('href')).toBe('/notifications');
    expect(bell.textContent).toBe('3');
  });
});
