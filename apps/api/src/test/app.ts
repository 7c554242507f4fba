import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { build, type AppDependencies } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { createOutboxMailer } from '../platform/messaging/mailer.ts';
import { createOutboxSmsSender } from '../platform/messaging/sms-sender.ts';

/** A built web app stand-in, so the server's page serving can be tested without Vite. */
export async function fakeWebDist(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), 'strongroom-web-'));
  await mkdir(path.join(directory, 'assets'));
  await writeFile(
    path.join(directory, 'index.html'),
    '<!doctype html><html lang="en"><head><title>%BANK_NAME%</title><meta name="bank-mode" content="%BANK_MODE%"><meta name="bank-time-zone" content="%BANK_TIME_ZONE%"></head><body><div id="root"></div></body></html>',
  );
  await writeFile(path.join(directory, 'assets', 'app-abc123.js'), 'console.log("app")');
  await writeFile(path.join(directory, 'robots.txt'), 'User-agent: *\nAllow: /\n');
  await mkdir(path.join(directory, 'prerendered', 'sandbox'), { recursive: true });
  await writeFile(
    path.join(directory, 'prerendered', 'sandbox', 'savings.html'),
    '<!doctype html><html lang="en"><head><title>Savings | %BANK_NAME%</title></head><body><div id="root"><h1>Savings accounts</h1></div></body></html>',
  );
  return directory;
}

export async function testConfig(environment: Record<string, string> = {}): Promise<Config> {
  const dataDirectory = await mkdtemp(path.join(tmpdir(), 'strongroom-data-'));
  return loadConfig({ DATA_DIR: dataDirectory, LOG_LEVEL: 'info', WEB_DIST_DIR: await fakeWebDist(), ...environment });
}

/** Collects every log line the app writes, to assert on what is (and is not) logged. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text(): string {
    return this.lines.join('\n');
  }
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  logs: LogCapture;
}

/** How a test app differs from the default: its environment, dependencies (a clock) and hooks added before it is ready. */
export interface TestAppOptions {
  environment?: Record<string, string>;
  dependencies?: Partial<AppDependencies>;
  beforeReady?: (app: FastifyInstance) => void;
}

export async function buildTestApp(db: Database, options: TestAppOptions = {}): Promise<TestApp> {
  const config = await testConfig(options.environment);
  const logs = new LogCapture();
  const app = await build(config, { db, logStream: logs, ...options.dependencies });
  options.beforeReady?.(app);
  await app.ready();
  return { app, config, logs };
}

/** What a production-mode config needs to load, every address unreachable: for tests of what production refuses or hides. */
export const productionEnvironment: Readonly<Record<string, string>> = {
  BANK_MODE: 'production',
  DATABASE_URL: 'postgres://unused.invalid/db',
  SESSION_SECRET: Buffer.alloc(32, 1).toString('base64'),
  ENCRYPTION_KEY: Buffer.alloc(32, 2).toString('base64'),
  SMTP_URL: 'smtp://unused.invalid',
  SMS_URL: 'https://unused.invalid/sms',
};

/** The options of a production-mode test app on `db`: `productionEnvironment`, with mail and SMS kept in the outbox where a test reads them. */
export function productionAppOptions(db: Database, options: TestAppOptions = {}): TestAppOptions {
  return {
    ...options,
    environment: { ...productionEnvironment, ...options.environment },
    dependencies: { mailer: createOutboxMailer(db), sms: createOutboxSmsSender(db), ...options.dependencies },
  };
}
