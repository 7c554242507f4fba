import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  authMessages,
  loginRequestSchema,
  messageResponseSchema,
  passwordResetCompleteSchema,
  passwordResetRequestSchema,
  sessionResponseSchema,
  signupRequestSchema,
  signupResponseSchema,
  signupStatusResponseSchema,
  tokenRequestSchema,
} from '@strongroom/contracts/auth.ts';
import { z } from 'zod';
import { meResponseSchema } from '@strongroom/contracts/session.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { randomToken } from '../../platform/crypto.ts';
import { deviceCookieName } from '../../platform/cookie-names.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { originOf } from '../../platform/request-actor.ts';
import { clearSessionCookies, endSession, resolveSession, sessionCookieName, startSession } from '../../platform/session.ts';
import { meAnswerFor, sessionAnswerFor } from '../customers/service.ts';
import {
  checkPasswordReset,
  completePasswordReset,
  logIn,
  recordEmailVerificationSignIn,
  recordLogout,
  requestPasswordReset,
  resendVerification,
  signUp,
  startSignedInBrowser,
  verifiedSignupCustomer,
  verifyEmail,
  type AuthDependencies,
} from './service.ts';

/** Binds the verify-email page's poll to the browser that signed up (not to the email in the URL). */
const signupCookieName = 'signup_browser';
const signupCookieMaxAgeSeconds = 24 * 60 * 60;

const errors = errorResponses(400, 401, 403, 429);

/** The app a plugin of these routes registers on, with the zod type provider. */
type RouteApp = Parameters<FastifyPluginAsyncZod>[0];

/** Sets the cookie that binds this browser to its sign-up until the email is verified. */
function setSignupCookie(request: FastifyRequest, reply: FastifyReply, value: string): void {
  reply.setCookie(signupCookieName, value, {
    path: '/api/v1/auth/signup',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: signupCookieMaxAgeSeconds,
  });
}

/** Signing up and verifying the email: the browser polls until the link is followed, then is signed in. */
function signUpRoutes(app: RouteApp, dependencies: AuthDependencies): void {
  const { db } = dependencies;
  app.post(
    '/auth/signup',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 hour' } },
      schema: { tags: ['auth'], body: signupRequestSchema, response: { 201: signupResponseSchema, ...errors } },
    },
    async (request, reply) => {
      const { browserToken } = await signUp(dependencies, request.body, originOf(request));
      setSignupCookie(request, reply, browserToken);
      return reply.status(201).send({ message: authMessages.signupAccepted, next: 'verify-email' as const });
    },
  );

  app.post('/auth/signup/status', { schema: { tags: ['auth'], response: { 200: signupStatusResponseSchema } } }, async (request, reply) => {
    const browserToken = request.cookies[signupCookieName];
    const customerId = browserToken ? await verifiedSignupCustomer(dependencies, browserToken) : undefined;
    if (!customerId) return { verified: false as const };
    await startSession(db, request, reply, 'customer', customerId);
    reply.clearCookie(signupCookieName, { path: '/api/v1/auth/signup' });
    await recordEmailVerificationSignIn(db, customerId, originOf(request));
    return { verified: true as const, ...(await sessionAnswerFor(db, customerId)) };
  });

  app.post(
    '/auth/signup/resend',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 hour' } },
      schema: { tags: ['auth'], response: { 200: messageResponseSchema, ...errorResponses(400, 401, 403, 409, 429) } },
    },
    async (request, reply) => {
      const sessionId = request.cookies[sessionCookieName(request)];
      const session = sessionId ? await resolveSession(db, sessionId, 'customer') : undefined;
      if (session) {
        // Signed in (on another browser than the sign-up's): bind this browser's poll anew.
        const browserToken = randomToken();
        await resendVerification(dependencies, { browserToken, customerId: session.subjectId });
        setSignupCookie(request, reply, browserToken);
      } else {
        const browserToken = request.cookies[signupCookieName];
        if (browserToken) await resendVerification(dependencies, { browserToken });
      }
      return { message: authMessages.resendAccepted };
    },
  );

  app.post(
    '/auth/verify-email',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 hour' } },
      schema: { tags: ['auth'], body: tokenRequestSchema, response: { 200: messageResponseSchema, ...errors } },
    },
    async (request) => {
      await verifyEmail(dependencies, request.body.token, originOf(request));
      return { message: authMessages.emailVerified };
    },
  );
}

/** Signing in and out with a password. */
function sessionRoutes(app: RouteApp, dependencies: AuthDependencies): void {
  const { db } = dependencies;
  app.post(
    '/auth/login',
    { schema: { tags: ['auth'], body: loginRequestSchema, response: { 200: sessionResponseSchema, ...errors } } },
    async (request, reply) => {
      const signedIn = await logIn(dependencies, request.body, {
        ...originOf(request),
        deviceToken: request.cookies[deviceCookieName(request)],
      });
      await startSignedInBrowser(dependencies, request, reply, signedIn);
      return sessionAnswerFor(db, signedIn.customerId);
    },
  );

  app.post('/auth/logout', { schema: { tags: ['auth'], response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    const sessionId = request.cookies[sessionCookieName(request)];
    const session = sessionId ? await resolveSession(db, sessionId, 'customer') : undefined;
    if (sessionId) await endSession(db, sessionId);
    clearSessionCookies(request, reply);
    await recordLogout(db, session?.subjectId, originOf(request));
    return reply.status(204).send(null);
  });
}

/** A forgotten password: a link by email, checked, then a new password that ends every session. */
function passwordResetRoutes(app: RouteApp, dependencies: AuthDependencies): void {
  app.post(
    '/auth/password-reset',
    {
      config: { rateLimit: { max: 5, timeWindow: '15 minutes' } },
      schema: { tags: ['auth'], body: passwordResetRequestSchema, response: { 200: messageResponseSchema, ...errors } },
    },
    async (request) => {
      await requestPasswordReset(dependencies, request.body.email, originOf(request));
      return { message: authMessages.resetRequested };
    },
  );

  app.post(
    '/auth/password-reset/check',
    {
      config: { rateLimit: { max: 30, timeWindow: '15 minutes' } },
      schema: { tags: ['auth'], body: tokenRequestSchema, response: { 200: messageResponseSchema, ...errors } },
    },
    async (request) => {
      await checkPasswordReset(dependencies, request.body.token);
      return { message: 'This link is valid.' };
    },
  );

  app.post(
    '/auth/password-reset/complete',
    {
      config: { rateLimit: { max: 10, timeWindow: '15 minutes' } },
      schema: { tags: ['auth'], body: passwordResetCompleteSchema, response: { 200: messageResponseSchema, ...errors } },
    },
    async (request, reply) => {
      await completePasswordReset(dependencies, request.body.token, request.body.password, originOf(request));
      clearSessionCookies(request, reply);
      return { message: authMessages.passwordUpdated };
    },
  );
}

/** Sign-up, sign-in and sign-out, and the password reset (docs/product.md section 5). */
export function authRoutes(dependencies: AuthDependencies): FastifyPluginAsyncZod {
  return async (app) => {
    signUpRoutes(app, dependencies);
    sessionRoutes(app, dependencies);
    passwordResetRoutes(app, dependencies);
  };
}

/** Routes for a signed-in customer's own identity. */
export function meRoutes(dependencies: Pick<AuthDependencies, 'db'>): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, dependencies.db);
    app.get('/me', { schema: { tags: ['auth'], response: { 200: meResponseSchema, ...errorResponses(401) } } }, async (request) =>
      meAnswerFor(dependencies.db, customerIdOf(request)),
    );
  };
}
