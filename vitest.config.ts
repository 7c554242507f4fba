import { defineConfig } from 'vitest/config';

/**
 * One runner for the whole repository. Projects: the lint rules' own checks, the shared contracts, the API (real databases),
 * the fault and attack suites (real server processes), the web components (jsdom) and the browser journeys (Chromium against a started server).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'lint',
          include: ['scripts/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'contracts',
          include: ['packages/contracts/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          include: ['apps/api/src/**/*.test.ts'],
          exclude: ['apps/api/src/faults/**'],
          environment: 'node',
          globalSetup: ['apps/api/src/test/global-setup.ts'],
          // The suites share no module state that matters (each opens its own database and app), so
          // one module registry per worker saves importing Fastify, PGlite and the app once per file.
          isolate: false,
          // A minute is plenty alone; beside the other two runs on a 2-core machine a test takes two
          // to five times as long (decisions 083 and 084).
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The fault and attack suites (faults/): each starts real server processes (and, for the
        // bank test, a PostgreSQL cluster of its own) to kill, restart and attack over a socket.
        test: {
          name: 'faults',
          include: ['apps/api/src/faults/**/*.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 180_000,
        },
      },
      './apps/web/vitest.config.ts',
      {
        test: {
          name: 'e2e',
          include: ['apps/web/e2e/**/*.e2e.ts'],
          environment: 'node',
          globalSetup: ['apps/web/e2e/global-setup.ts'],
          // A journey that takes 20 s alone took more than 60 s beside the other suites on a 2-core
          // machine (the identity journey's bad sign-up input, in a CI run).
          testTimeout: 180_000,
          hookTimeout: 120_000,
          // expect.poll gives up after 1 s by default: a page that was still loading beside the other
          // suites failed the bill-pay journey. A poll waits as long as a Playwright wait
          // (actionTimeoutMs in e2e/support/browser.ts; decision 084).
          expect: { poll: { timeout: 60_000, interval: 100 } },
          fileParallelism: false,
        },
      },
    ],
  },
});
