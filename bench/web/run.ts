/**
 * `npm run bench:web`: builds the web app, starts the real server, and runs Lighthouse 12 in its
 * default (mobile) mode on the public pages with Debian's Chromium. Reports the four category
 * scores and the JavaScript and CSS transferred per page, and appends them to bench/RESULTS.md.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFile, mkdtemp, readFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const root = path.resolve(import.meta.dirname, '../..');
const pages = ['/', '/savings', '/cards', '/faq', '/contact'];
const targets = { performance: 98, accessibility: 100, 'best-practices': 100, seo: 100 } as const;
const publicJavaScriptBudgetBytes = 110 * 1024;
const chromeFlags = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface PageResult {
  page: string;
  scores: Record<keyof typeof targets, number>;
  javaScriptBytes: number;
  cssBytes: number;
}

async function startServer(): Promise<{ url: string; stop: () => void }> {
  const dataDirectory = await mkdtemp(path.join(tmpdir(), 'strongroom-bench-web-'));
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', PORT: '0', DATA_DIR: dataDirectory, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    server.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /is open at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    server.on('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
  return { url, stop: () => server.kill('SIGTERM') };
}

async function measure(url: string, port: number, page: string): Promise<PageResult> {
  const result = await lighthouse(`${url}${page}`, { port, output: 'json', logLevel: 'error' });
  if (!result) throw new Error(`Lighthouse gave no result for ${page}`);
  const { lhr } = result;
  const score = (id: keyof typeof targets) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const requests = (lhr.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
  const bytesOf = (type: string) => requests.filter((item) => item.resourceType === type).reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
  return {
    page,
    scores: { performance: score('performance'), accessibility: score('accessibility'), 'best-practices': score('best-practices'), seo: score('seo') },
    javaScriptBytes: bytesOf('Script'),
    cssBytes: bytesOf('Stylesheet'),
  };
}

function kilobytes(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

async function main(): Promise<void> {
  const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    cwd: path.join(root, 'apps/web'),
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) throw new Error('the web app did not build');
  const server = await startServer();
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', chromeFlags });
  const results: PageResult[] = [];
  try {
    for (const page of pages) {
      const measured = await measure(server.url, chrome.port, page);
      results.push(measured);
      process.stdout.write(
        `${page.padEnd(10)} ${JSON.stringify(measured.scores)} JS ${kilobytes(measured.javaScriptBytes)} CSS ${kilobytes(measured.cssBytes)}\n`,
      );
    }
  } finally {
    chrome.kill();
    server.stop();
  }

  const misses = results.flatMap((result) => [
    ...Object.entries(targets)
      .filter(([id, target]) => result.scores[id as keyof typeof targets] < target)
      .map(([id, target]) => `${result.page} ${id} ${result.scores[id as keyof typeof targets]} < ${target}`),
    ...(result.javaScriptBytes > publicJavaScriptBudgetBytes ? [`${result.page} JavaScript ${kilobytes(result.javaScriptBytes)} > 110 KB`] : []),
  ]);
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    '',
    `## Web: Lighthouse 12 (mobile) on the public pages, ${new Date().toISOString().slice(0, 10)}`,
    '',
    `Machine: ${cpus().length} cores, ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB; Chromium from ${process.env.CHROME_PATH ?? '/usr/bin/chromium'}; the server on PGlite in sandbox mode.`,
    '',
    '| Page | Performance | Accessibility | Best Practices | SEO | JavaScript (transferred) | CSS (transferred) |',
    '|---|---|---|---|---|---|---|',
    ...results.map(
      (result) =>
        `| ${result.page} | ${result.scores.performance} | ${result.scores.accessibility} | ${result.scores['best-practices']} | ${result.scores.seo} | ${kilobytes(result.javaScriptBytes)} | ${kilobytes(result.cssBytes)} |`,
    ),
    '',
    misses.length === 0
      ? 'Every target met (Performance >= 98, Accessibility, Best Practices and SEO 100, JavaScript <= 110 KB).'
      : `Targets missed: ${misses.join('; ')}.`,
    '',
  ];
  const resultsFile = path.join(root, 'bench/RESULTS.md');
  const existing = await readFile(resultsFile, 'utf8').catch(() => undefined);
  if (existing === undefined) {
    await appendFile(
      resultsFile,
      '# Benchmark results\n\nEach run appends a section with its date and machine. Compare ratios within one run, not absolute figures across runs: the machine is shared and noisy.\n',
    );
  }
  await appendFile(resultsFile, lines.join('\n'));
  process.stdout.write(`${misses.length === 0 ? 'All targets met.' : `Missed: ${misses.join('; ')}`}\nAppended to bench/RESULTS.md\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
