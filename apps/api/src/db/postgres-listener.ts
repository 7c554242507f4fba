import pg from 'pg';
import { assertChannelName } from './database.ts';

/** Between attempts to get the listening connection back, doubling from the first to the last. */
const firstReconnectDelayMs = 100;
const maxReconnectDelayMs = 5_000;
/** As the pool's: a database behind a dead network path must not hang the attempt. */
const connectionTimeoutMs = 5_000;
/** TCP keepalive on the idle listening connection, so a silently dead path is noticed and replaced. */
const keepAliveInitialDelayMs = 10_000;

type NotificationCallback = (payload: string) => void;

interface Subscription {
  onNotification: NotificationCallback;
  onReconnected?: () => void;
}

export interface PostgresListener {
  listen(channel: string, onNotification: NotificationCallback, onReconnected?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * `LISTEN` needs a connection of its own for as long as it listens: a pooled one would be handed to
 * other queries. One client serves every channel of the process. When it is lost (PostgreSQL
 * restarted, the backend terminated, the network cut) it reconnects with a growing delay and
 * listens again; notifications sent in the gap are not replayed (PostgreSQL keeps none for an
 * absent listener), so each subscription's `onReconnected` is called to make up for them. A
 * listen while the database is away resolves at once and is served from the first connection made.
 */
export function createPostgresListener(connectionString: string): PostgresListener {
  const channels = new Map<string, Set<Subscription>>();
  let active: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let reconnectDelayMs = firstReconnectDelayMs;
  let closed = false;

  const lost = (client: pg.Client) => {
    if (closed || client !== active) return;
    active = undefined;
    connecting = undefined;
    void client.end().catch(() => undefined);
    scheduleReconnect();
  };

  async function connect(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString,
      connectionTimeoutMillis: connectionTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: keepAliveInitialDelayMs,
    });
    // Unheard, an 'error' on an idle client would end the process; here it only means reconnect.
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    client.on('notification', (message) => {
      for (const subscription of channels.get(message.channel) ?? []) subscription.onNotification(message.payload ?? '');
    });
    try {
      await client.connect();
      for (const channel of channels.keys()) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (closed) {
      await client.end();
      throw new Error('The listener was closed while it connected');
    }
    active = client;
    return client;
  }

  function connected(): Promise<pg.Client> {
    connecting ??= connect().catch((error: unknown) => {
      connecting = undefined;
      throw error;
    });
    return connecting;
  }

  function scheduleReconnect(): void {
    if (closed || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      connected().then(
        () => {
          reconnectDelayMs = firstReconnectDelayMs;
          for (const subscriptions of channels.values()) for (const subscription of subscriptions) subscription.onReconnected?.();
        },
        () => {
          reconnectDelayMs = Math.min(reconnectDelayMs * 2, maxReconnectDelayMs);
          scheduleReconnect();
        },
      );
    }, reconnectDelayMs);
    reconnectTimer.unref();
  }

  return {
    async listen(channel, onNotification, onReconnected) {
      assertChannelName(channel);
      if (closed) throw new Error('The listener is closed');
      const subscription: Subscription = { onNotification, onReconnected };
      let subscriptions = channels.get(channel);
      if (!subscriptions) {
        subscriptions = new Set();
        channels.set(channel, subscriptions);
      }
      subscriptions.add(subscription);
      try {
        // LISTEN twice on one connection is harmless: a connection made meanwhile listens already.
        await (await connected()).query(`LISTEN ${channel}`);
      } catch {
        // A database that is away must not stop the server from starting (it answers 503 until
        // the database is back): the subscription stays and is listened for once it reconnects.
        const lostClient = active;
        if (lostClient) lost(lostClient);
        else scheduleReconnect();
      }
      return async () => {
        const current = channels.get(channel);
        if (!current?.delete(subscription) || current.size > 0) return;
        channels.delete(channel);
        await active?.query(`UNLISTEN ${channel}`).catch(() => undefined);
      };
    },
    async close() {
      closed = true;
      clearTimeout(reconnectTimer);
      const client = await connecting?.catch(() => undefined);
      active = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
