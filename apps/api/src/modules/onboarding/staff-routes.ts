import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '@strongroom/contracts/errors.ts';
import {
  identityDecisionRequestSchema,
  identityReviewListQuerySchema,
  identityReviewListSchema,
  identityReviewResponseSchema,
  revealIdNumberRequestSchema,
  revealIdNumberResponseSchema,
  type IdentityReview,
  type IdentityReviewResponse,
} from '@strongroom/contracts/staff-identity.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { decrypt } from '../../platform/crypto.ts';
import { AppError } from '../../platform/errors.ts';
import { decodeCursor, encodeCursor } from '../../platform/keyset-cursor.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import type { Mailer } from '../../platform/messaging/mailer.ts';
import { idParams, isUuid } from '../../platform/path-parameters.ts';
import { permit, requireStaff, staffAudit, staffOf } from '../../platform/staff-auth.ts';
import type { FileStorage } from '../../platform/storage.ts';
import { sendStoredImage } from '../../platform/uploads.ts';
import { duplicatesOf, referralBonusOf } from '../referrals/service.ts';
import { decideIdentity } from './identity-review.ts';
import {
  findIdentityReview,
  findIdNumberEncrypted,
  findStoredFile,
  identityQueuePageSize,
  listIdentityReviews,
  type IdentityReviewRow,
} from './identity-reviews-repository.ts';

export interface IdentityStaffDependencies {
  db: Database;
  storage: FileStorage;
  mailer: Mailer;
  liveEvents: LiveEvents;
  config: Pick<Config, 'bankName' | 'secrets'>;
}

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };

function presentReview(row: IdentityReviewRow): IdentityReview {
  return {
    id: row.id,
    customerId: row.customer_id,
    name: `${row.first_name} ${row.last_name}`,
    email: row.email,
    country: row.country,
    state: row.state,
    address: row.address,
    city: row.city,
    zipCode: row.zip_code,
    dateOfBirth: row.date_of_birth,
    idType: row.id_type,
    idNumberLast4: row.id_number_last4,
    status: row.status,
    reason: row.reason,
    submittedAt: row.submitted_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
    decidedBy: row.decided_by,
    hasDocument: row.document_file_id !== null,
    hasProfilePhoto: row.profile_photo_file_id !== null,
  };
}

/**
 * The identity queue (issue 12, `identity.decide`): the list, one review (with the customers who
 * share its phone, ID number or browser, and its referral bonus), its document and the customer's
 * photo (never cached), the audited reveal of the ID number, and the decision.
 */
export function identityStaffRoutes(dependencies: IdentityStaffDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  const reviewOf = async (id: string) => {
    const review = isUuid(id) ? await findIdentityReview(db, id) : undefined;
    if (!review) throw new AppError('not_found', 'No such identity review');
    return review;
  };

  /** The facts for the decision on one screen: the review, who else shares this identity, and the referral bonus it would pay. */
  const reviewDetail = async (row: IdentityReviewRow): Promise<IdentityReviewResponse> => {
    const [duplicates, referralBonus] = await Promise.all([duplicatesOf(db, row.customer_id), referralBonusOf(db, row.customer_id)]);
    return { review: presentReview(row), duplicates, referralBonus };
  };

  const sendImage = async (request: FastifyRequest, reply: FastifyReply, reviewId: string, fileId: string | null, what: 'document' | 'profile_photo') => {
    const file = fileId ? await findStoredFile(db, fileId) : undefined;
    if (!file) throw new AppError('not_found', what === 'document' ? 'This review has no document' : 'This customer has no profile photo');
    const bytes = await dependencies.storage.get(file.storage_key);
    await recordAudit(db, staffAudit(request, { action: `identity.${what}_viewed`, subject: reviewId, outcome: 'success' }));
    reply.header('cache-control', 'no-store');
    return sendStoredImage(reply, { bytes, contentType: file.content_type, fileName: `${what}.${file.content_type === 'image/png' ? 'png' : 'jpg'}` });
  };

  return async (app) => {
    requireStaff(app, db);
    const guarded = { preValidation: permit(db, 'identity.decide') };

    app.get(
      '/staff/identity-reviews',
      { ...guarded, schema: { tags: ['staff'], querystring: identityReviewListQuerySchema, response: { 200: identityReviewListSchema, ...errors } } },
      async (request) => {
        const { rows, total } = await listIdentityReviews(db, request.query.status, decodeCursor(request.query.cursor));
        const page = rows.slice(0, identityQueuePageSize);
        const last = page.at(-1);
        return {
          items: page.map(presentReview),
          nextCursor: rows.length > identityQueuePageSize && last ? encodeCursor({ at: last.sort_text, id: last.id }) : null,
          total,
        };
      },
    );

    app.get(
      '/staff/identity-reviews/:id',
      { ...guarded, schema: { tags: ['staff'], params: idParams, response: { 200: identityReviewResponseSchema, ...errors } } },
      async (request) => reviewDetail(await reviewOf(request.params.id)),
    );

    const image = { 200: z.unknown().describe('The image (image/png or image/jpeg)'), ...errors };
    app.get('/staff/identity-reviews/:id/document', { ...guarded, schema: { tags: ['staff'], params: idParams, response: image } }, async (request, reply) => {
      const review = await reviewOf(request.params.id);
      return sendImage(request, reply, review.id, review.document_file_id, 'document');
    });

    app.get(
      '/staff/identity-reviews/:id/profile-photo',
      { ...guarded, schema: { tags: ['staff'], params: idParams, response: image } },
      async (request, reply) => {
        const review = await reviewOf(request.params.id);
        return sendImage(request, reply, review.id, review.profile_photo_file_id, 'profile_photo');
      },
    );

    app.post(
      '/staff/identity-reviews/:id/id-number',
      {
        ...guarded,
        schema: { tags: ['staff'], params: idParams, body: revealIdNumberRequestSchema, response: { 200: revealIdNumberResponseSchema, ...errors } },
      },
      async (request, reply) => {
        const encrypted = isUuid(request.params.id) ? await findIdNumberEncrypted(db, request.params.id) : undefined;
        if (!encrypted) throw new AppError('not_found', 'No such identity review');
        const idNumber = decrypt(dependencies.config.secrets.encryptionKey, encrypted).toString('utf8');
        await recordAudit(
          db,
          staffAudit(request, {
            action: 'identity.id_number_revealed',
            subject: request.params.id,
            outcome: 'success',
            details: { reason: request.body.reason },
          }),
        );
        reply.header('cache-control', 'no-store');
        return { idNumber };
      },
    );

    app.post(
      '/staff/identity-reviews/:id/decision',
      {
        ...guarded,
        schema: { tags: ['staff'], params: idParams, body: identityDecisionRequestSchema, response: { 200: identityReviewResponseSchema, ...errors } },
      },
      async (request) => {
        const review = await reviewOf(request.params.id);
        const outcome = await decideIdentity(
          { db, mailer: dependencies.mailer, bankName: dependencies.config.bankName, liveEvents: dependencies.liveEvents },
          {
            reviewId: review.id,
            decision: request.body.decision === 'approve' ? 'approved' : 'rejected',
            reason: request.body.reason,
            decidedBy: staffOf(request).id,
            request: { ip: request.ip, userAgent: request.headers['user-agent'], requestId: request.id },
          },
        );
        if (outcome === 'already_decided') throw new AppError('already_decided', 'This review was already decided');
        return reviewDetail(await reviewOf(review.id));
      },
    );
  };
}
