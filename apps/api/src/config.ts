import { hkdfSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { isValidRoutingNumber } from '@strongroom/contracts/money-input.ts';
import { bankModeSchema, type BankMode } from '@strongroom/contracts/platform.ts';

/**
 * The environment, parsed once at boot. Everything the server and the ops CLI can be switched by is
 * here and in docs/operations.md; nothing else reads process.env.
 */
const unsetWhenEmpty = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(unsetWhenEmpty, schema.optional());
const withDefault = <T extends z.ZodType>(schema: T, fallback: z.input<T>) => z.preprocess(unsetWhenEmpty, schema.prefault(fallback as never));

const secretKeyBytes = 32;
const base64Key = z
  .string()
  .trim()
  .refine((value) => Buffer.from(value, 'base64').length === secretKeyBytes, {
    error: `must be ${secretKeyBytes} random bytes, base64-encoded (openssl rand -base64 ${secretKeyBytes})`,
  });

const booleanText = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
/** A number of seconds, or `off` (docs/product.md section 6: KYC_AUTO_APPROVE_SECONDS, CARD_AUTO_APPROVE_SECONDS). */
const autoApproveText = z.union([z.literal('off'), z.coerce.number().int().min(0).max(86_400)]);

/** More proxies in a row than this is a misreading of the setting, not a real deployment. */
const maximumProxyHops = 16;
/** Names Fastify's trustProxy (proxy-addr) knows for whole private ranges. */
const proxyRangeNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (proxyRangeNames.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

/**
 * Which proxies to believe about the client's address and protocol (decision 020). Only the hops
 * the operator declares are trusted, counted from the server: `false` or `0` none; a number, that
 * many proxies; a comma-separated list of proxy addresses or CIDR ranges. `true` means one proxy,
 * the setup the README described for it; trusting every hop would let a client pick its address
 * by writing the left-most X-Forwarded-For entry itself.
 */
const trustProxyText = z
  .string()
  .trim()
  .transform((value, context): false | number | string[] => {
    if (value === 'false' || value === '0') return false;
    if (value === 'true') return 1;
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= maximumProxyHops) return hops;
      context.addIssue({ code: 'custom', message: `must be at most ${maximumProxyHops} proxies` });
      return z.NEVER;
    }
    const entries = value.split(',').map((entry) => entry.trim());
    const wrong = entries.filter((entry) => !isProxyAddress(entry));
    if (wrong.length === 0) return entries;
    context.addIssue({
      code: 'custom',
      message: `must be false, a number of proxies, or proxy addresses or CIDR ranges separated by commas (not: ${wrong.join(', ')})`,
    });
    return z.NEVER;
  });

/** More workers than this on one machine is a misreading of the setting (each holds a pool of connections). */
const maximumWorkers = 64;

const environmentSchema = z.object({
  PORT: withDefault(z.coerce.number().int().min(0).max(65_535), 3000),
  HOST: withDefault(z.string(), '127.0.0.1'),
  /** Sandbox only: serve it beyond this machine anyway (HOST not loopback), /dev routes and all. */
  SANDBOX_ALLOW_NETWORK: withDefault(booleanText, 'false'),
  DATA_DIR: withDefault(z.string(), './data'),
  DATABASE_URL: optional(z.string().regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// connection URL' })),
  /** A replica's (or HAProxy's read port's) URL: statements, history pages and the data export may read there (docs/deploy.md). */
  READ_DATABASE_URL: optional(z.string().regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// connection URL' })),
  BANK_MODE: withDefault(bankModeSchema, 'sandbox'),
  BANK_NAME: withDefault(z.string().trim().min(1).max(80), 'Strongroom Demo Bank'),
  /** The bank's time zone: its business day, statements and deadlines (BANK_TIMEZONE is the older spelling, still read). */
  BANK_TIME_ZONE: withDefault(
    z.string().refine((zone) => Intl.supportedValuesOf('timeZone').includes(zone) || zone === 'UTC', {
      error: 'must be an IANA time zone such as UTC or America/New_York',
    }),
    'America/New_York',
  ),
  /** The ACH cut-off, bank time (issue 33): a payment dated today made after it goes on the next business day. */
  ACH_CUTOFF: withDefault(
    z
      .string()
      .trim()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'must be a time of day as HH:MM (24-hour, bank time), such as 17:00' }),
    '17:00',
  ),
  PUBLIC_URL: optional(z.url({ protocol: /^https?$/ })),
  SESSION_SECRET: optional(base64Key),
  ENCRYPTION_KEY: optional(base64Key),
  METRICS_TOKEN: optional(z.string().min(16, { error: 'must be at least 16 characters' })),
  SMTP_URL: optional(z.string().regex(/^smtps?:\/\//, { error: 'must be an smtp:// or smtps:// URL' })),
  MAIL_FROM: optional(z.string().min(3)),
  SMS_URL: optional(z.url({ protocol: /^https?$/ })),
  SMS_TOKEN: optional(z.string().min(1)),
  SMS_FROM: optional(z.string().min(1)),
  S3_BUCKET: optional(z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: 'must be an S3 bucket name' })),
  S3_REGION: withDefault(z.string().min(1), 'us-east-1'),
  S3_ENDPOINT: optional(z.url({ protocol: /^https?$/ })),
  S3_ACCESS_KEY_ID: optional(z.string().min(1)),
  S3_SECRET_ACCESS_KEY: optional(z.string().min(1)),
  S3_FORCE_PATH_STYLE: withDefault(booleanText, 'false'),
  RAIL_SPEED: optional(z.enum(['realistic', 'fast', 'instant'])),
  REVIEW_SINGLE_TRANSFER_CENTS: withDefault(z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER), '1000000'),
  REVIEW_NEW_PAYEE_DAILY_CENTS: withDefault(z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER), '300000'),
  KYC_AUTO_APPROVE_SECONDS: optional(autoApproveText),
  CARD_AUTO_APPROVE_SECONDS: optional(autoApproveText),
  /** Card data keys (docs/decisions/026-cards.md); by default derived from ENCRYPTION_KEY. */
  CARD_DATA_KEY: optional(base64Key),
  CARD_CVV_KEY: optional(base64Key),
  FOUR_EYES_CENTS: withDefault(z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER), '5000000'),
  /** Money requests per customer per minute (docs/product.md section 6); at least 20, the burst a customer's app may send. */
  MONEY_RATE_LIMIT_PER_MINUTE: withDefault(z.coerce.number().int().min(20).max(1_000_000), '120'),
  DEPOSIT_DAILY_LIMIT_CENTS: withDefault(z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER), '500000'),
  DEPOSIT_NEW_CUSTOMER_DAILY_LIMIT_CENTS: optional(z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER)),
  ACH_DESTINATION_ROUTING: withDefault(z.string().refine(isValidRoutingNumber, { error: 'must be a 9-digit ABA routing number' }), '011000015'),
  ACH_DESTINATION_NAME: withDefault(z.string().trim().min(1).max(23), 'FEDERAL RESERVE BANK'),
  ACH_COMPANY_ID: optional(z.string().regex(/^[0-9A-Za-z ]{1,10}$/, { error: 'must be at most 10 letters or digits' })),
  LOG_LEVEL: withDefault(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  TRUST_PROXY: withDefault(trustProxyText, 'false'),
  WEB_DIST_DIR: optional(z.string()),
  /** Worker processes serving one port (docs/product.md section 6); more than one needs DATABASE_URL. */
  WEB_CONCURRENCY: withDefault(z.coerce.number().int().min(1).max(maximumWorkers), '1'),
  /** PostgreSQL connections per API process (db/postgres.ts); ignored by the embedded database. */
  DATABASE_POOL_SIZE: withDefault(z.coerce.number().int().min(2).max(500), '20'),
});

export interface Config {
  port: number;
  host: string;
  /**
   * A sandbox listening beyond loopback, which SANDBOX_ALLOW_NETWORK allowed: its /dev routes (the
   * outbox's codes and links, the admin's sign-in, the card network) are open to that network, and
   * the start says so loudly (`sandboxNetworkWarning`).
   */
  sandboxOnNetwork: boolean;
  dataDirectory: string;
  databaseUrl?: string;
  /**
   * READ_DATABASE_URL (only with DATABASE_URL): where the reads that tolerate a replica go, each
   * after checking the replica has replayed the customer's own last write (db/replica-reads.ts).
   */
  readDatabaseUrl?: string;
  mode: BankMode;
  bankName: string;
  bankTimeZone: string;
  /** ACH_CUTOFF, "HH:MM" in the bank's time zone: today's payments leave today until then, the next business day after. */
  achCutoff: string;
  publicUrl: string;
  secrets: { sessionSecret: Buffer; encryptionKey: Buffer };
  metricsToken?: string;
  mail: { smtpUrl?: string; from: string };
  sms: { url?: string; token?: string; from?: string };
  /** Uploaded files go to this bucket when set, otherwise to DATA_DIR/uploads. */
  s3?: { bucket: string; region: string; endpoint?: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean };
  /** realistic: ACH 3-5 business days, wire within 24 h; fast: seconds (sandbox default); instant. */
  railSpeed: 'realistic' | 'fast' | 'instant';
  /** Review-hold rules (docs/product.md D1): see modules/payments/review-rules.ts. */
  reviewRules: { singleTransferCents: bigint; newPayeeDailyCents: bigint };
  /** Sandbox only: seconds before an identity document approves itself; undefined is off (production always). */
  kycAutoApproveSeconds?: number;
  /** Sandbox only: seconds before a card request approves itself; undefined is off (production always). */
  cardAutoApproveSeconds?: number;
  /**
   * Card data (D9): `pan` encrypts card numbers (AES-256-GCM), `lookup` hashes them to find a card
   * by its number (HMAC-SHA-256), `cvv` derives the security code on reveal. Three separate keys.
   */
  cardKeys: { pan: Buffer; lookup: Buffer; cvv: Buffer };
  /** A held transfer of this many cents or more needs two different staff members to release it. */
  fourEyesCents: bigint;
  /** MONEY_RATE_LIMIT_PER_MINUTE: payments and loan requests one customer may send a minute. */
  moneyRateLimitPerMinute: number;
  /**
   * Deposits pulled from other banks (docs/product.md section 6): per customer per day in the bank's
   * time zone, pending and cleared together; customers whose accounts opened in the last 30 days
   * may have a lower allowance (equal to the daily one unless set).
   */
  deposits: { dailyLimitCents: bigint; newCustomerDailyLimitCents: bigint };
  /** What the NACHA file names: the ACH operator it goes to and the bank as originator. */
  ach: { destinationRoutingNumber: string; destinationName: string; companyId: string };
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Fastify's trustProxy: no proxy, a number of proxy hops, or the proxies' addresses. */
  trustProxy: false | number | string[];
  webDistDirectory: string;
  /** WEB_CONCURRENCY: API processes (node:cluster workers) sharing the port; 1 runs no cluster. */
  webConcurrency: number;
  /** DATABASE_POOL_SIZE: PostgreSQL connections each API process opens at most, besides one for live events. */
  databasePoolSize: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`The server cannot start:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Production never invents secrets or falls back to the embedded database. */
const requiredInProduction = ['DATABASE_URL', 'SESSION_SECRET', 'ENCRYPTION_KEY', 'SMTP_URL', 'SMS_URL'] as const;

const defaultWebDistDirectory = path.resolve(import.meta.dirname, '../../web/dist');

export async function loadConfig(environment: Record<string, string | undefined>): Promise<Config> {
  const { BANK_TIMEZONE: olderTimeZoneName, ...rest } = environment;
  const parsed = environmentSchema.safeParse({ ...rest, BANK_TIME_ZONE: environment.BANK_TIME_ZONE ?? olderTimeZoneName });
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const env = parsed.data;
  if (env.BANK_MODE === 'production') {
    const missing = requiredInProduction.filter((name) => env[name] === undefined);
    if (missing.length > 0) {
      throw new ConfigError(missing.map((name) => `${name} is required when BANK_MODE=production`));
    }
  }
  const sandboxOnNetwork = env.BANK_MODE === 'sandbox' && !isLoopbackHost(env.HOST);
  if (sandboxOnNetwork && !env.SANDBOX_ALLOW_NETWORK) {
    throw new ConfigError([
      `HOST=${env.HOST} would open the sandbox to a network, and with it /dev/outbox (every code and link the bank sends), /dev/staff-sign-in (the admin's password and code) and /dev/card-network: listen on 127.0.0.1, or set SANDBOX_ALLOW_NETWORK=true if everyone who can reach ${env.HOST} may sign in as anyone`,
    ]);
  }
  if (env.WEB_CONCURRENCY > 1 && env.DATABASE_URL === undefined) {
    throw new ConfigError([
      `WEB_CONCURRENCY=${env.WEB_CONCURRENCY} needs DATABASE_URL: the embedded database (PGlite) keeps its data directory for one process; set WEB_CONCURRENCY=1 or use PostgreSQL`,
    ]);
  }
  if (env.READ_DATABASE_URL !== undefined && env.DATABASE_URL === undefined) {
    throw new ConfigError([
      'READ_DATABASE_URL needs DATABASE_URL: it names a replica of the PostgreSQL the bank writes to, and the embedded database (PGlite) has none',
    ]);
  }
  const dataDirectory = path.resolve(env.DATA_DIR);
  const secrets =
    env.SESSION_SECRET && env.ENCRYPTION_KEY
      ? { sessionSecret: Buffer.from(env.SESSION_SECRET, 'base64'), encryptionKey: Buffer.from(env.ENCRYPTION_KEY, 'base64') }
      : await sandboxSecrets(dataDirectory, env.SESSION_SECRET, env.ENCRYPTION_KEY);

  return {
    port: env.PORT,
    host: env.HOST,
    sandboxOnNetwork,
    dataDirectory,
    databaseUrl: env.DATABASE_URL,
    readDatabaseUrl: env.READ_DATABASE_URL,
    mode: env.BANK_MODE,
    bankName: env.BANK_NAME,
    bankTimeZone: env.BANK_TIME_ZONE,
    achCutoff: env.ACH_CUTOFF,
    publicUrl: (env.PUBLIC_URL ?? defaultPublicUrl(env.HOST, env.PORT)).replace(/\/+$/, ''),
    secrets,
    metricsToken: env.METRICS_TOKEN,
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM ?? `${env.BANK_NAME} <no-reply@localhost>` },
    sms: { url: env.SMS_URL, token: env.SMS_TOKEN, from: env.SMS_FROM },
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          region: env.S3_REGION,
          endpoint: env.S3_ENDPOINT,
          accessKeyId: env.S3_ACCESS_KEY_ID,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY,
          forcePathStyle: env.S3_FORCE_PATH_STYLE,
        }
      : undefined,
    railSpeed: env.RAIL_SPEED ?? (env.BANK_MODE === 'sandbox' ? 'fast' : 'realistic'),
    reviewRules: { singleTransferCents: BigInt(env.REVIEW_SINGLE_TRANSFER_CENTS), newPayeeDailyCents: BigInt(env.REVIEW_NEW_PAYEE_DAILY_CENTS) },
    // The sandbox approves identity documents by itself after a few seconds; production waits for staff.
    kycAutoApproveSeconds: env.BANK_MODE !== 'sandbox' || env.KYC_AUTO_APPROVE_SECONDS === 'off' ? undefined : (env.KYC_AUTO_APPROVE_SECONDS ?? 5),
    // Likewise card requests (CARD_AUTO_APPROVE_SECONDS); production never approves a card by itself.
    cardAutoApproveSeconds: env.BANK_MODE !== 'sandbox' || env.CARD_AUTO_APPROVE_SECONDS === 'off' ? undefined : (env.CARD_AUTO_APPROVE_SECONDS ?? 10),
    cardKeys: cardKeysOf(secrets.encryptionKey, env.CARD_DATA_KEY, env.CARD_CVV_KEY),
    fourEyesCents: BigInt(env.FOUR_EYES_CENTS),
    moneyRateLimitPerMinute: env.MONEY_RATE_LIMIT_PER_MINUTE,
    deposits: {
      dailyLimitCents: BigInt(env.DEPOSIT_DAILY_LIMIT_CENTS),
      newCustomerDailyLimitCents: BigInt(Math.min(env.DEPOSIT_NEW_CUSTOMER_DAILY_LIMIT_CENTS ?? env.DEPOSIT_DAILY_LIMIT_CENTS, env.DEPOSIT_DAILY_LIMIT_CENTS)),
    },
    ach: {
      destinationRoutingNumber: env.ACH_DESTINATION_ROUTING,
      destinationName: env.ACH_DESTINATION_NAME,
      companyId: env.ACH_COMPANY_ID ?? `1${businessConstants.bankRoutingNumber}`,
    },
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    webDistDirectory: env.WEB_DIST_DIR ? path.resolve(env.WEB_DIST_DIR) : defaultWebDistDirectory,
    webConcurrency: env.WEB_CONCURRENCY,
    databasePoolSize: env.DATABASE_POOL_SIZE,
  };
}

/**
 * Card keys: CARD_DATA_KEY and CARD_CVV_KEY when given; otherwise each is derived from
 * ENCRYPTION_KEY with HKDF-SHA-256 under its own label, so the three never coincide and a
 * deployment that sets only ENCRYPTION_KEY (and every sandbox) still has separate keys.
 */
function cardKeysOf(encryptionKey: Buffer, dataKey?: string, cvvKey?: string): Config['cardKeys'] {
  const derive = (root: Buffer, label: string) => Buffer.from(hkdfSync('sha256', root, Buffer.alloc(0), `strongroom ${label}`, secretKeyBytes));
  const dataRoot = dataKey ? Buffer.from(dataKey, 'base64') : derive(encryptionKey, 'card data');
  return {
    pan: derive(dataRoot, 'card number encryption'),
    lookup: derive(dataRoot, 'card number lookup'),
    cvv: cvvKey ? Buffer.from(cvvKey, 'base64') : derive(encryptionKey, 'card verification value'),
  };
}

/**
 * A sandbox invents its secrets on first start and keeps them beside its data, so sessions and
 * encrypted files survive a restart. Production refuses to start without real ones (above).
 */
async function sandboxSecrets(dataDirectory: string, sessionSecret?: string, encryptionKey?: string) {
  const file = path.join(dataDirectory, 'sandbox-secrets.json');
  const stored = await readFile(file, 'utf8')
    .then((text) => z.object({ sessionSecret: z.string(), encryptionKey: z.string() }).parse(JSON.parse(text)))
    .catch(() => undefined);
  const secrets = stored ?? {
    sessionSecret: randomBytes(secretKeyBytes).toString('base64'),
    encryptionKey: randomBytes(secretKeyBytes).toString('base64'),
  };
  if (!stored) {
    await mkdir(dataDirectory, { recursive: true, mode: 0o700 });
    await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return {
    sessionSecret: Buffer.from(sessionSecret ?? secrets.sessionSecret, 'base64'),
    encryptionKey: Buffer.from(encryptionKey ?? secrets.encryptionKey, 'base64'),
  };
}

/**
 * Addresses only this machine can reach: the IPv4 loopback network (127.0.0.0/8), IPv6's ::1 (also
 * as an IPv4-mapped address) and `localhost`. Anything else, `0.0.0.0` and `::` first, may be
 * reached from a network.
 */
export function isLoopbackHost(host: string): boolean {
  const address = host.toLowerCase().replace(/^::ffff:/, '');
  return address === 'localhost' || address === '::1' || /^127(\.\d{1,3}){3}$/.test(address);
}

/** What a sandbox open to a network prints at start (to the terminal, before anything else), or nothing. */
export function sandboxNetworkWarning(config: Pick<Config, 'sandboxOnNetwork' | 'host'>): string | undefined {
  if (!config.sandboxOnNetwork) return undefined;
  const rule = '!'.repeat(78);
  return [
    rule,
    `  WARNING: this sandbox listens on ${config.host} (SANDBOX_ALLOW_NETWORK=true): anyone who can reach it`,
    '  can read /dev/outbox (every sign-in code, step-up code and reset link), sign in as the staff',
    '  admin through /dev/staff-sign-in, and make card payments through /dev/card-network.',
    "  Keep real people's data out of it. To close it, unset SANDBOX_ALLOW_NETWORK and use HOST=127.0.0.1.",
    rule,
  ].join('\n');
}

/** Hosts a browser on this machine reaches as `localhost`. */
const loopbackOrAnyHosts = new Set(['127.0.0.1', '::1', 'localhost', '0.0.0.0', '::']);

/**
 * Without PUBLIC_URL, the links in emails and the address the server prints are the same one, so a
 * link from the sandbox inbox opens in the origin the customer is signed in to: `localhost` for a
 * loopback or any-address host, the host itself otherwise.
 */
export function defaultPublicUrl(host: string, port: number): string {
  return addressForBrowser(host, port);
}

/**
 * Where a browser on this machine opens a server listening on host:port. A loopback or any-address
 * bind is spelt `localhost`: passkeys are bound to a domain name, and a browser refuses them at an
 * IP address, so `http://127.0.0.1:3000` would be a bank where passkeys never work.
 */
export function addressForBrowser(host: string, port: number): string {
  if (loopbackOrAnyHosts.has(host)) return `http://localhost:${port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
