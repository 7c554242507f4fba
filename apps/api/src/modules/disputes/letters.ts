import { z } from 'zod';
import type { Queryable } from '../../db/database.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import type { JobRunner } from '../../platform/jobs/job-runner.ts';
import { insertJob } from '../../platform/jobs/job-repository.ts';
import type { Mailer } from '../../platform/messaging/mailer.ts';
import { letterContent } from './letter-pdf.ts';

/**
 * A dispute's letters (Regulation E's written notices): the facts each was written from are kept
 * as they were when it was written, and the PDF is drawn from them on every download
 * (letter-pdf.ts), so a letter never changes. The customer is told by email that a letter is
 * waiting in their dispute; the letter itself is never attached and the email carries no link with
 * a token: they sign in to read it.
 */

export type LetterKind = 'acknowledgement' | 'provisional_credit' | 'result' | 'information_request' | 'reversal_notice';

export interface LetterFacts {
  customerName: string;
  bankName: string;
  /** The bank's date of the letter (YYYY-MM-DD). */
  date: string;
  /** amountCents as a decimal string (bigint); date YYYY-MM-DD. */
  transaction: { description: string; amountCents: string; date: string };
  /** The dispute reason's label (disputeReasonLabels). */
  reason: string;
  receivedOn: string;
  provisionalCreditBy: string;
  resolveBy: string;
  provisionalCreditCents?: string;
  decision?: 'customer' | 'denied';
  /** The decision's explanation, or the question asked (information_request). */
  explanation?: string;
  /** A denial after provisional credit: the business date the credit is taken back. */
  reversalOn?: string;
}

const isoDate = z.iso.date();
const centsText = z.string().regex(/^-?\d+$/, 'cents as a decimal string');

/** The stored facts, checked when a letter is recorded and again when it is drawn. */
export const letterFactsSchema = z.object({
  customerName: z.string().min(1),
  bankName: z.string().min(1),
  date: isoDate,
  transaction: z.object({ description: z.string(), amountCents: centsText, date: isoDate }),
  reason: z.string().min(1),
  receivedOn: isoDate,
  provisionalCreditBy: isoDate,
  resolveBy: isoDate,
  provisionalCreditCents: centsText.optional(),
  decision: z.enum(['customer', 'denied']).optional(),
  explanation: z.string().optional(),
  reversalOn: isoDate.optional(),
});

/** The job that emails "A letter about your dispute"; queued in the letter's own transaction. */
export const disputeLetterMailJobKind = 'disputes.letter_mail';

const letterMailPayloadSchema = z.object({ letterId: z.uuid(), to: z.string(), firstName: z.string() });

/** The letter's id: fixed by the dispute and the kind, one letter of each kind per dispute. */
export function letterId(disputeId: string, kind: LetterKind): string {
  return derivedUuid('dispute-letter', disputeId, kind);
}

/**
 * Records a letter (its facts as they are now, drawn into a PDF on each download) in the caller's
 * transaction, and queues the email telling the customer a letter is in their dispute (no
 * attachment, no link with a token). Idempotent per (dispute, kind): a second call does nothing and
 * returns the first letter's id.
 */
export async function recordLetter(tx: Queryable, input: { disputeId: string; customerId: string; kind: LetterKind; facts: LetterFacts }): Promise<string> {
  const facts = letterFactsSchema.parse(input.facts);
  // What the kind needs (the amount of a credit, a decision's explanation) is there, or the caller learns it now, not at a download.
  letterContent(input.kind, facts);
  const [inserted] = await tx.query<{ id: string }>(
    `INSERT INTO dispute_letters (id, dispute_id, kind, facts)
     VALUES ($1, $2, $3, $4::jsonb)
     ON CONFLICT (dispute_id, kind) DO NOTHING
     RETURNING id`,
    [letterId(input.disputeId, input.kind), input.disputeId, input.kind, JSON.stringify(facts)],
  );
  if (!inserted) {
    const [existing] = await tx.query<{ id: string }>('SELECT id FROM dispute_letters WHERE dispute_id = $1 AND kind = $2', [input.disputeId, input.kind]);
    if (!existing) throw new Error(`dispute ${input.disputeId}: ${input.kind} letter neither inserted nor found`);
    return existing.id;
  }
  const [customer] = await tx.query<{ email: string; first_name: string }>('SELECT email, first_name FROM customers WHERE id = $1', [input.customerId]);
  if (!customer) throw new Error(`dispute ${input.disputeId}: customer ${input.customerId} not found`);
  await insertJob(tx, {
    kind: disputeLetterMailJobKind,
    payload: { letterId: inserted.id, to: customer.email, firstName: customer.first_name },
    maxAttempts: 8,
  });
  return inserted.id;
}

export function disputeLetterMail(mail: z.infer<typeof letterMailPayloadSchema>, bankName: string): { to: string; subject: string; text: string } {
  return {
    to: mail.to,
    subject: 'A letter about your dispute',
    text: [
      `Hello ${mail.firstName},`,
      '',
      'We have written you a letter about a transaction you disputed with us.',
      '',
      'To read it, sign in to online banking and open Disputes, then the dispute: the letter is there to read and download as a PDF. For your security, we never attach letters to emails and never ask you for a password or a code.',
      '',
      bankName,
    ].join('\n'),
  };
}

export function registerDisputeLetterJobs(jobs: JobRunner, dependencies: { mailer: Mailer; bankName: string }): void {
  jobs.register(disputeLetterMailJobKind, async (payload) => {
    await dependencies.mailer.send(disputeLetterMail(letterMailPayloadSchema.parse(payload), dependencies.bankName));
  });
}
