import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changeStaffRoleRequestSchema,
  createStaffRequestSchema,
  sandboxStaffSignInSchema,
  staffEnrolmentSchema,
  staffListResponseSchema,
  staffLoginRequestSchema,
  staffMeResponseSchema,
  staffPasswordChangeSchema,
  staffReasonRequestSchema,
} from '@strongroom/contracts/staff.ts';
import { staffSessionCookieName } from '../../platform/cookie-names.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { AppError } from '../../platform/errors.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { clearSessionCookies, endSession, resolveSession, startSession } from '../../platform/session.ts';
import { originOf, staffActorOf } from '../../platform/request-actor.ts';
import { permit, requireStaff, staffOf } from '../../platform/staff-auth.ts';
import { totpCode } from '../../platform/totp.ts';
import { sandboxAdminSignIn } from './sandbox-admin.ts';
import {
  changeOwnPassword,
  changeStaffMember,
  enrolStaffMember,
  recordStaffLogout,
  staffList,
  staffLogIn,
  staffMeAnswer,
  staffMeAnswerFor,
  type StaffChange,
  type StaffDependencies,
} from './service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 429);

/** Sign-in and sign-out of the back office (docs/product.md section 6): a realm apart from customers (D16). */
export function staffAuthRoutes(dependencies: StaffDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    app.post(
      '/staff/auth/login',
      { schema: { tags: ['staff'], body: staffLoginRequestSchema, response: { 200: staffMeResponseSchema, ...errors } } },
      async (request, reply) => {
        const staffId = await staffLogIn(dependencies, request.body, originOf(request));
        await startSession(db, request, reply, 'staff', staffId);
        return staffMeAnswerFor(db, staffId);
      },
    );

    app.post('/staff/auth/logout', { schema: { tags: ['staff'], response: { 204: z.null(), ...errors } } }, async (request, reply) => {
      const sessionId = request.cookies[staffSessionCookieName(request)];
      const session = sessionId ? await resolveSession(db, sessionId, 'staff') : undefined;
      if (sessionId) await endSession(db, sessionId);
      clearSessionCookies(request, reply, 'staff');
      await recordStaffLogout(db, originOf(request), session?.subjectId);
      return reply.status(204).send(null);
    });
  };
}

/** The signed-in staff member's own routes, and the administration of staff (`staff.manage`). */
export function staffRoutes(dependencies: StaffDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireStaff(app, db);

    app.get('/staff/me', { schema: { tags: ['staff'], response: { 200: staffMeResponseSchema, ...errors } } }, async (request) =>
      staffMeAnswer(staffOf(request)),
    );

    app.post(
      '/staff/me/password',
      { schema: { tags: ['staff'], body: staffPasswordChangeSchema, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await changeOwnPassword(dependencies, staffActorOf(request), staffOf(request), request.body);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/staff/members',
      { preValidation: permit(db, 'staff.manage'), schema: { tags: ['staff'], response: { 200: staffListResponseSchema, ...errors } } },
      async () => staffList(db),
    );

    app.post(
      '/staff/members',
      {
        preValidation: permit(db, 'staff.manage'),
        schema: { tags: ['staff'], body: createStaffRequestSchema, response: { 201: staffEnrolmentSchema, ...errors } },
      },
      async (request, reply) => reply.status(201).send(await enrolStaffMember(dependencies, staffActorOf(request), request.body)),
    );

    const change = (path: string, body: z.ZodType<{ reason: string }>, changeOf: (body: never) => StaffChange) =>
      app.post(
        `/staff/members/:id/${path}`,
        {
          preValidation: permit(db, 'staff.manage'),
          schema: { tags: ['staff'], params: idParams, body, response: { 200: staffEnrolmentSchema, 204: z.null(), ...errors } },
        },
        async (request, reply) => {
          const requestBody = request.body as { reason: string };
          const enrolment = await changeStaffMember(dependencies, staffActorOf(request), request.params.id, changeOf(requestBody as never), requestBody.reason);
          return enrolment ? reply.status(200).send(enrolment) : reply.status(204).send(null);
        },
      );
    change('disable', staffReasonRequestSchema, () => ({ kind: 'disable' }));
    change('enable', staffReasonRequestSchema, () => ({ kind: 'enable' }));
    change('role', changeStaffRoleRequestSchema, (body: { role: z.infer<typeof changeStaffRoleRequestSchema>['role'] }) => ({ kind: 'role', role: body.role }));
    change('reset-second-factor', staffReasonRequestSchema, () => ({ kind: 'reset_second_factor' }));
  };
}

/** Sandbox only: the bootstrap admin's sign-in with its current code, offered on `/ops/login`. */
export function sandboxStaffRoutes(dependencies: StaffDependencies): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/dev/staff-sign-in',
      { schema: { tags: ['dev'], response: { 200: sandboxStaffSignInSchema, ...errorResponses(404) } } },
      async (_request, reply) => {
        const signIn = await sandboxAdminSignIn(dependencies, Date.now(), totpCode);
        if (!signIn) throw new AppError('not_found', 'The sandbox admin does not exist or is disabled');
        reply.header('cache-control', 'no-store');
        return signIn;
      },
    );
  };
}
