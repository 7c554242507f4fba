import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageResponseSchema, sessionResponseSchema } from '@strongroom/contracts/auth.ts';
import { errorResponseSchema } from '@strongroom/contracts/errors.ts';
import { identityFieldsSchema, onboardingMessages, phoneCodeRequestSchema, phoneSignupRequestSchema } from '@strongroom/contracts/onboarding.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { perCustomerRateLimit } from '../../platform/customer-rate-limits.ts';
import { startSession } from '../../platform/session.ts';
import { AppError } from '../../platform/errors.ts';
import { readImageForm, sendStoredImage } from '../../platform/uploads.ts';
import { sessionAnswerFor } from '../customers/service.ts';
import { ownIdentityStatusSchema } from '@strongroom/contracts/staff-identity.ts';
import { latestOwnIdentityReview } from './identity-reviews-repository.ts';
import { findOwnedFile } from './repository.ts';
import { resendPhoneCode, saveProfilePhoto, startPhoneVerification, submitIdentity, verifyPhoneCode, type OnboardingDependencies } from './service.ts';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  413: errorResponseSchema,
  415: errorResponseSchema,
  429: errorResponseSchema,
};

export function onboardingRoutes(dependencies: OnboardingDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  const sessionAnswer = (customerId: string) => sessionAnswerFor(db, customerId);

  return async (app) => {
    requireCustomer(app, db);
    const actorOf = (request: FastifyRequest, customerId: string) => ({
      customerId,
      ip: request.ip,
      userAgent: request.headers['user-agent'],
      requestId: request.id,
    });

    app.post(
      '/onboarding/phone',
      {
        config: { rateLimit: perCustomerRateLimit({ max: 10, timeWindow: '1 hour' }) },
        schema: { tags: ['onboarding'], body: phoneSignupRequestSchema, response: { 200: messageResponseSchema, ...errors } },
      },
      async (request) => {
        await startPhoneVerification(dependencies, actorOf(request, customerIdOf(request)), request.body);
        return { message: onboardingMessages.codeSent };
      },
    );

    app.post('/onboarding/phone/resend', { schema: { tags: ['onboarding'], response: { 200: messageResponseSchema, ...errors } } }, async (request) => {
      await resendPhoneCode(dependencies, actorOf(request, customerIdOf(request)));
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
        await verifyPhoneCode(dependencies, actorOf(request, customerId), request.body.code);
        // A second factor proven is a privilege change: a new session id (ASVS 7.2.4).
        await startSession(db, request, reply, 'customer', customerId);
        return sessionAnswer(customerId);
      },
    );

    // The customer's latest review: after a rejection the registration page shows why.
    app.get('/onboarding/identity', { schema: { tags: ['onboarding'], response: { 200: ownIdentityStatusSchema, ...errors } } }, async (request) => {
      const review = await latestOwnIdentityReview(db, customerIdOf(request));
      return review
        ? { status: review.status, reason: review.status === 'rejected' ? review.reason : null }
        : { status: 'not_submitted' as const, reason: null };
    });

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
        await submitIdentity(dependencies, actorOf(request, customerId), fields.data, form.image?.bytes);
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
        await saveProfilePhoto(dependencies, actorOf(request, customerId), form.image?.bytes);
        return reply.status(201).send(await sessionAnswer(customerId));
      },
    );

    app.get(
      '/files/:fileId',
      {
        schema: {
          tags: ['onboarding'],
          params: z.object({ fileId: z.string() }),
          response: { 200: z.unknown().describe('The image (image/png or image/jpeg)'), 404: errorResponseSchema },
        },
      },
      async (request, reply) => {
        const fileId = request.params.fileId;
        const isUuid = /^[0-9a-f-]{36}$/i.test(fileId);
        const file = isUuid ? await findOwnedFile(db, fileId, customerIdOf(request)) : undefined;
        if (!file) throw new AppError('not_found', 'No such file');
        const bytes = await dependencies.storage.get(file.storage_key);
        return sendStoredImage(reply, { bytes, contentType: file.content_type, fileName: `${file.id}.${file.content_type === 'image/png' ? 'png' : 'jpg'}` });
      },
    );
  };
}
