import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changePasswordRequestSchema,
  changePasswordResponseSchema,
  customerSessionsResponseSchema,
  endSessionResponseSchema,
  revokeOtherSessionsResponseSchema,
  totpConfirmRequestSchema,
  totpConfirmResponseSchema,
  totpEnrolmentResponseSchema,
  totpRemovedResponseSchema,
  totpStatusResponseSchema,
} from '@strongroom/contracts/security.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { perCustomerTries } from '../../platform/customer-rate-limits.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { customerActorOf } from '../../platform/request-actor.ts';
import { stepUpAnswerOf } from '../../platform/request-headers.ts';
import { clearSessionCookies } from '../../platform/session.ts';
import {
  changePassword,
  confirmTotp,
  endCustomerSession,
  listSessions,
  removeTotp,
  revokeOtherSessions,
  startTotpEnrolment,
  totpStatus,
  type SecurityDependencies,
  type SessionActor,
} from './service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 429);

function actorOf(request: FastifyRequest): SessionActor {
  const session = request.customerSession;
  if (!session) throw new Error('a security route without requireCustomer');
  return { ...customerActorOf(request), sessionIdHash: session.idHash };
}

/**
 * The Security part of Settings (issue 15): sessions, password, authenticator app. Changes to
 * the password and the app are step-up actions (403 `step_up_required`, then the same request
 * again with `X-Step-Up`).
 */
export function securityRoutes(dependencies: SecurityDependencies): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, dependencies.db);

    /** At most 10 tries in 10 minutes per customer (it runs after requireCustomer, which knows who). */
    const perCustomerLimit = (name: string, message: string) => perCustomerTries(app, name, { max: 10, timeWindow: '10 minutes' }, message);

    app.get('/me/sessions', { schema: { tags: ['security'], response: { 200: customerSessionsResponseSchema, ...errors } } }, async (request) => ({
      items: await listSessions(dependencies.db, actorOf(request)),
    }));

    app.delete(
      '/me/sessions/:id',
      { schema: { tags: ['security'], params: z.object({ id: z.string().max(64) }), response: { 200: endSessionResponseSchema, ...errors } } },
      async (request, reply) => {
        const { current } = await endCustomerSession(dependencies.db, actorOf(request), request.params.id);
        // Ending the session in use is signing out here: the cookies go too.
        if (current) clearSessionCookies(request, reply);
        return { ended: true as const, current };
      },
    );

    app.post(
      '/me/sessions/revoke-others',
      { schema: { tags: ['security'], response: { 200: revokeOtherSessionsResponseSchema, ...errors } } },
      async (request) => ({ ended: await revokeOtherSessions(dependencies.db, actorOf(request)) }),
    );

    app.post(
      '/me/password',
      {
        // Guessing the current password here is limited per customer.
        preHandler: perCustomerLimit('password-change', 'Too many password changes. Please wait a few minutes.'),
        schema: { tags: ['security'], body: changePasswordRequestSchema, response: { 200: changePasswordResponseSchema, ...errors } },
      },
      async (request) => {
        const { otherSessionsEnded } = await changePassword(dependencies, actorOf(request), request.body, stepUpAnswerOf(request));
        return { changed: true as const, otherSessionsEnded };
      },
    );

    app.get('/me/totp', { schema: { tags: ['security'], response: { 200: totpStatusResponseSchema, ...errors } } }, async (request) =>
      totpStatus(dependencies.db, customerIdOf(request)),
    );

    app.post(
      '/me/totp',
      {
        preHandler: perCustomerLimit('totp-enrol', 'Too many tries. Please wait a few minutes.'),
        schema: { tags: ['security'], response: { 200: totpEnrolmentResponseSchema, ...errors } },
      },
      async (request) => startTotpEnrolment(dependencies, actorOf(request), stepUpAnswerOf(request)),
    );

    app.post(
      '/me/totp/confirm',
      {
        preHandler: perCustomerLimit('totp-confirm', 'Too many codes. Please wait a few minutes.'),
        schema: { tags: ['security'], body: totpConfirmRequestSchema, response: { 200: totpConfirmResponseSchema, ...errors } },
      },
      async (request) => confirmTotp(dependencies, actorOf(request), request.body.code),
    );

    app.delete('/me/totp', { schema: { tags: ['security'], response: { 200: totpRemovedResponseSchema, ...errors } } }, async (request) => {
      await removeTotp(dependencies, actorOf(request), stepUpAnswerOf(request));
      return { removed: true as const };
    });
  };
}
