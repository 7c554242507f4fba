import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { loadBudgetAppKey, type BudgetAppKey } from './app-key.ts';
import { createBankClient } from './bank-client.ts';
import { accessEndedPage, homePage, notConnectedPage, problemPage, readingPage, refusedPage } from './pages.ts';
import { readBudget } from './read-budget.ts';
import { budgetApp } from './seed.ts';
import { SessionStore, sessionCookieName, type BudgetAppSession } from './sessions.ts';
import { budgetAppStyles } from './styles.ts';

export { seedSandboxBudgetApp } from './seed.ts';

/** A form post to /start carries no fields: anything larger is not Pennywise's own form. */
const formBodyLimitBytes = 1024;

/** What went wrong, for the log: the error's kind and code, never its message (which could quote an answer of the bank). */
function logged(error: unknown): { errorName: string; errorCode?: string } {
  if (!(error instanceof Error)) return { errorName: typeof error };
  const code = (error as { code?: unknown }).code;
  return { errorName: error.name, ...(typeof code === 'string' ? { errorCode: code } : {}) };
}

/**
 * The sandbox's fictional budgeting app, Pennywise, at /sandbox/budget-app (sandbox only; app.ts
 * registers it; docs/connected-apps.md, "The sandbox's app"): a third-party app living in the
 * bank's origin for convenience only. It reaches the bank as any outside app does, over HTTP at the
 * public address, through openid-client; it shares no code path with the bank's own routes.
 * `options.fetch` is for tests without a listening server.
 */
export function sandboxBudgetAppRoutes(dependencies: { db: Database; config: Config }, options: { fetch?: client.CustomFetch } = {}) {
  const { config } = dependencies;
  const secure = new URL(config.publicUrl).protocol === 'https:';
  let key: Promise<BudgetAppKey> | undefined;
  const bank = createBankClient({
    config,
    key: () => (key ??= loadBudgetAppKey(config.dataDirectory)),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const sessions = new SessionStore();

  function sessionOf(request: FastifyRequest): BudgetAppSession | undefined {
    return sessions.get(request.cookies[sessionCookieName]);
  }

  function page(reply: FastifyReply, status: number, markup: string) {
    return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(markup);
  }

  return async function routes(app: FastifyInstance): Promise<void> {
    // Pennywise is a third party's app, not the bank's API: none of its pages is in the OpenAPI document.
    app.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    // Pennywise's connect button is a plain form (no script under the bank's CSP); its post has no
    // fields. A post of any other kind (JSON from a script) is not its own form: 415, nothing started.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: formBodyLimitBytes }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });

    app.get('/styles.css', async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=300').type('text/css; charset=utf-8').send(budgetAppStyles),
    );

    app.get('/', async (request, reply) => page(reply, 200, homePage(Boolean(sessionOf(request)?.connection))));

    // A new session for every connection, so an earlier cookie (perhaps planted) is never reused.
    app.post('/start', async (request, reply) => {
      try {
        const { pending, authorizationUrl } = await bank.start();
        const { id, session } = sessions.create();
        session.pending = pending;
        reply.setCookie(sessionCookieName, id, { path: budgetApp.basePath, httpOnly: true, sameSite: 'lax', secure });
        return reply.code(303).header('cache-control', 'no-store').redirect(authorizationUrl.href, 303);
      } catch (error) {
        request.log.warn(logged(error), 'the sandbox budgeting app could not start a connection');
        return page(reply, 502, problemPage('Pennywise could not reach Strongroom to start the connection. Try again in a moment.'));
      }
    });

    app.get('/callback', async (request, reply) => {
      const session = sessionOf(request);
      const pending = session?.pending;
      if (!session || !pending) return page(reply, 400, problemPage('This connection was not started in this browser, or it took too long. Start again.'));
      session.pending = undefined;
      try {
        session.connection = await bank.finish(pending, new URL(request.url, config.publicUrl));
      } catch (error) {
        if (error instanceof client.AuthorizationResponseError && error.error === 'access_denied') return page(reply, 200, refusedPage());
        request.log.warn(logged(error), 'the sandbox budgeting app could not finish a connection');
        return page(reply, 502, problemPage('Strongroom did not complete the connection. Start again.'));
      }
      return reply.code(303).header('cache-control', 'no-store').redirect(`${budgetApp.basePath}/refresh`, 303);
    });

    app.get('/refresh', async (request, reply) => {
      const session = sessionOf(request);
      const connection = session?.connection;
      if (!session || !connection) return page(reply, 200, notConnectedPage());
      try {
        const outcome = await readBudget(bank, connection);
        if (outcome.status === 'ended') {
          session.connection = undefined;
          return page(reply, 200, accessEndedPage());
        }
        session.connection = outcome.connection;
        return page(reply, 200, readingPage(outcome.reading));
      } catch (error) {
        request.log.warn(logged(error), 'the sandbox budgeting app could not read from the bank');
        return page(reply, 502, problemPage('Pennywise could not read from Strongroom just now. Try Refresh again in a moment.'));
      }
    });
  };
}
