import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  disputeDecisionRequestSchema,
  disputeInformationAskSchema,
  disputeStaffActionSchema,
  staffDisputeDetailSchema,
  staffDisputeListQuerySchema,
  staffDisputeListSchema,
  staffDisputeResponseSchema,
} from '@strongroom/contracts/disputes.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { staffActorOf } from '../../platform/request-actor.ts';
import { permit, requireStaff } from '../../platform/staff-auth.ts';
import { sendEvidence } from './evidence.ts';
import { approveDecision, decideDispute } from './staff-decisions.ts';
import {
  grantProvisionalCredit,
  investigate,
  requestInformation,
  staffDisputeDetail,
  staffDisputeQueue,
  viewEvidence,
  type StaffDisputeDependencies,
} from './staff-service.ts';

const errors = errorResponses(400, 401, 403, 404, 409);
const evidenceParams = z.object({ id: z.string().max(64), evidenceId: z.string().max(64) });

/** The back office's disputes (`disputes.manage`: operations, admin), issue 34 item 3. */
export function disputeStaffRoutes(dependencies: StaffDisputeDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireStaff(app, db);
    const manage = { preValidation: permit(db, 'disputes.manage') };
    const tags = ['staff'];

    app.get(
      '/staff/disputes',
      { ...manage, schema: { tags, querystring: staffDisputeListQuerySchema, response: { 200: staffDisputeListSchema, ...errors } } },
      async (request) => ({
        items: await staffDisputeQueue(dependencies, request.query.status),
      }),
    );

    app.get('/staff/disputes/:id', { ...manage, schema: { tags, params: idParams, response: { 200: staffDisputeDetailSchema, ...errors } } }, async (request) =>
      staffDisputeDetail(dependencies, request.params.id),
    );

    const evidenceFileResponse = z.unknown().describe('The file (image/png, image/jpeg or application/pdf), as an attachment; the viewing is audited');
    app.get(
      '/staff/disputes/:id/evidence/:evidenceId',
      { ...manage, schema: { tags, params: evidenceParams, response: { 200: evidenceFileResponse, ...errors } } },
      async (request, reply) => sendEvidence(reply, await viewEvidence(dependencies, staffActorOf(request), request.params.id, request.params.evidenceId)),
    );

    const action = { ...manage, schema: { tags, params: idParams, body: disputeStaffActionSchema, response: { 200: staffDisputeResponseSchema, ...errors } } };

    app.post('/staff/disputes/:id/investigate', action, async (request) =>
      investigate(dependencies, staffActorOf(request), request.params.id, request.body.reason),
    );

    app.post('/staff/disputes/:id/provisional-credit', action, async (request) =>
      grantProvisionalCredit(dependencies, staffActorOf(request), request.params.id, request.body.reason),
    );

    app.post(
      '/staff/disputes/:id/request-information',
      { ...manage, schema: { tags, params: idParams, body: disputeInformationAskSchema, response: { 200: staffDisputeResponseSchema, ...errors } } },
      async (request) => requestInformation(dependencies, staffActorOf(request), request.params.id, request.body.question, request.body.reason),
    );

    app.post(
      '/staff/disputes/:id/decision',
      {
        ...manage,
        schema: {
          tags,
          params: idParams,
          body: disputeDecisionRequestSchema,
          response: { 200: staffDisputeResponseSchema, 202: staffDisputeResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const answer = await decideDispute(dependencies, staffActorOf(request), request.params.id, request.body);
        return reply.status(answer.awaitingApproval ? 202 : 200).send(answer);
      },
    );

    app.post('/staff/disputes/:id/decision/approve', action, async (request) =>
      approveDecision(dependencies, staffActorOf(request), request.params.id, request.body.reason),
    );
  };
}
