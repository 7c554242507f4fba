import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '@strongroom/contracts/errors.ts';
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
import { recordAudit } from '../../platform/audit.ts';
import { staffSessionCookieName } from '../../platform/cookie-names.ts';
import { AppError } from '../../platform/errors.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { clearSessionCookies, endSession, resolveSession, startSession } from '../../platform/session.ts';
import { permit, requireStaff, staffAudit, staffOf } from '../../platform/staff-auth.ts';
import { totpCode } from '../../platform/totp.ts';
import { listStaff } from './repository.ts';
import { sandboxAdminSignIn } from './sandbox-admin.ts';
import {
  changeOwnPassword,
  changeStaffMember,
  createStaffMember,
  staffLogIn,
  staffMeAnswer,
  staffMeAnswerFor,
  StaffExistsError,
  type StaffChange,
  type StaffDependencies,
  type StaffRequestMeta,
} from './service.ts';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  429: errorResponseSchema,
};

function metaOf(request: FastifyRequest): StaffRequestMeta {
  return { ip: request.ip, requestId: request.id, userAgent: request.headers['user-agent'] };
}

/** Sign-in and sign-out of the back office (docs/product.md section 6): a realm apart from customers (D16). */
export function staffAuthRoutes(dependencies: StaffDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    app.post(
      '/staff/auth/login',
      { schema: { tags: ['staff'], body: staffLoginRequestSchema, response: { 200: staffMeResponseSchema, ...errors } } },
      async (request, reply) => {
        const staffId = await staffLogIn(dependencies, request.body, metaOf(request));
        await startSession(db, request, reply, 'staff', staffId);
        return staffMeAnswerFor(db, staffId);
      },
    );

    app.post('/staff/auth/logout', { schema: { tags: ['staff'], response: { 204: z.null(), ...errors } } }, async (request, reply) => {
      const sessionId = request.cookies[staffSessionCookieName(request)];
      const session = sessionId ? await resolveSession(db, sessionId, 'staff') : undefined;
      if (sessionId) await endSession(db, sessionId);
      clearSessionCookies(request, reply, 'staff');
      await recordAudit(db, {
        actorType: session ? 'staff' : 'anonymous',
        actorId: session?.subjectId,
        action: 'staff.logout',
        outcome: 'success',
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        requestId: request.id,
      });
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
        await changeOwnPassword(dependencies, staffOf(request), request.body, (entry) => staffAudit(request, entry));
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/staff/members',
      { preValidation: permit(db, 'staff.manage'), schema: { tags: ['staff'], response: { 200: staffListResponseSchema, ...errors } } },
      async () => ({
        items: (await listStaff(db)).map((row) => ({
          id: row.id,
          email: row.email,
          role: row.role,
          status: row.disabled_at ? ('disabled' as const) : ('active' as const),
          createdAt: row.created_at.toISOString(),
          lastSignInAt: row.last_sign_in_at?.toISOString() ?? null,
        })),
      }),
    );

    app.post(
      '/staff/members',
      {
        preValidation: permit(db, 'staff.manage'),
        schema: { tags: ['staff'], body: createStaffRequestSchema, response: { 201: staffEnrolmentSchema, ...errors } },
      },
      async (request, reply) => {
        const actor = staffOf(request);
        try {
          const created = await createStaffMember(dependencies, { ...request.body, createdBy: actor.id }, (staffId) =>
            staffAudit(request, {
              action: 'staff.create',
              subject: staffId,
              outcome: 'success',
              details: { role: request.body.role, reason: request.body.reason },
            }),
          );
          return reply.status(201).send(created);
        } catch (error) {
          if (error instanceof StaffExistsError) throw new AppError('conflict', 'A staff member with this email already exists');
          throw error;
        }
      },
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
          const enrolment = await changeStaffMember(
            dependencies,
            staffOf(request),
            request.params.id,
            changeOf(requestBody as never),
            requestBody.reason,
            (entry) => staffAudit(request, entry),
          );
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
      { schema: { tags: ['dev'], response: { 200: sandboxStaffSignInSchema, 404: errorResponseSchema } } },
      async (_request, reply) => {
        const signIn = await sandboxAdminSignIn(dependencies, Date.now(), totpCode);
        if (!signIn) throw new AppError('not_found', 'The sandbox admin does not exist or is disabled');
        reply.header('cache-control', 'no-store');
        return signIn;
      },
    );
  };
}
