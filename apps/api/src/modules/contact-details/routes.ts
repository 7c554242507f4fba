import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  addressSavedResponseSchema,
  changeStartedResponseSchema,
  contactCorrectionRequestSchema,
  contactCorrectionResponseSchema,
  contactDetailsSchema,
  emailChangeConfirmRequestSchema,
  emailChangedResponseSchema,
  emailChangeRequestSchema,
  phoneChangeConfirmRequestSchema,
  phoneChangedResponseSchema,
  phoneChangeRequestSchema,
  postalAddressSchema,
} from '@strongroom/contracts/contact-details.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { perCustomerTries } from '../../platform/customer-rate-limits.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { customerActorOf, staffActorOf } from '../../platform/request-actor.ts';
import { stepUpAnswerOf } from '../../platform/request-headers.ts';
import { permit, requireStaff } from '../../platform/staff-auth.ts';
import { correctContactDetails, type CorrectionDependencies } from './correction.ts';
import {
  changeAddress,
  confirmEmailChange,
  confirmPhoneChange,
  contactDetailsOf,
  startEmailChange,
  startPhoneChange,
  type ContactDetailsDependencies,
} from './service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 429);

/** The customer's own contact details (docs/decisions/059): each change behind a step-up, then a link or a code. */
export function contactDetailsRoutes(dependencies: ContactDetailsDependencies): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, dependencies.db);

    /** At most 10 tries in 10 minutes per customer and route: codes and links are not guessed here. */
    const perCustomerLimit = (name: string, message: string) => perCustomerTries(app, name, { max: 10, timeWindow: '10 minutes' }, message);
    const tooMany = 'Too many tries. Please wait a few minutes.';

    app.get('/me/contact', { schema: { tags: ['profile'], response: { 200: contactDetailsSchema, ...errors } } }, async (request) =>
      contactDetailsOf(dependencies.db, customerIdOf(request)),
    );

    app.post(
      '/me/email-change',
      {
        preHandler: perCustomerLimit('email-change', tooMany),
        schema: { tags: ['profile'], body: emailChangeRequestSchema, response: { 200: changeStartedResponseSchema, ...errors } },
      },
      async (request) => startEmailChange(dependencies, customerActorOf(request), request.body.email, stepUpAnswerOf(request)),
    );

    app.post(
      '/me/email-change/confirm',
      {
        preHandler: perCustomerLimit('email-change-confirm', tooMany),
        schema: { tags: ['profile'], body: emailChangeConfirmRequestSchema, response: { 200: emailChangedResponseSchema, ...errors } },
      },
      async (request) => confirmEmailChange(dependencies, customerActorOf(request), request.body.token),
    );

    app.post(
      '/me/phone-change',
      {
        preHandler: perCustomerLimit('phone-change', tooMany),
        schema: { tags: ['profile'], body: phoneChangeRequestSchema, response: { 200: changeStartedResponseSchema, ...errors } },
      },
      async (request) => startPhoneChange(dependencies, customerActorOf(request), request.body, stepUpAnswerOf(request)),
    );

    app.post(
      '/me/phone-change/confirm',
      {
        preHandler: perCustomerLimit('phone-change-confirm', 'Too many codes. Please wait a few minutes.'),
        schema: { tags: ['profile'], body: phoneChangeConfirmRequestSchema, response: { 200: phoneChangedResponseSchema, ...errors } },
      },
      async (request) => confirmPhoneChange(dependencies, customerActorOf(request), request.body.code),
    );

    app.put(
      '/me/address',
      {
        preHandler: perCustomerLimit('address-change', tooMany),
        schema: { tags: ['profile'], body: postalAddressSchema, response: { 200: addressSavedResponseSchema, ...errors } },
      },
      async (request) => ({ address: await changeAddress(dependencies, customerActorOf(request), request.body, stepUpAnswerOf(request)) }),
    );
  };
}

/** `PUT /staff/customers/{id}/contact`: `customers.correct` (administrators), with a reason. */
export function contactCorrectionRoutes(dependencies: CorrectionDependencies): FastifyPluginAsyncZod {
  return async (app) => {
    requireStaff(app, dependencies.db);
    app.put(
      '/staff/customers/:id/contact',
      {
        preValidation: permit(dependencies.db, 'customers.correct'),
        schema: { tags: ['staff'], params: idParams, body: contactCorrectionRequestSchema, response: { 200: contactCorrectionResponseSchema, ...errors } },
      },
      async (request) => correctContactDetails(dependencies, staffActorOf(request), request.params.id, request.body),
    );
  };
}
