import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { checkLedger } from '../ledger/check-ledger.ts';
import { buildTestApp, type TestApp, type TestAppOptions } from './app.ts';

/** What a suite's kits read: its app, the app's config and the suite's database. */
export interface SuiteContext {
  app: FastifyInstance;
  config: Config;
  db: Database;
}

export interface TestAppSuiteOptions extends TestAppOptions {
  /** After the suite's tests and before the app closes, `check-ledger` must find no violation (every suite that moves money). */
  checkLedger?: boolean;
  /** The database the app is built on when it is not the suite's own, e.g. a recording wrapper of it (test/recording-database.ts). */
  appDatabase?: (db: Database) => Database;
}

/** A suite's options, or a function of the suite's database that answers them. */
export type SuiteOptions = TestAppSuiteOptions | ((db: Database) => TestAppSuiteOptions);

/** `options` with the ledger checked after the suite's tests: the payments and cards suites' default. */
export function withLedgerChecked(options: SuiteOptions): SuiteOptions {
  return (db) => ({ ...(typeof options === 'function' ? options(db) : options), checkLedger: true });
}

/**
 * One test app per suite (decision 068): built on `database()` before the suite's tests and handed
 * to `use` (which keeps what the tests read, and may do the suite's own setup), then, after the
 * tests, the ledger checked if asked and the app closed. Call it inside the suite's describe block
 * (usually `describeEachDatabase`); it answers the suite's context for kits such as `paymentKit`.
 * Hooks the suite declares after it run after the app is built and before it is closed. Options
 * that need the suite's database (dependencies made on it) are given as a function of it.
 */
export function testAppSuite(
  database: () => Database,
  use: (built: TestApp) => unknown = () => undefined,
  suiteOptions: SuiteOptions = {},
): () => SuiteContext {
  let built: TestApp | undefined;
  let ledgerChecked = false;
  beforeAll(async () => {
    const { checkLedger: checked = false, appDatabase, ...options } = typeof suiteOptions === 'function' ? suiteOptions(database()) : suiteOptions;
    ledgerChecked = checked;
    built = await buildTestApp(appDatabase ? appDatabase(database()) : database(), options);
    await use(built);
  });
  afterAll(async () => {
    if (!built) return;
    if (ledgerChecked) expect((await checkLedger(database())).violations).toEqual([]);
    await built.app.close();
  });
  return () => {
    if (!built) throw new Error('The suite has no app yet: use it inside a test or hook');
    return { app: built.app, config: built.config, db: database() };
  };
}
