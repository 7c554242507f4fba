import axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { startServerForJourney } from './server.ts';

/** Chromium flags for a container: no sandbox, no GPU, and no traffic to Google's services. */
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Desktop and phone widths the journeys use (the phone is an iPhone 12-14 class screen). */
export const viewports = {
  desktop: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

/** A bank of this journey file's own (`useOwnServer`), instead of the one every journey shares. */
let ownServer: { baseUrl: string; dataDirectory: string } | undefined;

export function baseUrl(): string {
  return ownServer?.baseUrl ?? inject('baseUrl');
}

/** The running server's DATA_DIR: where its ops door's token is. */
export function dataDirectory(): string {
  return ownServer?.dataDirectory ?? inject('dataDirectory');
}

/**
 * Starts a sandbox of this journey file's own for its tests, and stops it after: for a journey
 * that changes the whole bank (the end-of-day time machine moves every account's month), so that
 * the journeys sharing the other server never see it. Files run one at a time and each has its
 * own modules, so the switch reaches this file's helpers only.
 */
export function useOwnServer(): void {
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const started = await startServerForJourney(inject('webDistDirectory'));
    ownServer = { baseUrl: started.baseUrl, dataDirectory: started.dataDirectory };
    stop = started.stop;
  }, 240_000);
  afterAll(async () => {
    ownServer = undefined;
    await stop?.();
  });
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: inject('chromiumPath'), args: chromiumArgs });
}

/**
 * The suite's Chromium: launched before its tests and closed after them. Call it in a describe
 * block; the getter it returns gives the browser inside tests and hooks.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('The browser is not launched yet: use it inside a test or hook');
    return browser;
  };
}

/** How long a page's action or wait may take unless the journey says otherwise. */
export const actionTimeoutMs = 60_000;

export interface PageOptions {
  viewport?: { width: number; height: number };
  reducedMotion?: 'reduce' | 'no-preference';
}

/**
 * A fresh context (no cookies shared with other tests) and a page in it that fails the test on
 * any uncaught script error or CSP violation, which are otherwise only printed to the console.
 */
export async function openPage(browser: Browser, options: PageOptions = {}): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: options.viewport ?? viewports.desktop,
    reducedMotion: options.reducedMotion ?? 'no-preference',
  });
  // Playwright waits 30 s by default. Beside the other suites on a 2-core machine a journey takes
  // two to five times as long as alone (decision 083).
  context.setDefaultTimeout(actionTimeoutMs);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) problems.push(message.text());
  });
  return { context, page, problems };
}

/**
 * A pre-rendered public page is on screen before the app that makes its buttons and forms work has
 * started: its scripts load after the first paint (decision 047). The footer's address comes from
 * the app's first request, so once it shows, the app runs.
 */
export async function waitForApp(page: Page): Promise<void> {
  await page.getByRole('contentinfo').locator('.site-footer__contact').waitFor();
}

/** The app's transitions last 150 to 250 ms; a check waits for them no longer than this. */
const animationWaitBoundMs = 3_000;

/** axe-core as a page sees it once its source has run there. */
interface PageWithAxe {
  axe?: { run: (context: Document, options: axe.RunOptions) => Promise<axe.AxeResults> };
}

/**
 * Runs axe-core on the page as it is now and fails with a readable list of what it found.
 *
 * axe-core's source goes into the page once per document and stays there across the app's route
 * changes; every check after the first only runs it. (`@axe-core/playwright` evaluated the 1.3 MB
 * source three times a check and opened a blank page to merge the frames' results: half of a
 * journey's Chromium time went there, decision 084. The app has no frames.) Every rule axe-core
 * runs by default is run, as before. (The old way's second or so per check also let transitions end
 * before the contrast was measured; the check now waits for them itself.)
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  // A colour still moving (a button's hover transition under the pointer that just clicked) would
  // be measured halfway: wait for every animation that ends. A spinner's never does; it is left.
  // The wait is bounded: an animation whose timeline stops advancing never finishes, and an
  // unbounded wait in the page has no Playwright timeout, so a journey would hang until its own
  // limit without saying where (a full run lost 240 s so, at an unnamed step).
  await page.evaluate(
    (boundMs) =>
      Promise.race([
        Promise.all(
          document
            .getAnimations()
            .filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime ?? Infinity)))
            .map((animation) => animation.finished.catch(() => undefined)),
        ),
        new Promise((resolve) => setTimeout(resolve, boundMs)),
      ]),
    animationWaitBoundMs,
  );
  if (!(await page.evaluate(() => typeof (window as PageWithAxe).axe?.run === 'function'))) await page.evaluate(axe.source);
  const results = await page.evaluate(async () => {
    const { axe: pageAxe } = window as PageWithAxe;
    if (!pageAxe) throw new Error('axe-core is not in the page: it navigated between the injection and the check');
    const { violations } = await pageAxe.run(document, { resultTypes: ['violations'] });
    return violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map(({ target, failureSummary }) => ({ target: target.map(String), failureSummary })),
    }));
  });
  const summary = results.map(
    (violation) =>
      `${violation.id} (${violation.impact ?? 'unknown'}): ${violation.help}\n` +
      violation.nodes.map((node) => `    ${node.target.join(' ')}: ${node.failureSummary ?? ''}`).join('\n'),
  );
  expect(summary, `axe found violations on ${page.url()}`).toEqual([]);
}
