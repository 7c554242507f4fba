import { securityEventPageSize, type NotMeResponse, type SecurityEvent, type SecurityEventList } from '@strongroom/contracts/security-events.ts';
import { z } from 'zod';
import type { Database, Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import type { JobRunner } from '../../platform/jobs/job-runner.ts';
import { insertJob } from '../../platform/jobs/job-repository.ts';
import { decodeCursor, isBigintId, keysetPage } from '../../platform/keyset-cursor.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import type { Mailer } from '../../platform/messaging/mailer.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { endAllSessions } from '../../platform/session.ts';
import { describeUserAgent } from '../auth/service.ts';
import { freezeOnCustomersSay } from '../customer-care/service.ts';
import { openSecureThread } from '../secure-messages/service.ts';
import { findReport, findSecurityEvent, insertReport, listSecurityEvents, lockCustomerForReport, type SecurityEventRow } from './repository.ts';
import { describeSecurityAction, notMeAction } from './wording.ts';

/**
 * The security timeline and "This wasn't me" (issue 15, item 2; docs/decisions/031).
 */
export interface SecurityEventDependencies {
  db: Database;
  liveEvents: LiveEvents;
}

export const securityEventNotFound = 'No such security event';

/** "a browser on Linux" reads as a label: "A browser on Linux". */
function sentenceCase(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function present(row: SecurityEventRow): SecurityEvent {
  const { kind, title } = describeSecurityAction(row.action, row.outcome);
  return {
    id: row.id,
    action: row.action,
    kind,
    title,
    outcome: row.outcome,
    at: row.occurred_at.toISOString(),
    device: row.user_agent ? sentenceCase(describeUserAgent(row.user_agent)) : null,
    ip: row.ip,
    reported: row.reported,
  };
}

export async function securityEventPage(db: Queryable, customerId: string, cursor: string | undefined): Promise<SecurityEventList> {
  const rows = await listSecurityEvents(db, customerId, decodeCursor(cursor, isBigintId), securityEventPageSize);
  const { page, nextCursor } = keysetPage(rows, securityEventPageSize);
  return { items: page.map(present), nextCursor };
}

/** For the data export (part E): every security event of the customer's, newest first. */
export async function exportSecurityEvents(db: Queryable, customerId: string): Promise<SecurityEvent[]> {
  return (await listSecurityEvents(db, customerId, undefined, null)).map(present);
}

export const notMeMailJobKind = 'security.not_me_mail';
const notMeMailPayloadSchema = z.object({ to: z.string(), firstName: z.string(), eventTitle: z.string(), at: z.string() });

/** "2026-11-24 09:30 UTC": an ISO time to the minute, for messages and mail. */
function utcText(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

function supportMessage(event: SecurityEvent): { subject: string; text: string } {
  return {
    subject: `This wasn't me: ${event.title}`.slice(0, 150),
    text: [
      `I did not do this: ${event.title}.`,
      '',
      `When: ${utcText(event.at)}`,
      `Device: ${event.device ?? 'not recorded'}`,
      `Address: ${event.ip ?? 'not recorded'}`,
      `Event reference: ${event.id} (${event.action})`,
      '',
      'Sent with the "This wasn\'t me" button: every session of mine was ended and money movement on my account is frozen until you lift it.',
    ].join('\n'),
  };
}

/**
 * "This wasn't me": in one transaction, a secure message to support with the event attached, the
 * customer's own freeze (kept if one is already open), every session ended (this one too) and an
 * audit row; an email to the customer is queued with it. The same event reported again answers
 * the first report and changes nothing (a double click does no harm).
 */
export async function reportNotMe(dependencies: SecurityEventDependencies, actor: CustomerActor, eventId: string): Promise<NotMeResponse['report']> {
  const { db } = dependencies;
  const { customerId } = actor;
  const report = await db.transaction(async (tx) => {
    const customer = await lockCustomerForReport(tx, customerId);
    const row = customer && isBigintId(eventId) ? await findSecurityEvent(tx, customerId, eventId) : undefined;
    if (!customer || !row) throw new AppError('not_found', securityEventNotFound);
    if (row.action === notMeAction) throw new AppError('conflict', 'This is your own report: it needs no other.');
    const earlier = await findReport(tx, customerId, row.id);
    if (earlier) return { threadId: earlier.thread_id, frozen: true as const, sessionsEnded: 0, alreadyReported: true };
    const event = present(row);
    const threadId = await openSecureThread(tx, actor, { ...supportMessage(event), reportedEventId: row.id });
    await insertReport(tx, { customerId, eventId: row.id, threadId });
    const frozeNow = await freezeOnCustomersSay(
      tx,
      customerId,
      `"This wasn't me" reported by the account holder about: ${event.title}, ${utcText(event.at)} (event ${row.id}).`.slice(0, 500),
    );
    const sessionsEnded = await endAllSessions(tx, 'customer', customerId);
    await insertJob(tx, {
      kind: notMeMailJobKind,
      payload: { to: customer.email, firstName: customer.first_name, eventTitle: event.title, at: event.at },
      maxAttempts: 8,
    });
    await recordAudit(
      tx,
      auditEntryOf(actor, {
        action: notMeAction,
        subject: row.id,
        outcome: 'success',
        details: { threadId, reportedAction: row.action, frozeNow, sessionsEnded },
      }),
    );
    return { threadId, frozen: true as const, sessionsEnded, alreadyReported: false };
  });
  if (!report.alreadyReported) dependencies.liveEvents.publish(customerId, 'notifications');
  return report;
}

export function registerSecurityEventJobs(jobs: JobRunner, dependencies: { mailer: Mailer; bankName: string }): void {
  jobs.register(notMeMailJobKind, async (payload) => {
    const mail = notMeMailPayloadSchema.parse(payload);
    await dependencies.mailer.send({
      to: mail.to,
      subject: 'We froze your account at your request',
      text: [
        `Hello ${mail.firstName},`,
        '',
        `You told us that this was not you: ${mail.eventTitle} (${utcText(mail.at)}).`,
        '',
        'What we did at once:',
        '- every device signed in to your account was signed out, yours too;',
        '- no money can move from your account until our team lifts the freeze (you can still sign in and see everything);',
        '- your report reached our support team as a secure message: we will answer it there within 24 hours.',
        '',
        'If someone may know your password, change it after you sign in again. We will never ask you for a password, a code, or a fee to release your money.',
        '',
        dependencies.bankName,
      ].join('\n'),
    });
  });
}
