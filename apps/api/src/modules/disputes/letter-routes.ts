import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database, Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { perCustomerRateLimit } from '../../platform/customer-rate-limits.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { AppError } from '../../platform/errors.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import { auditEntryOf, staffActorOf } from '../../platform/request-actor.ts';
import { permit, requireStaff } from '../../platform/staff-auth.ts';
import { letterPdf } from './letter-pdf.ts';
import { letterFactsSchema, type LetterKind } from './letters.ts';

/** A letter is a page or two drawn on each download: generous for a person, a limit for a script. */
export const letterDownloadsPerMinutePerCustomer = 30;

const letterParams = z.object({ id: z.string().max(64), letterId: z.string().max(64) });
const pdfResponse = z.unknown().describe('The letter: application/pdf');

interface StoredLetter {
  id: string;
  kind: LetterKind;
  facts: unknown;
  customer_id: string;
}

/** A letter of a dispute, with the dispute's owner; undefined when either id is malformed or unknown, or the letter is another dispute's. */
async function findLetter(db: Queryable, disputeId: string, letterId: string): Promise<StoredLetter | undefined> {
  if (!isUuid(disputeId) || !isUuid(letterId)) return undefined;
  const [row] = await db.query<StoredLetter>(
    `SELECT l.id, l.kind, l.facts, d.customer_id
       FROM dispute_letters l JOIN disputes d ON d.id = l.dispute_id
      WHERE l.id = $1 AND l.dispute_id = $2`,
    [letterId, disputeId],
  );
  return row;
}

async function renderLetter(letter: StoredLetter): Promise<{ pdf: Buffer; fileName: string }> {
  const facts = letterFactsSchema.parse(letter.facts);
  return { pdf: await letterPdf(letter.kind, facts), fileName: `dispute-letter-${letter.kind.replaceAll('_', '-')}-${facts.date}.pdf` };
}

const notFound = () => new AppError('not_found', 'No such letter');

/**
 * `GET /disputes/{id}/letters/{letterId}`: one of the customer's dispute letters as a PDF (another
 * customer's dispute or letter, or a letter of another dispute, answers 404 as a missing one does).
 */
export function disputeLetterRoutes(db: Database): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, db);
    app.get(
      '/disputes/:id/letters/:letterId',
      {
        config: { rateLimit: perCustomerRateLimit({ max: letterDownloadsPerMinutePerCustomer, timeWindow: '1 minute' }) },
        schema: { tags: ['disputes'], params: letterParams, response: { 200: pdfResponse, ...errorResponses(401, 404, 429) } },
      },
      async (request, reply) => {
        const letter = await findLetter(db, request.params.id, request.params.letterId);
        if (!letter || letter.customer_id !== customerIdOf(request)) throw notFound();
        const { pdf, fileName } = await renderLetter(letter);
        return reply.header('content-type', 'application/pdf').header('content-disposition', `attachment; filename="${fileName}"`).send(pdf);
      },
    );
  };
}

/**
 * `GET /staff/disputes/{id}/letters/{letterId}` (disputes.manage; a role without it answers 403
 * forbidden, audited): the same PDF for the back office, each viewing audited.
 */
export function disputeLetterStaffRoutes(db: Database): FastifyPluginAsyncZod {
  return async (app) => {
    requireStaff(app, db);
    app.get(
      '/staff/disputes/:id/letters/:letterId',
      {
        preValidation: permit(db, 'disputes.manage'),
        schema: { tags: ['staff'], params: letterParams, response: { 200: pdfResponse, ...errorResponses(401, 403, 404) } },
      },
      async (request, reply) => {
        const letter = await findLetter(db, request.params.id, request.params.letterId);
        if (!letter) throw notFound();
        const { pdf, fileName } = await renderLetter(letter);
        await recordAudit(
          db,
          auditEntryOf(staffActorOf(request), {
            action: 'dispute.letter_viewed',
            subject: request.params.id,
            outcome: 'success',
            details: { letterId: letter.id, kind: letter.kind },
          }),
        );
        return reply.header('content-type', 'application/pdf').header('content-disposition', `attachment; filename="${fileName}"`).send(pdf);
      },
    );
  };
}
