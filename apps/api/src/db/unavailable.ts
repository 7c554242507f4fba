/**
 * The database is away (stopped, restarting, unreachable), as opposed to a query that is wrong.
 * The API answers these 503 `service_unavailable` instead of 500 (platform/errors.ts), and the
 * pool reconnects by itself on the next request once PostgreSQL is back. See
 * docs/decisions/036-bank-under-faults.md.
 */

/** Socket-level failures reaching or keeping a connection. */
const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs of a server that is going away or not yet back: admin_shutdown, crash_shutdown,
 * cannot_connect_now, too_many_connections; class 08 is every connection exception. And
 * read_only_sql_transaction: a write that reached a node which is no longer the primary (a
 * connection opened just before a failover or switchover demoted it). The write did nothing; the
 * next connection through HAProxy reaches the new primary (docs/deploy.md, "The bank through a
 * failover").
 */
const serverStates = new Set(['57P01', '57P02', '57P03', '53300', '25006']);

/** node-postgres's own words for a connection that died or never came (no code on these). */
const driverMessages = [
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 4 || error === null || typeof error !== 'object') return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && (networkCodes.has(code) || serverStates.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (typeof message === 'string' && driverMessages.some((words) => message.startsWith(words))) return true;
  // Node's happy-eyeballs connect gives an AggregateError of one failure per address.
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return cause !== undefined && isDatabaseUnavailable(cause, depth + 1);
}
