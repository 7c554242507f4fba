import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { referralBonusDecisionRequestSchema, referralBonusResponseSchema } from '@strongroom/contracts/staff-identity.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { staffActorOf } from '../../platform/request-actor.ts';
import { permit, requireStaff } from '../../platform/staff-auth.ts';
import { decideHeldBonus } from './held-bonuses.ts';
import type { ReferralDependencies } from './settlement.ts';

const errors = errorResponses(400, 401, 403, 404, 409);

/**
 * A held referral bonus, paid or refused by the staff who decide identities (`identity.decide`):
 * they see it, and who shares what with whom, in the identity review of the referred customer.
 */
export function referralStaffRoutes(dependencies: ReferralDependencies): FastifyPluginAsyncZod {
  return async (app) => {
    requireStaff(app, dependencies.db);

    app.post(
      '/staff/referral-bonuses/:id/decision',
      {
        preValidation: permit(dependencies.db, 'identity.decide'),
        schema: { tags: ['staff'], params: idParams, body: referralBonusDecisionRequestSchema, response: { 200: referralBonusResponseSchema, ...errors } },
      },
      async (request) => ({
        referralBonus: await decideHeldBonus(dependencies, staffActorOf(request), {
          referralId: request.params.id,
          decision: request.body.decision,
          reason: request.body.reason,
        }),
      }),
    );
  };
}
