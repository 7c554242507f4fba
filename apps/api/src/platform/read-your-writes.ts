import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, type Metric } from 'prom-client';
import type { Database, ReplicaReadOutcome } from '../db/database.ts';
import { isWalPosition, leaseForRead, readOnReplica } from '../db/replica-reads.ts';
import { realmOfRoute, writePositionCookieName } from './cookie-names.ts';

/**
 * Read-your-writes for the reads that may go to a replica (issue 36 item 3, docs/deploy.md "Reads
 * from replicas"). After a customer's request that may have written, the API keeps the primary's
 * WAL position in a cookie; a statement, history page or export is then read on a replica only if
 * it has replayed that position, and on the primary otherwise. Nothing of this runs without
 * READ_DATABASE_URL: no cookie, no extra query.
 *
 * The cookie is not a secret and is not signed: it holds a position in the primary's WAL, which
 * tells nobody anything about anyone. Whoever changes their own only changes where their own reads
 * go: an earlier position reads from a replica that may not show their last write yet, a later
 * one (or nonsense, which is ignored) from the primary.
 */

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const apiPrefix = '/api/v1/';
/**
 * Far past any lag a replica in service has; the cookie only has to outlive the replica's catching
 * up, and a position kept longer costs nothing but the check every replica read makes anyway.
 */
const writePositionMaxAgeSeconds = 24 * 60 * 60;
/**
 * Where the primary's position could not be read after a write (the primary went away meanwhile):
 * no replica ever replays this far, so the customer's reads go to the primary until their next
 * write records a real position. The write may have committed; this never shows them a state before it.
 */
export const unknownWritePosition = 'FFFFFFFF/FFFFFFFF';

/** The position the customer's replica reads must have replayed, from their cookie; undefined when none (or not a position). */
export function writePositionOf(request: FastifyRequest): string | undefined {
  const value = request.cookies[writePositionCookieName(request)];
  return value !== undefined && isWalPosition(value) ? value : undefined;
}

/** A customer's request that may have written: an unsafe method on a customer route of the API, answered below 500. */
function mayHaveWritten(request: FastifyRequest, reply: FastifyReply): boolean {
  const route = request.routeOptions.url;
  return (
    unsafeMethods.has(request.method) && reply.statusCode < 500 && route !== undefined && route.startsWith(apiPrefix) && realmOfRoute(route) === 'customer'
  );
}

/**
 * The cookie plugin, and with replicas (`db.replicaReads`) the hook that records the primary's WAL
 * position after each customer's request that may have written. Taken after the handler finished,
 * so after its commit: every change it made is at or before that position.
 */
export async function registerCookiesAndWritePositions(app: FastifyInstance, db: Database): Promise<void> {
  await app.register(fastifyCookie);
  const replicaReads = db.replicaReads;
  if (!replicaReads) return;
  app.addHook('onSend', async (request, reply, payload) => {
    if (!mayHaveWritten(request, reply)) return payload;
    const position = await replicaReads.primaryPosition().catch(() => unknownWritePosition);
    reply.setCookie(writePositionCookieName(request), position, {
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
      secure: request.protocol === 'https',
      maxAge: writePositionMaxAgeSeconds,
    });
    return payload;
  });
}

/** A route's reads (`work` must only read) on a replica that has the customer's last write, or on the primary (db/replica-reads.ts). */
export function readOnReplicaFor<T>(request: FastifyRequest, db: Database, work: (reader: Database) => Promise<T>): Promise<T> {
  return readOnReplica(db, writePositionOf(request), work);
}

/**
 * For a file streamed after the route returns: `open` runs on a replica that has the customer's
 * last write, or on the primary, and the file's later reads stay on that same connection until the
 * reply has ended (sent, failed or abandoned), so every read of one file sees one server.
 */
export async function openOnReplicaFor<T>(request: FastifyRequest, reply: FastifyReply, db: Database, open: (reader: Database) => Promise<T>): Promise<T> {
  const { value, lease } = await leaseForRead(db, writePositionOf(request), open);
  reply.raw.once('close', () => lease.release());
  return value;
}

/**
 * `openOnReplicaFor` for a route that has just written itself (the data export records itself in
 * the audit log it then exports): the replica must have replayed the primary's position now,
 * after that write, which is also past every earlier write of the customer's.
 */
export async function openAfterOwnWrite<T>(reply: FastifyReply, db: Database, open: (reader: Database) => Promise<T>): Promise<T> {
  const position = db.replicaReads ? await db.replicaReads.primaryPosition().catch(() => unknownWritePosition) : undefined;
  const { value, lease } = await leaseForRead(db, position, open);
  reply.raw.once('close', () => lease.release());
  return value;
}

/**
 * `replica_reads_total{outcome}` for `/metrics` (docs/deploy.md, "What to watch"): reads started on
 * a replica (`replica`), and those the primary answered because the replica was `behind` the
 * customer's last write, `unreachable`, or `failed` during the read. None without replicas.
 */
export function replicaReadMetrics(db: Database): Metric[] {
  const replicaReads = db.replicaReads;
  if (!replicaReads) return [];
  const reported: Record<ReplicaReadOutcome, number> = { replica: 0, behind: 0, unreachable: 0, failed: 0 };
  const outcomes = Object.keys(reported) as ReplicaReadOutcome[];
  const counter = new Counter({
    name: 'replica_reads_total',
    help: 'Reads that may use a replica, by outcome: served by the replica, or by the primary because the replica was behind, unreachable or failed',
    labelNames: ['outcome'],
    registers: [],
    collect() {
      // The counts live with the replica pool (db/replica-reads.ts); each scrape adds what happened since the last.
      for (const outcome of outcomes) {
        this.inc({ outcome }, replicaReads.outcomes[outcome] - reported[outcome]);
        reported[outcome] = replicaReads.outcomes[outcome];
      }
    },
  });
  return [counter];
}
