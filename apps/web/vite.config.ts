import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { marketingPagePaths } from './src/app/marketing-pages.ts';

const apiOrigin = 'http://127.0.0.1:3000';

/** Constants the code reads at build time; the pre-rendering builds with the same (src/build-constants.d.ts). */
export const buildConstants = { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) };

/**
 * The production server fills `%BANK_NAME%`, `%BANK_MODE%` and `%BANK_TIME_ZONE%` in index.html
 * when it serves it. The dev server has no such step, so this fills them with the sandbox defaults,
 * in dev only: a build must keep the placeholders for the server to replace.
 */
function devBankPlaceholders(): Plugin {
  return {
    name: 'strongroom-dev-bank-placeholders',
    apply: 'serve',
    transformIndexHtml(html) {
      return html.replaceAll('%BANK_NAME%', 'Strongroom Demo Bank').replaceAll('%BANK_MODE%', 'sandbox').replaceAll('%BANK_TIME_ZONE%', 'America/New_York');
    },
  };
}

/**
 * The sitemap protocol requires absolute URLs, and only the operator knows the public address of
 * their bank, so sitemap.xml and robots.txt are written at build time from `SITE_URL`.
 */
function siteFiles(siteUrl: string): Plugin {
  const origin = new URL(siteUrl).origin;
  return {
    name: 'strongroom-site-files',
    apply: 'build',
    generateBundle() {
      const urls = marketingPagePaths.map((path) => `  <url><loc>${origin}${path}</loc></url>`).join('\n');
      this.emitFile({
        type: 'asset',
        fileName: 'sitemap.xml',
        source: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
      });
      this.emitFile({
        type: 'asset',
        fileName: 'robots.txt',
        source: ['User-agent: *', 'Allow: /', 'Disallow: /api/', 'Disallow: /dev/', 'Disallow: /ops', '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n'),
      });
    },
  };
}

const compressibleFile = /\.(js|css|svg|xml|txt|json)$/;
/** Compressing saves nothing worth a second request's work below this size. */
const compressionThresholdBytes = 1_024;

/**
 * Writes a .br and a .gz beside each text asset once, at build time, so the server sends the
 * smallest one the browser accepts without compressing on every request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'strongroom-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const { readdir, readFile, writeFile } = await import('node:fs/promises');
      const path = await import('node:path');
      const zlib = await import('node:zlib');
      const root = path.resolve(import.meta.dirname, outDir);
      for (const entry of await readdir(root, { recursive: true })) {
        const file = path.join(root, entry);
        if (!compressibleFile.test(file)) continue;
        const content = await readFile(file);
        if (content.length < compressionThresholdBytes) continue;
        await writeFile(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
        await writeFile(`${file}.br`, zlib.brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

/**
 * A pre-rendered page paints from its HTML and stylesheet alone, so its scripts should not compete
 * with them for a slow link: this drops the `modulepreload` hints from the page's template and
 * swaps the app's entry script for a small one (written to assets/, named by its content) that
 * imports the entry once the page has painted. The app then adopts the painted page (main.tsx).
 */
async function startAppAfterFirstPaint(root: string, template: string): Promise<string> {
  const { createHash } = await import('node:crypto');
  const { writeFile } = await import('node:fs/promises');
  const path = await import('node:path');
  const entryTag = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>\n?/.exec(template);
  if (!entryTag?.[1]) throw new Error('index.html has no module entry script to defer');
  // The first animation frame comes when the browser is about to paint; the timeout after it, once it has.
  const loader = `requestAnimationFrame(() => setTimeout(() => import(${JSON.stringify(entryTag[1])})));\n`;
  const loaderFile = `assets/start-after-paint-${createHash('sha256').update(loader).digest('hex').slice(0, 8)}.js`;
  await writeFile(path.join(root, loaderFile), loader);
  return template
    .replace(entryTag[0], '')
    .replaceAll(/ *<link rel="modulepreload"[^>]*>\n?/g, '')
    .replace('</head>', `  <script type="module" src="/${loaderFile}"></script>\n  </head>`);
}

/**
 * Renders each marketing page once per mode at build time into `dist/prerendered/<mode>/`, so the
 * server can send a page whose first paint needs no JavaScript. The browser app then renders over
 * it (not hydration: the markup is the same, and a mismatch could never log an error).
 */
function prerenderMarketingPages(): Plugin {
  let outDir = 'dist';
  return {
    name: 'strongroom-prerender',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const { mkdtemp, mkdir, readFile, rm, writeFile } = await import('node:fs/promises');
      const path = await import('node:path');
      const { pathToFileURL } = await import('node:url');
      const { build } = await import('vite');
      const root = path.resolve(import.meta.dirname, outDir);
      // Inside the project, so the bundle's imports of react and react-dom resolve from node_modules.
      const cacheDirectory = path.join(import.meta.dirname, 'node_modules', '.cache');
      await mkdir(cacheDirectory, { recursive: true });
      const serverBundle = await mkdtemp(path.join(cacheDirectory, 'prerender-'));
      try {
        await build({
          configFile: false,
          root: import.meta.dirname,
          logLevel: 'warn',
          plugins: [react()],
          define: buildConstants,
          build: { ssr: 'src/prerender.tsx', outDir: serverBundle, emptyOutDir: true, rolldownOptions: { output: { entryFileNames: 'prerender.mjs' } } },
        });
        const { renderMarketingPage } = (await import(pathToFileURL(path.join(serverBundle, 'prerender.mjs')).href)) as {
          renderMarketingPage: (page: string, mode: 'sandbox' | 'production') => string;
        };
        const template = await startAppAfterFirstPaint(root, await readFile(path.join(root, 'index.html'), 'utf8'));
        for (const mode of ['sandbox', 'production'] as const) {
          await mkdir(path.join(root, 'prerendered', mode), { recursive: true });
          for (const page of marketingPagePaths) {
            const markup = renderMarketingPage(page, mode);
            // React puts the page's <title> and description first in the markup; they belong in
            // the head, in place of the generic ones (still marked for main.tsx to replace).
            const title = /<title>([\s\S]*?)<\/title>/.exec(markup)?.[1];
            const description = /<meta name="description" content="([^"]*)"\/>/.exec(markup)?.[1];
            const body = markup.replace(/<title>[\s\S]*?<\/title>/, '').replace(/<meta name="description" content="[^"]*"\/>/, '');
            let html = template.replace('<div id="root"></div>', `<div id="root">${body}</div>`);
            if (title) html = html.replace(/<title data-fallback>[\s\S]*?<\/title>/, `<title data-fallback>${title}</title>`);
            if (description)
              html = html.replace(
                /<meta data-fallback name="description" content="[^"]*" \/>/,
                `<meta data-fallback name="description" content="${description}" />`,
              );
            await writeFile(path.join(root, 'prerendered', mode, `${page === '/' ? 'index' : page.slice(1)}.html`), html);
          }
        }
      } finally {
        await rm(serverBundle, { recursive: true, force: true });
      }
    },
  };
}

export default defineConfig(() => {
  return {
    define: buildConstants,
    plugins: [react(), devBankPlaceholders(), siteFiles(process.env.SITE_URL ?? 'http://localhost:3000'), precompress(), prerenderMarketingPages()],
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      // Inlined assets would become data: URLs; every asset ships as a file of this origin instead.
      assetsInlineLimit: 0,
      // One stylesheet: on a slow phone link every render-blocking request costs a round trip,
      // and all the app's CSS together is smaller than the round trips it saves.
      cssCodeSplit: false,
      rolldownOptions: {
        output: {
          // Chunks named after what they hold, so a size report reads at a glance. Only `react`
          // is on every page; the others load with the signed-in area, sign-in or the contact form.
          codeSplitting: {
            groups: [
              { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
              { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
              { name: 'tanstack-query', test: /node_modules[\\/]@tanstack[\\/]/ },
              { name: 'react-hook-form', test: /node_modules[\\/](react-hook-form|@hookform)[\\/]/ },
            ],
          },
        },
      },
    },
    server: {
      proxy: { '/api': apiOrigin, '/metrics': apiOrigin },
    },
    preview: {
      proxy: { '/api': apiOrigin, '/metrics': apiOrigin },
    },
  };
});
