import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, signedIn } from '../test/render-app.tsx';
import { queryClient } from './query-client.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

/** Stands in for the browser's EventSource: the test sends the server's events itself. */
class FakeEventSource extends EventTarget {
  static instances: FakeEventSource[] = [];
  readonly url: string;
  closed = false;

  constructor(url: string) {
    super();
    this.url = url;
    FakeEventSource.instances.push(this);
  }

  close() {
    this.closed = true;
  }

  send(topic: string) {
    this.dispatchEvent(new MessageEvent('change', { data: topic }));
  }
}

function callsTo(fetchMock: ReturnType<typeof renderApp>['fetchMock'], path: string): number {
  return fetchMock.mock.calls.filter(([url]) => new URL(String(url), 'http://localhost').pathname === path).length;
}

describe('live updates', () => {
  it('opens one event stream in the bank’s frame, refetches what each topic names, and closes it when the frame goes', async () => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    let unreadCount = 0;
    const { fetchMock, unmount } = renderApp('/billpay', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/notifications': () => ({ status: 200, body: { items: [], unreadCount } }),
      'GET /api/v1/accounts': { status: 200, body: [] },
    });
    await screen.findByRole('link', { name: 'Notifications, 0 unread' });
    expect(FakeEventSource.instances).toHaveLength(1);
    const source = FakeEventSource.instances[0];
    if (!source) throw new Error('no event stream was opened');
    expect(source.url).toBe('/api/v1/events');

    unreadCount = 2;
    source.send('notifications');
    expect(await screen.findByRole('link', { name: 'Notifications, 2 unread' })).toBeTruthy();

    // Money moved: balances, the month's figures and the history are stale (fetched again once shown).
    queryClient.setQueryData(['accounts'], []);
    queryClient.setQueryData(['dashboard'], {});
    source.send('accounts');
    await waitFor(() => expect(queryClient.getQueryState(['accounts'])?.isInvalidated).toBe(true));
    expect(queryClient.getQueryState(['dashboard'])?.isInvalidated).toBe(true);

    const notificationCalls = callsTo(fetchMock, '/api/v1/notifications');
    source.send('something-new');
    expect(callsTo(fetchMock, '/api/v1/notifications')).toBe(notificationCalls);

    unmount();
    expect(source.closed).toBe(true);
  });

  it('leaves the screens working where the browser has no EventSource', async () => {
    vi.stubGlobal('EventSource', undefined);
    renderApp('/billpay', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/notifications': { status: 200, body: { items: [], unreadCount: 1 } },
    });
    expect(await screen.findByRole('link', { name: 'Notifications, 1 unread' })).toBeTruthy();
  });
});
