import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  customerRoutePaths,
  matchesRoutePath,
  publicRoutePaths,
  sandboxRoutePaths,
  staffRoutePaths,
} from '@strongroom/contracts/web-routes.ts';
import type { Config } from '../config.ts';
import { AppError, sendError } from './errors.ts';

const immutableAssetCache = 'public, max-age=31536000, immutable';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** Is this a page of the single-page app? Unknown paths get the app's 404 page with status 404. */
export function isAppPath(pathname: string, mode: Config['mode']): boolean {
  const patterns: readonly string[] = [
    ...publicRoutePaths,
    ...customerRoutePaths,
    ...staffRoutePaths,
    ...(mode === 'sandbox' ? sandboxRoutePaths : []),
  ];
  return patterns.some((pattern) => matchesRoutePath(pattern, pathname));
}

/**
 * Serves the built web app from the same process as the API: hashed assets cached for a year,
 * everything else revalidated, and index.html with the bank's name and mode filled in (so the
 * sandbox banner needs no request and no inline script).
 */
export async function registerWebApp(app: FastifyInstance, config: Pick<Config, 'webDistDirectory' | 'bankName' | 'mode'>): Promise<void> {
  const indexFile = path.join(config.webDistDirectory, 'index.html');
  // The filled-in page is kept until index.html changes on disk, so a rebuild of the web app is
  // served at once, without a restart, and a page request costs one stat, not a read.
  let cached: { modifiedMs: number; html: string } | undefined;
  const currentIndexHtml = async (): Promise<string | undefined> => {
    const modifiedMs = await stat(indexFile).then((info) => info.mtimeMs, () => undefined);
    if (modifiedMs === undefined) return undefined;
    if (cached?.modifiedMs !== modifiedMs) {
      const template = await readFile(indexFile, 'utf8');
      cached = { modifiedMs, html: template.replaceAll('%BANK_NAME%', escapeHtml(config.bankName)).replaceAll('%BANK_MODE%', escapeHtml(config.mode)) };
    }
    return cached.html;
  };

  if (await currentIndexHtml()) {
    await app.register(fastifyStatic, {
      root: config.webDistDirectory,
      prefix: '/',
      index: false,
      // The build writes .br and .gz beside each asset; the smallest the browser accepts is sent.
      preCompressed: true,
      // index.html is a template; it is only ever served filled in, by the not-found handler.
      allowedPath: (pathname) => pathname !== '/index.html',
      setHeaders(reply, filePath) {
        reply.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? immutableAssetCache : 'no-cache');
      },
    });
  }

  // The seed's home card pointed at a static checkings.html; the checking page is /current.
  app.get('/checkings.html', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/current', 301));

  const serveAppOrNotFound = async (request: FastifyRequest, reply: FastifyReply) => {
    const isPageRequest = (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api/');
    const indexHtml = isPageRequest ? await currentIndexHtml() : undefined;
    if (!indexHtml) {
      return sendError(request, reply, new AppError('not_found', `No route for ${request.method} ${request.url.split('?')[0]}`));
    }
    const pathname = new URL(request.url, 'http://localhost').pathname;
    return reply
      .status(isAppPath(pathname, config.mode) ? 200 : 404)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(indexHtml);
  };
  // The static plugin would answer the root directory itself (403); the root is the home page.
  app.get('/', { schema: { hide: true } }, serveAppOrNotFound);
  app.setNotFoundHandler(serveAppOrNotFound);
}
