import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageResponseSchema, sessionResponseSchema } from '@strongroom/contracts/auth.ts';
import { identityFieldsSchema, onboardingMessages, phoneCodeRequestSchema, phoneSignupRequestSchema } from '@strongroom/contracts/onboarding.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { perCustomerRateLimit } from '../../platform/customer-rate-limits.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { customerActorOf } from '../../platform/request-actor.ts';
import { startSession } from '../../platform/session.ts';
import { AppError } from '../../platform/errors.ts';
import { readImageForm, sendStoredImage } from '../../platform/uploads.ts';
import { sessionAnswerFor } from '../customers/service.ts';
import { ownIdentityStatusSchema } from '@strongroom/contracts/staff-identity.ts';
import {
  ownedImage,
  ownIdentityStatus,
  resendPhoneCode,
  saveProfilePhoto,
  startPhoneVerification,
  submitIdentity,
  verifyPhoneCode,
  type OnboardingDependencies,
} from './service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 413, 415, 429);

export function onboardingRoutes(dependencies: OnboardingDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  const sessionAnswer = (customerId: string) => sessionAnswerFor(db, customerId);

  return async (app) => {
    requireCustomer(app, db);
    app.post(
      '/onboarding/phone',
      {
        config: { rateLimit: perCustomerRateLimit({ max: 10, timeWindow: '1 hour' }) },
        schema: { tags: ['onboarding'], body: phoneSignupRequestSchema, response: { 200: messageResponseSchema, ...errors } },
      },
      async (request) => {
        await startPhoneVerification(dependencies, customerActorOf(request), request.body);
        return { message: onboardingMessages.codeSent };
      },
    );

    app.post('/onboarding/phone/resend', { schema: { tags: ['onboarding'], response: { 200: messageResponseSchema, ...errors } } }, async (request) => {
      await resendPhoneCode(dependencies, customerActorOf(request));
      return { message: onboardingMessages.codeSent };
    });

    app.post(
      '/onboarding/phone/verify',
      {
        config: { rateLimit: perCustomerRateLimit({ max: 20, timeWindow: '1 hour' }) },
        schema: { tags: ['onboarding'], body: phoneCodeRequestSchema, response: { 200: sessionResponseSchema, ...errors } },
      },
      async (request, reply) => {
        const customerId = customerIdOf(request);
        await verifyPhoneCode(dependencies, customerActorOf(request), request.body.code);
        // A second factor proven is a privilege change: a new session id (ASVS 7.2.4).
        await startSession(db, request, reply, 'customer', customerId);
        return sessionAnswer(customerId);
      },
    );

    // The customer's latest review: after a rejection the registration page shows why.
    app.get('/onboarding/identity', { schema: { tags: ['onboarding'], response: { 200: ownIdentityStatusSchema, ...errors } } }, async (request) =>
      ownIdentityStatus(db, customerIdOf(request)),
    );

    app.post(
      '/onboarding/identity',
      {
        config: { rateLimit: perCustomerRateLimit({ max: 10, timeWindow: '1 hour' }) },
        schema: {
          tags: ['onboarding'],
          description:
            'multipart/form-data: document (PNG or JPEG, at most 5 MB), idType (ssn, drivers_license or passport), idNumber, ' +
            'dateOfBirth (YYYY-MM-DD), country, address (the street, one or two lines), city, state (a USPS code), zipCode',
          response: { 201: sessionResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const customerId = customerIdOf(request);
        const form = await readImageForm(request);
        const fields = identityFieldsSchema.safeParse(form.fields);
        if (!fields.success) {
          const messages: Record<string, string> = {};
          for (const issue of fields.error.issues) messages[String(issue.path[0] ?? '_')] ??= issue.message;
          throw new AppError('validation_failed', 'Some fields are not valid', { fields: messages });
        }
        await submitIdentity(dependencies, customerActorOf(request), fields.data, form.image?.bytes);
        return reply.status(201).send(await sessionAnswer(customerId));
      },
    );

    app.post(
      '/onboarding/profile-photo',
      {
        config: { rateLimit: perCustomerRateLimit({ max: 20, timeWindow: '1 hour' }) },
        schema: {
          tags: ['onboarding'],
          description: 'multipart/form-data: photo (PNG or JPEG, at most 5 MB)',
          response: { 201: sessionResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const customerId = customerIdOf(request);
        const form = await readImageForm(request);
        await saveProfilePhoto(dependencies, customerActorOf(request), form.image?.bytes);
        return reply.status(201).send(await sessionAnswer(customerId));
      },
    );

    app.get(
      '/files/:fileId',
      {
        schema: {
          tags: ['onboarding'],
          params: z.object({ fileId: z.string() }),
          response: { 200: z.unknown().describe('The image (image/png or image/jpeg)'), ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        return sendStoredImage(reply, await ownedImage(dependencies, customerIdOf(request), request.params.fileId));
      },
    );
  };
}
