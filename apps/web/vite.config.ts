import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { marketingPagePaths } from './src/app/marketing-pages.ts';

const apiOrigin = 'http://127.0.0.1:3000';

/**
 * The production server fills `%BANK_NAME%` and `%BANK_MODE%` in index.html when it serves it. The
 * dev server has no such step, so this fills them with the sandbox defaults, in dev only: a build
 * must keep the placeholders for the server to replace.
 */
function devBankPlaceholders(): Plugin {
  return {
    name: 'strongroom-dev-bank-placeholders',
    apply: 'serve',
    transformIndexHtml(html) {
      return html.replaceAll('%BANK_NAME%', 'Strongroom Demo Bank').replaceAll('%BANK_MODE%', 'sandbox');
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

export default defineConfig(() => {
  return {
    plugins: [react(), devBankPlaceholders(), siteFiles(process.env.SITE_URL ?? 'http://localhost:3000'), precompress()],
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
