import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createDisputeRequestSchema,
  disputeDetailSchema,
  disputeEvidenceSchema,
  disputeInformationRequestSchema,
  disputeListSchema,
  disputeResponseSchema,
  maxDisputeEvidenceBytes,
} from '@strongroom/contracts/disputes.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { perCustomerRateLimit } from '../../platform/customer-rate-limits.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { customerActorOf } from '../../platform/request-actor.ts';
import { readImageForm } from '../../platform/uploads.ts';
import { addEvidence, customerEvidenceFile, evidenceField, sendEvidence } from './evidence.ts';
import { createDispute, disputeDetail, giveInformation, listDisputes, withdrawDispute, type DisputeDependencies } from './service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 422, 429);
const evidenceParams = z.object({ id: z.string(), evidenceId: z.string() });

/** A customer's disputes (PRODUCT.md section 7 "Disputes"; docs/disputes.md). */
export function disputeRoutes(dependencies: DisputeDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireCustomer(app, db);
    const tags = ['disputes'];
    // A report writes a case, a letter and an email: a person reports a handful, never hundreds.
    const reportRateLimit = perCustomerRateLimit({ max: 20, timeWindow: '1 hour' });

    app.post(
      '/disputes',
      { config: { rateLimit: reportRateLimit }, schema: { tags, body: createDisputeRequestSchema, response: { 201: disputeResponseSchema, ...errors } } },
      async (request, reply) => reply.code(201).send({ dispute: await createDispute(dependencies, customerActorOf(request), request.body) }),
    );

    app.get('/disputes', { schema: { tags, response: { 200: disputeListSchema, ...errors } } }, async (request) => ({
      items: await listDisputes(dependencies, customerIdOf(request)),
    }));

    app.get('/disputes/:id', { schema: { tags, params: idParams, response: { 200: disputeDetailSchema, ...errors } } }, async (request) =>
      disputeDetail(dependencies, customerIdOf(request), request.params.id),
    );

    app.post('/disputes/:id/withdraw', { schema: { tags, params: idParams, response: { 200: disputeResponseSchema, ...errors } } }, async (request) => ({
      dispute: await withdrawDispute(dependencies, customerActorOf(request), request.params.id),
    }));

    app.post(
      '/disputes/:id/information',
      { schema: { tags, params: idParams, body: disputeInformationRequestSchema, response: { 200: disputeDetailSchema, ...errors } } },
      async (request) => giveInformation(dependencies, customerActorOf(request), request.params.id, request.body.text),
    );

    app.post(
      '/disputes/:id/evidence',
      {
        config: { rateLimit: perCustomerRateLimit({ max: 30, timeWindow: '1 hour' }) },
        schema: {
          tags,
          description: `multipart/form-data: ${evidenceField} (PNG, JPEG or PDF, at most ${maxDisputeEvidenceBytes / (1024 * 1024)} MB)`,
          params: idParams,
          response: { 201: z.object({ evidence: disputeEvidenceSchema }), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429) },
        },
      },
      async (request, reply) => {
        const evidence = await addEvidence(dependencies, customerActorOf(request), request.params.id, async () => (await readImageForm(request)).image);
        return reply.code(201).send({ evidence });
      },
    );

    app.get(
      '/disputes/:id/evidence/:evidenceId',
      {
        schema: {
          tags,
          params: evidenceParams,
          response: { 200: z.unknown().describe('The file (image/png, image/jpeg or application/pdf), as an attachment'), ...errorResponses(401, 404) },
        },
      },
      async (request, reply) =>
        sendEvidence(reply, await customerEvidenceFile(dependencies, customerIdOf(request), request.params.id, request.params.evidenceId)),
    );
  };
}
