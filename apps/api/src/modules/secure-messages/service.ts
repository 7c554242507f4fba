import {
  secureMessagePageSize,
  type NewSecureMessageRequest,
  type SecureMessageList,
  type SecureMessageThread,
  type SecureMessageThreadSummary,
} from '@strongroom/contracts/secure-messages.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { decodeCursor, keysetPage } from '../../platform/keyset-cursor.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { allThreads, entriesOf, findThread, insertPost, insertStaffReply, insertThread, listThreads, type EntryRow, type ThreadRow } from './repository.ts';

/**
 * Secure messages (issue 15, item 4): a customer's threads with support. The customer writes
 * posts; staff answer from the back office's messages queue (modules/contact staff-routes calls
 * `answerThread`), and each answer becomes a notification that reaches open pages live.
 */
export const previewLength = 120;
export const threadNotFound = 'No such message';

function summaryOf(row: ThreadRow, entries: readonly EntryRow[]): SecureMessageThreadSummary {
  const own = entries.filter((entry) => entry.thread_id === row.id);
  const newest = own.at(-1);
  return {
    id: row.id,
    subject: row.subject,
    status: row.answered_at ? 'answered' : 'waiting',
    createdAt: row.created_at.toISOString(),
    lastActivityAt: row.last_activity_at.toISOString(),
    preview: (newest?.text ?? '').slice(0, previewLength),
    messageCount: Math.max(own.length, 1),
    reportedEventId: row.reported_event_id,
  };
}

function threadOf(row: ThreadRow, entries: readonly EntryRow[]): SecureMessageThread {
  return {
    ...summaryOf(row, entries),
    entries: entries
      .filter((entry) => entry.thread_id === row.id)
      .map((entry) => ({ id: entry.id, author: entry.author === 'staff' ? 'bank' : 'customer', text: entry.text, createdAt: entry.created_at.toISOString() })),
  };
}

export async function listSecureMessages(db: Queryable, customerId: string, cursor: string | undefined): Promise<SecureMessageList> {
  const rows = await listThreads(db, customerId, decodeCursor(cursor), secureMessagePageSize);
  const { page, nextCursor } = keysetPage(rows, secureMessagePageSize);
  const entries = await entriesOf(
    db,
    page.map((row) => row.id),
  );
  return { items: page.map((row) => summaryOf(row, entries)), nextCursor };
}

/** One thread of this customer's; anyone else's, or a malformed id, is 404 like a missing one. */
export async function secureMessageThread(db: Queryable, customerId: string, threadId: string): Promise<SecureMessageThread> {
  const row = isUuid(threadId) ? await findThread(db, threadId, customerId) : undefined;
  if (!row) throw new AppError('not_found', threadNotFound);
  return threadOf(row, await entriesOf(db, [row.id]));
}

/**
 * Opens a thread inside the caller's transaction (a "This wasn't me" report opens one beside the
 * freeze) and audits it; returns its id.
 */
export async function openSecureThread(
  tx: Queryable,
  actor: CustomerActor,
  message: NewSecureMessageRequest & { reportedEventId?: string | null },
): Promise<string> {
  const threadId = await insertThread(tx, {
    customerId: actor.customerId,
    subject: message.subject,
    text: message.text,
    reportedEventId: message.reportedEventId ?? null,
  });
  await recordAudit(
    tx,
    auditEntryOf(actor, {
      action: 'secure_message.sent',
      subject: threadId,
      outcome: 'success',
      details: { length: message.text.length, report: Boolean(message.reportedEventId) },
    }),
  );
  return threadId;
}

export async function sendSecureMessage(db: Database, actor: CustomerActor, message: NewSecureMessageRequest): Promise<SecureMessageThread> {
  const threadId = await db.transaction((tx) => openSecureThread(tx, actor, message));
  return secureMessageThread(db, actor.customerId, threadId);
}

export async function addFollowUp(db: Database, actor: CustomerActor, threadId: string, text: string): Promise<SecureMessageThread> {
  const found = await db.transaction(async (tx) => {
    const row = isUuid(threadId) ? await findThread(tx, threadId, actor.customerId, { forUpdate: true }) : undefined;
    if (!row) return false;
    await insertPost(tx, row.id, text);
    await recordAudit(tx, auditEntryOf(actor, { action: 'secure_message.follow_up', subject: row.id, outcome: 'success', details: { length: text.length } }));
    return true;
  });
  if (!found) throw new AppError('not_found', threadNotFound);
  return secureMessageThread(db, actor.customerId, threadId);
}

/** For the data export (part E): every thread of the customer's, each with both sides. */
export async function exportSecureMessages(db: Queryable, customerId: string): Promise<SecureMessageThread[]> {
  const rows = await allThreads(db, customerId);
  const entries = await entriesOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => threadOf(row, entries));
}

/** For the staff queue: a secure thread by id, whoever's (undefined when there is none). */
export async function findSecureThreadForStaff(db: Queryable, threadId: string, options: { forUpdate?: boolean } = {}): Promise<ThreadRow | undefined> {
  return isUuid(threadId) ? findThread(db, threadId, null, options) : undefined;
}

/** For the staff queue: both sides of these threads, oldest first. */
export async function secureThreadEntries(db: Queryable, threadIds: readonly string[]): Promise<EntryRow[]> {
  return entriesOf(db, threadIds);
}

export interface ThreadAnswer {
  replyId: string;
  customerId: string;
  followUp: boolean;
}

/**
 * A staff answer inside the caller's transaction: stored, the thread answered, and the customer
 * notified (publish 'notifications' after commit: `publishAnswer`).
 */
export async function answerThread(tx: Queryable, thread: ThreadRow, staffId: string, text: string): Promise<ThreadAnswer> {
  const replyId = await insertStaffReply(tx, { threadId: thread.id, staffId, text });
  await notifyCustomer(tx, {
    customerId: thread.customer_id,
    kind: 'secure_message',
    name: 'Support answered your message',
    text: `New answer to "${thread.subject}". Open it in your secure messages.`,
    link: `/messages/${thread.id}`,
  });
  return { replyId, customerId: thread.customer_id, followUp: thread.answered_at !== null };
}

export function publishAnswer(liveEvents: LiveEvents, answer: ThreadAnswer): void {
  liveEvents.publish(answer.customerId, 'notifications');
}

export type { EntryRow as SecureThreadEntryRow, ThreadRow as SecureThreadRow };
