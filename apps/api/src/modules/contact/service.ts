import { z } from 'zod';
import type { ContactMessageRequest } from '@strongroom/contracts/contact.ts';
import type { Database } from '../../db/database.ts';
import type { JobRunner } from '../../platform/jobs/job-runner.ts';
import { insertJob } from '../../platform/jobs/job-repository.ts';
import type { Mailer } from '../../platform/messaging/mailer.ts';
import { findContactMessage, insertContactMessage } from './repository.ts';

export const acknowledgeJobKind = 'contact.acknowledge';
const acknowledgePayloadSchema = z.object({ contactMessageId: z.uuid() });

/**
 * Stores the message and queues its acknowledgement in one transaction: the message is never lost,
 * and the email is retried by the job queue if the mail server is down.
 */
export async function submitContactMessage(db: Database, message: ContactMessageRequest, ip: string): Promise<string> {
  return db.transaction(async (tx) => {
    const id = await insertContactMessage(tx, message, ip);
    await insertJob(tx, { kind: acknowledgeJobKind, payload: { contactMessageId: id }, maxAttempts: 8 });
    return id;
  });
}

export function registerContactJobs(jobs: JobRunner, dependencies: { db: Database; mailer: Mailer; bankName: string }): void {
  jobs.register(acknowledgeJobKind, async (payload) => {
    const { contactMessageId } = acknowledgePayloadSchema.parse(payload);
    const message = await findContactMessage(dependencies.db, contactMessageId);
    if (!message) return;
    await dependencies.mailer.send({
      to: message.email,
      subject: `We received your message: ${message.subject}`,
      text: [
        `Hello ${message.name},`,
        '',
        `Thank you for writing to ${dependencies.bankName}. Your message "${message.subject}" reached us and a member of our team will reply within 24 hours.`,
        '',
        'We will never ask you for a password, a code, or a fee to release your money.',
        '',
        dependencies.bankName,
      ].join('\n'),
    });
  });
}
