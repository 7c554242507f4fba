import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  identityDecisionRequestSchema,
  identityReviewListQuerySchema,
  identityReviewListSchema,
  identityReviewResponseSchema,
  revealIdNumberRequestSchema,
  revealIdNumberResponseSchema,
} from '@strongroom/contracts/staff-identity.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { staffActorOf } from '../../platform/request-actor.ts';
import { permit, requireStaff } from '../../platform/staff-auth.ts';
import { sendStoredImage } from '../../platform/uploads.ts';
import {
  decideIdentityReviewAsStaff,
  identityReviewDetail,
  identityReviewImage,
  identityReviewPage,
  revealIdNumber,
  type IdentityStaffDependencies,
} from './identity-staff-service.ts';

const errors = errorResponses(400, 401, 403, 404, 409);

/**
 * The identity queue (issue 12, `identity.decide`): the list, one review (with the customers who
 * share its phone, ID number or browser, and its referral bonus), its document and the customer's
 * photo (never cached), the audited reveal of the ID number, and the decision.
 */
export function identityStaffRoutes(dependencies: IdentityStaffDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireStaff(app, db);
    const guarded = { preValidation: permit(db, 'identity.decide') };

    app.get(
      '/staff/identity-reviews',
      { ...guarded, schema: { tags: ['staff'], querystring: identityReviewListQuerySchema, response: { 200: identityReviewListSchema, ...errors } } },
      async (request) => identityReviewPage(db, request.query.status, request.query.cursor),
    );

    app.get(
      '/staff/identity-reviews/:id',
      { ...guarded, schema: { tags: ['staff'], params: idParams, response: { 200: identityReviewResponseSchema, ...errors } } },
      async (request) => identityReviewDetail(db, request.params.id),
    );

    const image = { 200: z.unknown().describe('The image (image/png or image/jpeg)'), ...errors };
    app.get('/staff/identity-reviews/:id/document', { ...guarded, schema: { tags: ['staff'], params: idParams, response: image } }, async (request, reply) => {
      const stored = await identityReviewImage(dependencies, staffActorOf(request), request.params.id, 'document');
      reply.header('cache-control', 'no-store');
      return sendStoredImage(reply, stored);
    });

    app.get(
      '/staff/identity-reviews/:id/profile-photo',
      { ...guarded, schema: { tags: ['staff'], params: idParams, response: image } },
      async (request, reply) => {
        const stored = await identityReviewImage(dependencies, staffActorOf(request), request.params.id, 'profile_photo');
        reply.header('cache-control', 'no-store');
        return sendStoredImage(reply, stored);
      },
    );

    app.post(
      '/staff/identity-reviews/:id/id-number',
      {
        ...guarded,
        schema: { tags: ['staff'], params: idParams, body: revealIdNumberRequestSchema, response: { 200: revealIdNumberResponseSchema, ...errors } },
      },
      async (request, reply) => {
        const idNumber = await revealIdNumber(dependencies, staffActorOf(request), request.params.id, request.body.reason);
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
      async (request) => decideIdentityReviewAsStaff(dependencies, staffActorOf(request), request.params.id, request.body),
    );
  };
}
