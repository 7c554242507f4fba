import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { systemClock, type Clock } from './db/clock.ts';
import type { Database, Queryable } from './db/database.ts';
import { accountRoutes } from './modules/accounts/routes.ts';
import { accountManagementRoutes } from './modules/account-management/manage-routes.ts';
import { accountStaffRoutes } from './modules/account-management/staff-routes.ts';
import { authRoutes, meRoutes } from './modules/auth/routes.ts';
import { registerAuthJobs } from './modules/auth/service.ts';
import { contactRoutes } from './modules/contact/routes.ts';
import { messageStaffRoutes } from './modules/contact/staff-routes.ts';
import { beneficiaryRoutes } from './modules/beneficiaries/routes.ts';
import { eventRoutes } from './modules/events/routes.ts';
import { fundingSourceRoutes } from './modules/funding-sources/routes.ts';
import { notificationRoutes } from './modules/notifications/routes.ts';
import { expirePendingTransfers } from './ledger/expire.ts';
import { autoApproveJobKind, registerIdentityJobs } from './modules/onboarding/identity-review.ts';
import { onboardingRoutes } from './modules/onboarding/routes.ts';
import { identityStaffRoutes } from './modules/onboarding/staff-routes.ts';
import { registerPaymentJobs } from './modules/payments/jobs.ts';
import { paymentRoutes } from './modules/payments/routes.ts';
import { createPaymentStageTimer } from './modules/payments/stage-timings.ts';
import { stepUpRoutes } from './modules/step-up/routes.ts';
import { stepUpDependencies, type StepUpMethods } from './modules/step-up/service.ts';
import { securityRoutes } from './modules/security/routes.ts';
import { passkeyRoutes, passkeySignInRoutes } from './modules/passkeys/routes.ts';
import { hasPasskey } from './modules/passkeys/service.ts';
import { historyRoutes } from './modules/history/routes.ts';
import { productRoutes } from './modules/products/routes.ts';
import { productStaffRoutes } from './modules/products/staff-routes.ts';
import { feeRefundStaffRoutes } from './modules/fee-refunds/staff-routes.ts';
import { billerRoutes } from './modules/billers/routes.ts';
import { billPayeeRoutes } from './modules/bill-payees/routes.ts';
import { billerStaffRoutes } from './modules/billers/staff-routes.ts';
import { calendarRoutes } from './modules/calendar/routes.ts';
import { registerStatementNoticeJobs } from './modules/statements/monthly-notices.ts';
import { disputeLetterRoutes, disputeLetterStaffRoutes } from './modules/disputes/letter-routes.ts';
import { disputeRoutes } from './modules/disputes/routes.ts';
import { registerDisputeLetterJobs } from './modules/disputes/letters.ts';
import { disputesBeforeDay, registerDisputeJobs } from './modules/disputes/jobs.ts';
import { disputeStaffRoutes } from './modules/disputes/staff-routes.ts';
import { monthlyStatementRoutes } from './modules/statements/monthly-routes.ts';
import { statementRoutes } from './modules/statements/routes.ts';
import { receiptRoutes } from './modules/receipts/routes.ts';
import { dataExportRoutes } from './modules/data-export/routes.ts';
import { createTransferBatcher } from './ledger/batcher.ts';
import { registerContactJobs } from './modules/contact/service.ts';
import { secureMessageRoutes } from './modules/secure-messages/routes.ts';
import { securityEventRoutes } from './modules/security-events/routes.ts';
import { registerSecurityEventJobs } from './modules/security-events/service.ts';
import { customerCareRoutes } from './modules/customer-care/routes.ts';
import { devRoutes } from './modules/dev/routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { opsRoutes } from './modules/ops/routes.ts';
import { settingsRoutes } from './modules/settings/routes.ts';
import { staffSettingsRoutes } from './modules/settings/staff-routes.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { sandboxStaffRoutes, staffAuthRoutes, staffRoutes } from './modules/staff/routes.ts';
import { staffPaymentRoutes } from './modules/payments/staff-routes.ts';
import { staffAchRoutes } from './modules/ach/staff-routes.ts';
import { registerLoanJobs } from './modules/loans/jobs.ts';
import { registerEndOfDayJobs } from './modules/end-of-day/jobs.ts';
import { booksRoutes, syncBooksTimeZone } from './modules/books/routes.ts';
import { reconciliationRoutes, sandboxStatementAfterDay } from './modules/reconciliation/routes.ts';
import { scheduledPaymentRoutes } from './modules/scheduled-payments/routes.ts';
import { payScheduledBeforeDay, registerScheduledPaymentJobs } from './modules/scheduled-payments/service.ts';
import { preferencesRoutes } from './modules/profile/routes.ts';
import { contactCorrectionRoutes, contactDetailsRoutes } from './modules/contact-details/routes.ts';
import { referralRoutes } from './modules/referrals/routes.ts';
import { referralStaffRoutes } from './modules/referrals/staff-routes.ts';
import { loanRoutes } from './modules/loans/routes.ts';
import { loanStaffRoutes } from './modules/loans/staff-routes.ts';
import { decorateStaffSessions } from './platform/staff-auth.ts';
import { cardAutoApproveJobKind, registerCardJobs } from './modules/cards/jobs.ts';
import { cardRoutes } from './modules/cards/routes.ts';
import { cardPushTargetOf } from './modules/cards/service.ts';
import { cardSimulatorStaffRoutes, cardStaffRoutes } from './modules/cards/staff-routes.ts';
import { cardNetworkRoutes } from './modules/cards/dev-routes.ts';
import { runOpsCommand } from './modules/ops/registry.ts';
import { decorateSessions } from './platform/authenticate.ts';
import { registerCsrfProtection } from './platform/csrf.ts';
import { registerCookiesAndWritePositions, replicaReadMetrics } from './platform/read-your-writes.ts';
import { resolveSession } from './platform/session.ts';
import { hasConfirmedTotp } from './platform/second-factors.ts';

import { answerClientError, answerFrameworkError, answerWhileClosing, registerErrorHandler } from './platform/errors.ts';
import { refuseHiddenCharactersInPaths } from './platform/path-parameters.ts';
import { JobRunner } from './platform/jobs/job-runner.ts';
import { countQueuedJobs } from './platform/jobs/job-repository.ts';
import { createLiveEvents, type LiveEvents } from './platform/live-events.ts';
import { loggerOptions, OneLinePerRequest, requestIdFor } from './platform/logging.ts';
import { createOutboxMailer, createSmtpMailer, type Mailer } from './platform/messaging/mailer.ts';
import { createHttpSmsSender, createOutboxSmsSender, type SmsSender } from './platform/messaging/sms-sender.ts';
import { registerMetrics } from './platform/metrics.ts';
import { databaseRateLimitStore, rateLimitSweepIntervalMs, rateLimitSweepJobKind, sweepRateLimitCounters } from './platform/rate-limit-store.ts';
import { registerSecurityHeaders } from './platform/security-headers.ts';
import { trustProxyFor } from './platform/trusted-proxies.ts';
import { storageFor, type FileStorage } from './platform/storage.ts';
import { multipartLimits } from './platform/uploads.ts';
import { checkRequestsAndAnswersByContract } from './platform/response-serializer.ts';
import { registerWebApp } from './platform/web-app.ts';
import { authorizationServerRoutes, connectedAppRoutes, createAuthorizationServer, registerConnectedAppJobs } from './modules/connected-apps/service.ts';
import { fdxRoutes } from './modules/fdx/routes.ts';
import { sandboxBudgetAppRoutes } from './modules/sandbox-budget-app/routes.ts';

export interface AppDependencies {
  db: Database;
  mailer?: Mailer;
  sms?: SmsSender;
  storage?: FileStorage;
  /** Opens the loopback ops endpoint (embedded database only); see modules/ops/routes.ts. */
  opsToken?: string;
  /** Where log lines go; tests read them to prove secrets stay out. Default: stdout. */
  logStream?: NodeJS.WritableStream;
  /** The time the job queue and the ledger's deadlines go by (default: the database's now()); tests give a TestClock (db/clock.ts). */
  clock?: Clock;
}

export interface AppServices {
  db: Database;
  mailer: Mailer;
  sms: SmsSender;
  storage: FileStorage;
  jobs: JobRunner;
  liveEvents: LiveEvents;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
  }
}

/** A JSON body bigger than this is refused with 413; uploads have their own, per-route limit. */
const jsonBodyLimitBytes = 256 * 1024;
const apiPrefix = '/api/v1';
/** How often expired pending transfers give their reserved money back (docs/ledger.md, timeouts). */
export const ledgerExpirySweepIntervalMs = 30_000;
export const ledgerExpirySweepJobKind = 'ledger.expire-pending';

function mailerFor(config: Config, db: Database): Mailer {
  if (config.mode === 'sandbox' || !config.mail.smtpUrl) return createOutboxMailer(db);
  return createSmtpMailer({ url: config.mail.smtpUrl, from: config.mail.from });
}

function smsSenderFor(config: Config, db: Database): SmsSender {
  if (config.mode === 'sandbox' || !config.sms.url) return createOutboxSmsSender(db);
  return createHttpSmsSender({ url: config.sms.url, token: config.sms.token, from: config.sms.from });
}

/** Builds the whole server without listening; tests drive it with `app.inject()`. */
export async function build(config: Config, dependencies: AppDependencies): Promise<FastifyInstance> {
  const app = createServer(config, dependencies);
  await syncBooksTimeZone(dependencies.db, config.bankTimeZone);
  const services = await startServices(app, config, dependencies);
  const modules = wireModules(config, dependencies, services);
  await registerPlatform(app, config, dependencies, modules);
  await app.register(async (api) => registerApi(api, app, config, modules), { prefix: apiPrefix });
  await app.register(authorizationServerRoutes(modules.connectedApps));
  await app.register(fdxRoutes(modules.connectedApps), { prefix: '/fdx/v6' });
  if (config.mode === 'sandbox') await app.register(sandboxBudgetAppRoutes({ db: dependencies.db, config }), { prefix: '/sandbox/budget-app' });
  if (dependencies.opsToken) {
    const context = { database: async () => dependencies.db, config, liveEvents: services.liveEvents };
    await app.register(opsRoutes({ context, token: dependencies.opsToken, run: runOpsCommand }));
  }
  await registerWebApp(app, config);
  return app;
}

/** Fastify with the API's logger, request ids, body limit, proxies, zod schemas and error shape. */
function createServer(config: Config, dependencies: AppDependencies) {
  const trustProxy = trustProxyFor(config.trustProxy);
  const app = Fastify({
    logger: { ...loggerOptions(config), ...(dependencies.logStream ? { stream: dependencies.logStream } : {}) },
    genReqId: requestIdFor(trustProxy),
    logController: new OneLinePerRequest(),
    bodyLimit: jsonBodyLimitBytes,
    trustProxy,
    // These three answer in the API's error shape with its headers (platform/errors.ts).
    return503OnClosing: false,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();

  checkRequestsAndAnswersByContract(app);
  registerErrorHandler(app);
  return app;
}

type Server = ReturnType<typeof createServer>;

/** The services every module shares (`app.services`), started: live events listen from here on. */
async function startServices(app: Server, config: Config, dependencies: AppDependencies): Promise<AppServices> {
  const { db, clock } = dependencies;
  const services: AppServices = {
    db,
    mailer: dependencies.mailer ?? mailerFor(config, db),
    sms: dependencies.sms ?? smsSenderFor(config, db),
    storage: dependencies.storage ?? storageFor(config),
    jobs: new JobRunner(db, app.log, { clock }),
    liveEvents: createLiveEvents(db, app.log),
  };
  app.decorate('services', services);
  // Events published by any process reach the pages connected to this one (decision 043).
  await services.liveEvents.start();
  app.addHook('onClose', () => services.liveEvents.close());
  return services;
}

/** A job that runs after `delaySeconds` (the sandbox's automatic approvals); undefined when no delay is configured. */
function delayedJob(services: AppServices, clock: Clock | undefined, kind: string, delaySeconds: number | undefined) {
  if (delaySeconds === undefined) return undefined;
  return async (payload: Record<string, string>) => {
    await services.jobs.enqueue({ kind, payload, runAt: new Date((clock ?? systemClock).now().getTime() + delaySeconds * 1_000) });
  };
}

/**
 * What each module is given, and the background jobs of those that have them, in the order they
 * were always registered; the step-up methods besides SMS too (docs/decisions/063). */
function wireModules(config: Config, dependencies: AppDependencies, services: AppServices) {
  const { db, clock } = dependencies;
  const { jobs, mailer, sms, storage, liveEvents } = services;
  registerContactJobs(jobs, { db, mailer, bankName: config.bankName });
  registerSecurityEventJobs(jobs, { mailer, bankName: config.bankName });
  registerStatementNoticeJobs(jobs, { mailer, bankName: config.bankName });
  registerDisputeLetterJobs(jobs, { mailer, bankName: config.bankName });
  const auth = { db, mailer, config, liveEvents };
  registerAuthJobs(jobs, auth);
  registerIdentityJobs(jobs, { db, mailer, bankName: config.bankName, liveEvents });
  jobs.register(ledgerExpirySweepJobKind, async () => {
    await expirePendingTransfers(db, clock);
  });
  jobs.every(ledgerExpirySweepJobKind, ledgerExpirySweepIntervalMs);
  jobs.register(rateLimitSweepJobKind, async () => {
    await sweepRateLimitCounters(db, clock);
  });
  jobs.every(rateLimitSweepJobKind, rateLimitSweepIntervalMs);
  const paymentStages = createPaymentStageTimer();
  const stepUpMethods: StepUpMethods = { passkey: hasPasskey, totp: hasConfirmedTotp };
  // Every money rule reads the app's clock (absent in production); payments share ledger transactions (docs/decisions/016).
  const payments = {
    db,
    clock,
    ledger: createTransferBatcher(db, { clock }),
    stages: paymentStages,
    config,
    sms,
    stepUpMethods,
    liveEvents,
    // A card push to a card of this bank settles at once (issue 13).
    ownCard: (queryable: Queryable, cardNumber: string) => cardPushTargetOf(queryable, config.cardKeys, cardNumber),
  };
  const stepUp = stepUpDependencies(payments);
  const settleSoon = registerPaymentJobs(jobs, payments);
  registerLoanJobs(jobs, { db, liveEvents, config, clock });
  // Issue 33: scheduled payments run every five minutes, and end of day first pays those due up to each day.
  const paying = { ...payments, settleSoon };
  registerScheduledPaymentJobs(jobs, paying);
  // Issue 34: disputes' credit on its deadline and reversals on their date, every five minutes and in each end-of-day day after scheduled payments.
  const disputes = { db, config, storage, clock, liveEvents };
  registerDisputeJobs(jobs, disputes);
  // Issue 35: each business day closes the books, then the sandbox's settlement bank sends its statement of the day.
  const afterDay = sandboxStatementAfterDay({ db, config, clock, liveEvents });
  registerEndOfDayJobs(jobs, { db, liveEvents, config, clock, beforeDay: disputesBeforeDay(disputes, payScheduledBeforeDay(paying)), afterDay });
  const approveIdentity = delayedJob(services, clock, autoApproveJobKind, config.kycAutoApproveSeconds);
  const scheduleAutoApproval = approveIdentity && ((reviewId: string) => approveIdentity({ reviewId }));
  const approveCard = delayedJob(services, clock, cardAutoApproveJobKind, config.cardAutoApproveSeconds);
  const cards = { db, config, clock, stepUp, liveEvents, scheduleAutoApproval: approveCard && ((cardId: string) => approveCard({ cardId })) };
  registerCardJobs(jobs, cards);
  registerConnectedAppJobs(jobs, db);
  const connectedApps = { db, config, clock: clock ?? systemClock, stepUp, liveEvents };
  return {
    db,
    services,
    auth,
    payments: paying,
    paymentStages,
    stepUp,
    cards,
    onboarding: { db, sms, storage, config, scheduleAutoApproval },
    staff: { db, config },
    disputes,
    connectedApps: { ...connectedApps, authorizationServer: createAuthorizationServer(connectedApps) },
  };
}

type ModuleWiring = ReturnType<typeof wireModules>;

/** The hooks and plugins every route sits behind, in the order Fastify must run them. */
async function registerPlatform(app: Server, config: Config, dependencies: AppDependencies, modules: ModuleWiring): Promise<void> {
  const { db, clock } = dependencies;
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    return payload;
  });

  registerSecurityHeaders(app);
  answerWhileClosing(app);
  await registerCookiesAndWritePositions(app, db);
  // Counters live in the database: a limit means the same with 1 or N processes (docs/decisions/042).
  await app.register(rateLimit, { global: false, store: databaseRateLimitStore(db, clock) });
  await app.register(multipart, { limits: multipartLimits });
  decorateSessions(app);
  decorateStaffSessions(app);
  registerCsrfProtection(app, db, config.secrets.sessionSecret, async (sessionId, realm) => (await resolveSession(db, sessionId, realm)) !== undefined);
  refuseHiddenCharactersInPaths(app);
  registerMetrics(app, {
    token: config.metricsToken,
    jobQueueDepth: () => countQueuedJobs(db),
    liveEventSubscribers: () => modules.services.liveEvents.size(),
    more: [modules.paymentStages.metric, ...replicaReadMetrics(db)],
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: `${config.bankName} API`, version: '1.0.0', description: 'Strongroom online banking API' },
      servers: [{ url: '/' }],
    },
    transform: jsonSchemaTransform,
  });
}

/** The API under /api/v1: one line per module, in the order their routes were always registered. */
async function registerApi(api: Server, app: Server, config: Config, modules: ModuleWiring): Promise<void> {
  const { db, services, auth, payments, stepUp, cards, staff } = modules;
  const { mailer, sms, storage, liveEvents } = services;
  await api.register(healthRoutes(db));
  await api.register(settingsRoutes(config, db));
  await api.register(authRoutes(auth));
  await api.register(meRoutes({ db }));
  await api.register(accountRoutes(db, config, payments.clock));
  await api.register(onboardingRoutes(modules.onboarding));
  await api.register(contactRoutes(db));
  await api.register(paymentRoutes(payments));
  await api.register(fundingSourceRoutes({ db, sms, config, stepUp, liveEvents }));
  await api.register(stepUpRoutes(stepUp));
  await api.register(securityRoutes({ db, mailer, config, stepUp }));
  await api.register(passkeySignInRoutes({ db, config, stepUp, auth }));
  await api.register(passkeyRoutes({ db, config, stepUp, auth }));
  await api.register(historyRoutes(db, config, payments.clock));
  await api.register(statementRoutes(db, config));
  await api.register(monthlyStatementRoutes(db, config));
  await api.register(receiptRoutes(db, config));
  await api.register(beneficiaryRoutes(db));
  await api.register(notificationRoutes({ db, liveEvents }));
  await api.register(eventRoutes({ db, liveEvents }));
  await api.register(staffAuthRoutes(staff));
  await api.register(staffRoutes(staff));
  await api.register(customerCareRoutes({ db, liveEvents, cards }));
  await api.register(staffPaymentRoutes(payments));
  await api.register(staffAchRoutes({ db, config, clock: payments.clock }));
  await api.register(identityStaffRoutes({ db, storage, mailer, liveEvents, config }));
  await api.register(messageStaffRoutes({ db, mailer, bankName: config.bankName, liveEvents }));
  await api.register(staffSettingsRoutes(db));
  await api.register(auditRoutes(db));
  await api.register(cardRoutes(cards));
  await api.register(dataExportRoutes({ db, config, cards }));
  await api.register(cardStaffRoutes(cards));
  await api.register(loanRoutes({ db, liveEvents, config, clock: payments.clock }));
  await api.register(loanStaffRoutes({ db, liveEvents, config, clock: payments.clock }));
  await api.register(preferencesRoutes({ db }));
  await api.register(contactDetailsRoutes({ db, mailer, sms, config, stepUp }));
  await api.register(contactCorrectionRoutes({ db, mailer, sms, liveEvents, config }));
  const accountManagement = { db, config, payments, liveEvents, clock: payments.clock };
  await api.register(accountManagementRoutes({ ...accountManagement, moneyRateLimitPerMinute: config.moneyRateLimitPerMinute }));
  await api.register(accountStaffRoutes(accountManagement));
  await api.register(referralRoutes({ db, config }));
  await api.register(referralStaffRoutes({ db, liveEvents, bankName: config.bankName }));
  await api.register(secureMessageRoutes(db));
  await api.register(securityEventRoutes({ db, liveEvents }));
  // Issue 32: products, the business calendar, fee refunds; 33: billers, bill payees, payments later or repeating.
  await api.register(productRoutes({ db, config, clock: payments.clock }));
  await api.register(calendarRoutes({ db, config, clock: payments.clock }));
  await api.register(productStaffRoutes({ db, config, clock: payments.clock }));
  await api.register(feeRefundStaffRoutes({ db, bankName: config.bankName, clock: payments.clock }));
  await api.register(billerRoutes(db));
  await api.register(billPayeeRoutes({ db, config }));
  await api.register(billerStaffRoutes({ db, config }));
  await api.register(scheduledPaymentRoutes(payments));
  // Issue 34: disputes and their letters (customer and back office); 35: the books, reconciliation; 38: connected apps (consents, data recipients).
  await api.register(disputeRoutes({ db, config, storage, clock: payments.clock, liveEvents, scheduleCardApproval: cards.scheduleAutoApproval || undefined }));
  await api.register(disputeLetterRoutes(db));
  await api.register(disputeLetterStaffRoutes(db));
  await api.register(disputeStaffRoutes(modules.disputes));
  await api.register(booksRoutes({ db, config, clock: payments.clock, liveEvents }));
  await api.register(reconciliationRoutes({ db, config, clock: payments.clock, liveEvents }));
  await api.register(connectedAppRoutes(modules.connectedApps));
  if (config.mode === 'sandbox') {
    await api.register(devRoutes(db));
    await api.register(cardNetworkRoutes(cards));
    await api.register(cardSimulatorStaffRoutes(cards));
    await api.register(sandboxStaffRoutes(staff));
  }
  api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
