import { z } from 'zod';
import type { Queryable } from '../../db/database.ts';
import type { JobRunner } from '../../platform/jobs/job-runner.ts';
import { insertJob } from '../../platform/jobs/job-repository.ts';
import type { Mailer } from '../../platform/messaging/mailer.ts';
import { notifyCustomer } from '../../platform/notify.ts';

/** The job that emails "Your statement is ready"; queued in the statement's own transaction. */
export const statementReadyMailJobKind = 'statements.ready_mail';

const statementReadyMailPayloadSchema = z.object({
  statementId: z.uuid(),
  to: z.string(),
  firstName: z.string(),
  accountName: z.string(),
  periodStart: z.iso.date(),
  periodEnd: z.iso.date(),
});

export interface ReadyStatement {
  statementId: string;
  customerId: string;
  accountId: string;
  accountName: string;
  /** ISO dates (YYYY-MM-DD), the first and the last day of the period. */
  periodStart: string;
  periodEnd: string;
}

const monthYear = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const longDay = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** "November 2026", from the period's last day (a statement cycle is a calendar month). */
export function statementMonthText(periodEnd: string): string {
  return monthYear.format(new Date(`${periodEnd}T00:00:00Z`));
}

/** History, at its monthly statements, with the statement's account chosen. */
export function statementLink(accountId: string): string {
  return `/transaction-history?statementAccount=${encodeURIComponent(accountId)}#monthly-statements-title`;
}

function dayText(day: string): string {
  return longDay.format(new Date(`${day}T00:00:00Z`));
}

/**
 * Tells the customer a monthly statement is ready: a notification and an email, both written in
 * the caller's transaction (the one that writes the monthly_statements row), so a statement never
 * goes untold and a rolled-back statement is never announced. The email is a job (retried if the
 * mail server is down), as the bank's other notices are. A periodic statement is a required
 * disclosure (Regulation DD), not marketing: the newsletter preference does not silence it.
 */
export async function notifyStatementReady(tx: Queryable, statement: ReadyStatement): Promise<void> {
  const month = statementMonthText(statement.periodEnd);
  await notifyCustomer(tx, {
    customerId: statement.customerId,
    kind: 'statement',
    name: 'Your statement is ready',
    text: `Your ${month} statement for ${statement.accountName} (${dayText(statement.periodStart)} to ${dayText(statement.periodEnd)}) is ready to download in History.`,
    link: statementLink(statement.accountId),
  });
  const [customer] = await tx.query<{ email: string; first_name: string }>('SELECT email, first_name FROM customers WHERE id = $1', [statement.customerId]);
  if (!customer) throw new Error(`statement ${statement.statementId}: customer ${statement.customerId} not found`);
  await insertJob(tx, {
    kind: statementReadyMailJobKind,
    payload: {
      statementId: statement.statementId,
      to: customer.email,
      firstName: customer.first_name,
      accountName: statement.accountName,
      periodStart: statement.periodStart,
      periodEnd: statement.periodEnd,
    },
    maxAttempts: 8,
  });
}

export function statementReadyMail(mail: z.infer<typeof statementReadyMailPayloadSchema>, bankName: string): { to: string; subject: string; text: string } {
  return {
    to: mail.to,
    subject: 'Your statement is ready',
    text: [
      `Hello ${mail.firstName},`,
      '',
      `Your ${statementMonthText(mail.periodEnd)} statement for ${mail.accountName} is ready. It covers ${dayText(mail.periodStart)} to ${dayText(mail.periodEnd)}.`,
      '',
      'Sign in and open History to download it as a PDF, CSV or OFX file. For your security, we never attach statements to emails and never ask you for a password or a code.',
      '',
      bankName,
    ].join('\n'),
  };
}

export function registerStatementNoticeJobs(jobs: JobRunner, dependencies: { mailer: Mailer; bankName: string }): void {
  jobs.register(statementReadyMailJobKind, async (payload) => {
    await dependencies.mailer.send(statementReadyMail(statementReadyMailPayloadSchema.parse(payload), dependencies.bankName));
  });
}
