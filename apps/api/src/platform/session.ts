import type { FastifyReply, FastifyRequest } from 'fastify';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { batchedPerDatabase, createBatchedLookup } from '../db/batched-lookup.ts';
import type { Queryable } from '../db/database.ts';
import { randomToken, sha256 } from './crypto.ts';
import { sessionCookieName, sessionCookieNameFor } from './cookie-names.ts';
import { clearCsrfCookie, setCsrfCookie } from './csrf.ts';

/**
 * Sessions (docs/product.md D2, ASVS 7.2-7.4): an opaque 256-bit id from the CSPRNG in an HttpOnly
 * cookie, stored only as its SHA-256 hash, with a 15-minute idle timeout and a 12-hour absolute
 * lifetime, both enforced by the database query that resolves it.
 */
export type SessionRealm = 'customer' | 'staff';

export interface Session {
  realm: SessionRealm;
  subjectId: string;
  createdAt: Date;
  idHash: Buffer;
}

/** Refreshing last_seen_at on every request would write on every read; once a minute is enough. */
const lastSeenResolutionSeconds = 60;

export { sessionCookieName };

export function hashSessionId(sessionId: string): Buffer {
  return sha256(sessionId);
}

export async function createSession(
  db: Queryable,
  input: { realm: SessionRealm; subjectId: string; ip?: string; userAgent?: string },
): Promise<{ sessionId: string }> {
  const sessionId = randomToken();
  await db.query(
    `INSERT INTO sessions (id_hash, realm, subject_id, absolute_expires_at, ip, user_agent)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4::double precision / 1000), $5, $6)`,
    [
      hashSessionId(sessionId),
      input.realm,
      input.subjectId,
      input.realm === 'staff' ? businessConstants.staffSessionAbsoluteTimeoutMs : businessConstants.sessionAbsoluteTimeoutMs,
      input.ip ?? null,
      input.userAgent?.slice(0, 300) ?? null,
    ],
  );
  return { sessionId };
}

/**
 * The live session for this id, or undefined when it is unknown, ended, idle too long or too old.
 * The sessions asked for at the same moment are read in one statement (db/batched-lookup.ts,
 * decision 044): every signed-in request reads its session first.
 */
export function resolveSession(db: Queryable, sessionId: string, realm: SessionRealm): Promise<Session | undefined> {
  return resolveSessionBatched(db, { idHash: hashSessionId(sessionId), realm });
}

interface SessionKey {
  idHash: Buffer;
  realm: SessionRealm;
}

interface LiveSessionRow {
  position: string;
  realm: SessionRealm;
  subject_id: string;
  created_at: Date;
  id_hash: Buffer;
}

/**
 * Reading a session writes only when last_seen_at is over a minute old, not on every request. The
 * rows to touch are locked in id order and skipped when another statement holds one (it is
 * touching it): two statements never wait on each other, and a minute's resolution is kept.
 */
async function readSessions(db: Queryable, keys: readonly SessionKey[]): Promise<(Session | undefined)[]> {
  const rows = await db.query<LiveSessionRow>(
    `WITH live AS (
       SELECT w.position, s.realm, s.subject_id, s.created_at, s.id_hash, s.last_seen_at
         FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS w (id_hash, realm, position)
         JOIN sessions s ON s.id_hash = decode(w.id_hash, 'hex') AND s.realm = w.realm
        WHERE s.ended_at IS NULL
          AND s.absolute_expires_at > now()
          AND s.last_seen_at > now() - make_interval(secs => $3::double precision / 1000)
     ), touched AS (
       UPDATE sessions SET last_seen_at = now()
        WHERE id_hash IN (
          SELECT s.id_hash FROM sessions s
           WHERE s.id_hash IN (SELECT id_hash FROM live WHERE last_seen_at < now() - make_interval(secs => $4))
           ORDER BY s.id_hash
             FOR UPDATE SKIP LOCKED)
       RETURNING 1
     )
     SELECT position::text AS position, realm, subject_id, created_at, id_hash FROM live`,
    [keys.map((key) => key.idHash.toString('hex')), keys.map((key) => key.realm), businessConstants.sessionIdleTimeoutMs, lastSeenResolutionSeconds],
    { name: 'sessions_resolve_many' },
  );
  const byPosition = new Map(rows.map((row) => [Number(row.position), row]));
  return keys.map((_, index) => {
    const row = byPosition.get(index + 1);
    return row && { realm: row.realm, subjectId: row.subject_id, createdAt: row.created_at, idHash: Buffer.from(row.id_hash) };
  });
}

const resolveSessionBatched = batchedPerDatabase<SessionKey, Session | undefined>(
  (db) => createBatchedLookup({ maxBatch: 200, concurrency: 4, run: (keys) => readSessions(db, keys) }),
  async (db, key) => (await readSessions(db, [key]))[0],
);

export async function endSession(db: Queryable, sessionId: string): Promise<void> {
  await db.query('UPDATE sessions SET ended_at = now() WHERE id_hash = $1 AND ended_at IS NULL', [hashSessionId(sessionId)]);
}

/** Ends every session of one subject, except optionally the one in use (after a password change). */
export async function endAllSessions(db: Queryable, realm: SessionRealm, subjectId: string, exceptIdHash?: Buffer): Promise<number> {
  const rows = await db.query(
    `UPDATE sessions SET ended_at = now()
      WHERE realm = $1 AND subject_id = $2 AND ended_at IS NULL AND ($3::bytea IS NULL OR id_hash <> $3::bytea)
      RETURNING 1`,
    [realm, subjectId, exceptIdHash ?? null],
  );
  return rows.length;
}

/** Sets the session cookie (HttpOnly) and the CSRF cookie derived from it (readable by the page, D2). */
export function setSessionCookies(request: FastifyRequest, reply: FastifyReply, sessionId: string, realm: SessionRealm = 'customer'): void {
  const secure = request.protocol === 'https';
  reply.setCookie(sessionCookieNameFor(request, realm), sessionId, { path: '/', httpOnly: true, sameSite: 'lax', secure });
  setCsrfCookie(request, reply, sessionId, realm);
}

export function clearSessionCookies(request: FastifyRequest, reply: FastifyReply, realm: SessionRealm = 'customer'): void {
  const secure = request.protocol === 'https';
  reply.clearCookie(sessionCookieNameFor(request, realm), { path: '/', httpOnly: true, sameSite: 'lax', secure });
  clearCsrfCookie(request, reply, realm);
}

/**
 * Starts a new session for `subjectId`, ending the one this browser had (ASVS 7.2.4: a new id at
 * every sign-in), and sets both cookies.
 */
export async function startSession(db: Queryable, request: FastifyRequest, reply: FastifyReply, realm: SessionRealm, subjectId: string): Promise<void> {
  const previous = request.cookies[sessionCookieNameFor(request, realm)];
  if (previous) await endSession(db, previous);
  const { sessionId } = await createSession(db, { realm, subjectId, ip: request.ip, userAgent: request.headers['user-agent'] });
  setSessionCookies(request, reply, sessionId, realm);
}
