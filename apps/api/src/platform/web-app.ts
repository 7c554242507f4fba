import { readFile, stat } from 'node:fs/promises';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { customerRoutePaths, matchesRoutePath, publicRoutePaths, sandboxRoutePaths, staffRoutePaths } from '@strongroom/contracts/web-routes.ts';
import type { Config } from '../config.ts';
import { AppError, sendError } from './errors.ts';

const immutableAssetCache = 'public, max-age=31536000, immutable';

interface FilledInPage {
  modifiedMs: number;
  html: Buffer;
  brotli: Buffer;
  gzip: Buffer;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** Is this a page of the single-page app? Unknown paths get the app's 404 page with status 404. */
export function isAppPath(pathname: string, mode: Config['mode']): boolean {
  const patterns: readonly string[] = [...publicRoutePaths, ...customerRoutePaths, ...staffRoutePaths, ...(mode === 'sandbox' ? sandboxRoutePaths : [])];
  return patterns.some((pattern) => matchesRoutePath(pattern, pathname));
}

/**
 * Serves the built web app from the same process as the API: hashed assets cached for a year,
 * everything else revalidated, and index.html with the bank's name, mode and time zone filled in
 * (so the sandbox banner and a money line's date need no request and no inline script).
 */
export async function registerWebApp(app: FastifyInstance, config: Pick<Config, 'webDistDirectory' | 'bankName' | 'mode' | 'bankTimeZone'>): Promise<void> {
  // A page is kept filled in until its file changes on disk, so a rebuild of the web app is served
  // at once, without a restart, and a page request costs one stat, not a read.
  const cache = new Map<string, FilledInPage>();
  const filledInPage = async (file: string): Promise<FilledInPage | undefined> => {
    const modifiedMs = await stat(file).then(
      (info) => info.mtimeMs,
      () => undefined,
    );
    if (modifiedMs === undefined) return undefined;
    const cached = cache.get(file);
    if (cached?.modifiedMs === modifiedMs) return cached;
    const template = await readFile(file, 'utf8');
    const html = Buffer.from(
      template
        .replaceAll('%BANK_NAME%', escapeHtml(config.bankName))
        .replaceAll('%BANK_MODE%', escapeHtml(config.mode))
        .replaceAll('%BANK_TIME_ZONE%', escapeHtml(config.bankTimeZone)),
    );
    // Compressed once per change of the file, not per request.
    const page = { modifiedMs, html, brotli: brotliCompressSync(html), gzip: gzipSync(html) };
    cache.set(file, page);
    return page;
  };
  const indexFile = path.join(config.webDistDirectory, 'index.html');
  const currentIndexHtml = () => filledInPage(indexFile);
  /** The build renders the marketing pages ahead (prerendered/<mode>/<page>.html); others get the app shell. */
  const pageHtml = async (pathname: string) => {
    const page = pathname === '/' ? 'index' : /^\/[a-z-]{1,40}$/.test(pathname) ? pathname.slice(1) : undefined;
    const prerendered = page ? await filledInPage(path.join(config.webDistDirectory, 'prerendered', config.mode, `${page}.html`)) : undefined;
    return prerendered ?? currentIndexHtml();
  };

  if (await currentIndexHtml()) {
    await app.register(fastifyStatic, {
      root: config.webDistDirectory,
      prefix: '/',
      index: false,
      // The build writes .br and .gz beside each asset; the smallest the browser accepts is sent.
      preCompressed: true,
      // index.html and the pre-rendered pages are templates; they are only ever served filled in.
      allowedPath: (pathname) => pathname !== '/index.html' && !pathname.startsWith('/prerendered/'),
      setHeaders(reply, filePath) {
        reply.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? immutableAssetCache : 'no-cache');
      },
    });
  }

  // The seed's home card pointed at a static checkings.html; the checking page is /current.
  app.get('/checkings.html', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/current', 301));

  const serveAppOrNotFound = async (request: FastifyRequest, reply: FastifyReply) => {
    const isPageRequest = (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api/');
    const pathname = new URL(request.url, 'http://localhost').pathname;
    const known = isAppPath(pathname, config.mode);
    const page = isPageRequest ? await (known ? pageHtml(pathname) : currentIndexHtml()) : undefined;
    if (!page) {
      return sendError(request, reply, new AppError('not_found', `No route for ${request.method} ${request.url.split('?')[0]}`));
    }
    const accepted = String(request.headers['accept-encoding'] ?? '');
    const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
    reply
      .status(known ? 200 : 404)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding');
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(encoding === 'br' ? page.brotli : encoding === 'gzip' ? page.gzip : page.html);
  };
  // The static plugin would answer the root directory itself (403); the root is the home page.
  app.get('/', { schema: { hide: true } }, serveAppOrNotFound);
  app.setNotFoundHandler(serveAppOrNotFound);
}
