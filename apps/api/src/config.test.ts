import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, sandboxNetworkWarning } from './config.ts';

const temporaryDirectory = () => mkdtemp(path.join(tmpdir(), 'strongroom-config-'));
const key = (fill: number) => Buffer.alloc(32, fill).toString('base64');

describe('loadConfig', () => {
  it('starts a sandbox on port 3000 with PGlite when nothing is set', async () => {
    const dataDirectory = await temporaryDirectory();
    const config = await loadConfig({ DATA_DIR: dataDirectory });
    expect(config).toMatchObject({
      port: 3000,
      mode: 'sandbox',
      bankName: 'Strongroom Demo Bank',
      railSpeed: 'fast',
      trustProxy: false,
      bankTimeZone: 'America/New_York',
    });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDirectory).toBe(dataDirectory);
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it('links emails to the address it prints: localhost for a loopback or any-address host, the host otherwise, PUBLIC_URL when set', async () => {
    const publicUrl = async (variables: Record<string, string>) =>
      (await loadConfig({ DATA_DIR: await temporaryDirectory(), SANDBOX_ALLOW_NETWORK: 'true', ...variables })).publicUrl;
    expect(await publicUrl({ HOST: '127.0.0.1', PORT: '3100' })).toBe('http://localhost:3100');
    expect(await publicUrl({ HOST: '0.0.0.0' })).toBe('http://localhost:3000');
    expect(await publicUrl({ HOST: '::' })).toBe('http://localhost:3000');
    expect(await publicUrl({ HOST: '192.168.1.20' })).toBe('http://192.168.1.20:3000');
    expect(await publicUrl({ HOST: 'fd00::20' })).toBe('http://[fd00::20]:3000');
    expect(await publicUrl({ HOST: '0.0.0.0', PUBLIC_URL: 'https://bank.example.com/' })).toBe('https://bank.example.com');
  });

  it('refuses to open a sandbox to a network (its /dev routes hold every code and the admin sign-in) unless SANDBOX_ALLOW_NETWORK=true', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'fd00::20', 'bank.example.com']) {
      const attempt = loadConfig({ DATA_DIR: await temporaryDirectory(), HOST: host });
      await expect(attempt, host).rejects.toBeInstanceOf(ConfigError);
      const error = (await attempt.catch((caught: unknown) => caught)) as ConfigError;
      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]).toContain(`HOST=${host} would open the sandbox to a network`);
      expect(error.problems[0]).toContain('SANDBOX_ALLOW_NETWORK=true');
    }
    for (const host of ['127.0.0.1', '127.0.1.1', '::1', '::ffff:127.0.0.1', 'localhost', 'LOCALHOST']) {
      const config = await loadConfig({ DATA_DIR: await temporaryDirectory(), HOST: host });
      expect(config.sandboxOnNetwork, host).toBe(false);
      expect(sandboxNetworkWarning(config), host).toBeUndefined();
    }
  });

  it('opens a sandbox to a network when the operator says so, with a warning that names what is exposed', async () => {
    const config = await loadConfig({ DATA_DIR: await temporaryDirectory(), HOST: '0.0.0.0', SANDBOX_ALLOW_NETWORK: 'true' });
    expect(config.sandboxOnNetwork).toBe(true);
    const warning = sandboxNetworkWarning(config) ?? '';
    expect(warning).toContain('WARNING: this sandbox listens on 0.0.0.0');
    for (const route of ['/dev/outbox', '/dev/staff-sign-in', '/dev/card-network']) expect(warning).toContain(route);
    await expect(loadConfig({ DATA_DIR: await temporaryDirectory(), HOST: '0.0.0.0', SANDBOX_ALLOW_NETWORK: 'yes' })).rejects.toThrow(/SANDBOX_ALLOW_NETWORK/);
  });

  it('serves production on any address: it has no /dev routes', async () => {
    const config = await loadConfig({
      DATA_DIR: await temporaryDirectory(),
      HOST: '0.0.0.0',
      BANK_MODE: 'production',
      DATABASE_URL: 'postgres://bank@db.internal/bank',
      SESSION_SECRET: key(1),
      ENCRYPTION_KEY: key(2),
      SMTP_URL: 'smtp://mail.internal',
      SMS_URL: 'https://sms.example.com/send',
    });
    expect(config.sandboxOnNetwork).toBe(false);
    expect(sandboxNetworkWarning(config)).toBeUndefined();
  });

  it('treats empty variables as unset', async () => {
    const config = await loadConfig({ DATA_DIR: await temporaryDirectory(), PORT: '', DATABASE_URL: ' ', TRUST_PROXY: '' });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
  });

  it('reads TRUST_PROXY as the proxies to believe: none, a number of hops, or their addresses; true is one proxy, never every hop', async () => {
    const trustProxy = async (value: string) => (await loadConfig({ DATA_DIR: await temporaryDirectory(), TRUST_PROXY: value })).trustProxy;
    expect(await trustProxy('false')).toBe(false);
    expect(await trustProxy('0')).toBe(false);
    expect(await trustProxy('true')).toBe(1);
    expect(await trustProxy('2')).toBe(2);
    expect(await trustProxy('10.0.0.2, 192.0.2.0/24,::1,loopback')).toEqual(['10.0.0.2', '192.0.2.0/24', '::1', 'loopback']);
    for (const wrong of ['yes', '10.0.0.300', '10.0.0.0/33', '17', 'proxy.example.com']) {
      await expect(trustProxy(wrong), wrong).rejects.toThrow(/TRUST_PROXY/);
    }
  });

  it('invents sandbox secrets once, keeps them private, and reuses them after a restart', async () => {
    const dataDirectory = await temporaryDirectory();
    const first = await loadConfig({ DATA_DIR: dataDirectory });
    const second = await loadConfig({ DATA_DIR: dataDirectory });
    expect(first.secrets.sessionSecret).toHaveLength(32);
    expect(second.secrets.sessionSecret.equals(first.secrets.sessionSecret)).toBe(true);
    expect(second.secrets.encryptionKey.equals(first.secrets.encryptionKey)).toBe(true);
    const file = path.join(dataDirectory, 'sandbox-secrets.json');
    expect((await stat(file)).mode & 0o077).toBe(0);
    expect(JSON.parse(await readFile(file, 'utf8'))).toHaveProperty('encryptionKey');
  });

  it('refuses production without a database, secrets and mail and SMS, listing every missing one', async () => {
    const attempt = loadConfig({ DATA_DIR: await temporaryDirectory(), BANK_MODE: 'production' });
    await expect(attempt).rejects.toBeInstanceOf(ConfigError);
    const error = (await attempt.catch((caught: unknown) => caught)) as ConfigError;
    expect(error.problems).toEqual([
      'DATABASE_URL is required when BANK_MODE=production',
      'SESSION_SECRET is required when BANK_MODE=production',
      'ENCRYPTION_KEY is required when BANK_MODE=production',
      'SMTP_URL is required when BANK_MODE=production',
      'SMS_URL is required when BANK_MODE=production',
    ]);
  });

  it('starts production when everything is given, and never writes sandbox secrets', async () => {
    const dataDirectory = await temporaryDirectory();
    const config = await loadConfig({
      DATA_DIR: dataDirectory,
      BANK_MODE: 'production',
      DATABASE_URL: 'postgres://bank@db.internal/bank',
      SESSION_SECRET: key(1),
      ENCRYPTION_KEY: key(2),
      SMTP_URL: 'smtps://mailer:pw@smtp.internal',
      SMS_URL: 'https://sms.internal/send',
    });
    expect(config.mode).toBe('production');
    expect(config.secrets.encryptionKey.equals(Buffer.alloc(32, 2))).toBe(true);
    await expect(stat(path.join(dataDirectory, 'sandbox-secrets.json'))).rejects.toThrow();
  });

  it('approves identity documents by itself only in the sandbox: 5 s by default, a number of seconds, or off', async () => {
    const sandbox = async (value?: string) =>
      (await loadConfig({ DATA_DIR: await temporaryDirectory(), ...(value === undefined ? {} : { KYC_AUTO_APPROVE_SECONDS: value }) })).kycAutoApproveSeconds;
    expect(await sandbox()).toBe(5);
    expect(await sandbox('30')).toBe(30);
    expect(await sandbox('off')).toBeUndefined();
    const production = await loadConfig({
      DATA_DIR: await temporaryDirectory(),
      BANK_MODE: 'production',
      DATABASE_URL: 'postgres://bank@db.internal/bank',
      SESSION_SECRET: key(1),
      ENCRYPTION_KEY: key(2),
      SMTP_URL: 'smtps://mailer:pw@smtp.internal',
      SMS_URL: 'https://sms.internal/send',
      KYC_AUTO_APPROVE_SECONDS: '5',
    });
    expect(production.kycAutoApproveSeconds).toBeUndefined();
  });

  it('switches uploads to an S3-compatible bucket when S3_BUCKET is set', async () => {
    const config = await loadConfig({
      DATA_DIR: await temporaryDirectory(),
      S3_BUCKET: 'bank-uploads',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config.s3).toEqual({
      bucket: 'bank-uploads',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      accessKeyId: undefined,
      secretAccessKey: undefined,
    });
    expect((await loadConfig({ DATA_DIR: await temporaryDirectory() })).s3).toBeUndefined();
  });

  it('runs one process by default and WEB_CONCURRENCY workers on PostgreSQL, refusing more than one on the embedded database', async () => {
    const dataDirectory = await temporaryDirectory();
    expect((await loadConfig({ DATA_DIR: dataDirectory })).webConcurrency).toBe(1);
    expect((await loadConfig({ DATA_DIR: dataDirectory, WEB_CONCURRENCY: '1' })).webConcurrency).toBe(1);
    expect((await loadConfig({ DATA_DIR: dataDirectory, WEB_CONCURRENCY: '4', DATABASE_URL: 'postgres://bank@db/bank' })).webConcurrency).toBe(4);
    const refused = await loadConfig({ DATA_DIR: dataDirectory, WEB_CONCURRENCY: '2' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as ConfigError).problems).toEqual([expect.stringMatching(/^WEB_CONCURRENCY=2 needs DATABASE_URL: the embedded database \(PGlite\)/)]);
    for (const wrong of ['0', '-1', '1.5', 'many', '65']) {
      await expect(loadConfig({ DATA_DIR: dataDirectory, WEB_CONCURRENCY: wrong, DATABASE_URL: 'postgres://bank@db/bank' })).rejects.toThrow(/WEB_CONCURRENCY/);
    }
  });

  it('opens 20 PostgreSQL connections per process unless DATABASE_POOL_SIZE says otherwise', async () => {
    const dataDirectory = await temporaryDirectory();
    expect((await loadConfig({ DATA_DIR: dataDirectory })).databasePoolSize).toBe(20);
    expect((await loadConfig({ DATA_DIR: dataDirectory, DATABASE_POOL_SIZE: '8' })).databasePoolSize).toBe(8);
    for (const wrong of ['0', '1', '2.5', 'lots', '501']) {
      await expect(loadConfig({ DATA_DIR: dataDirectory, DATABASE_POOL_SIZE: wrong })).rejects.toThrow(/DATABASE_POOL_SIZE/);
    }
  });

  it('reads from a replica only when READ_DATABASE_URL names one beside DATABASE_URL, and refuses it on the embedded database', async () => {
    const dataDirectory = await temporaryDirectory();
    expect((await loadConfig({ DATA_DIR: dataDirectory, DATABASE_URL: 'postgres://bank@db/bank' })).readDatabaseUrl).toBeUndefined();
    expect((await loadConfig({ DATA_DIR: dataDirectory, DATABASE_URL: 'postgres://bank@db/bank', READ_DATABASE_URL: ' ' })).readDatabaseUrl).toBeUndefined();
    const withReplica = await loadConfig({
      DATA_DIR: dataDirectory,
      DATABASE_URL: 'postgres://bank@db:5000/bank',
      READ_DATABASE_URL: 'postgres://bank@db:5001/bank',
    });
    expect(withReplica.readDatabaseUrl).toBe('postgres://bank@db:5001/bank');
    const embedded = await loadConfig({ DATA_DIR: dataDirectory, READ_DATABASE_URL: 'postgres://bank@db:5001/bank' }).catch((error: unknown) => error);
    expect(embedded).toBeInstanceOf(ConfigError);
    expect((embedded as ConfigError).problems).toEqual([expect.stringMatching(/^READ_DATABASE_URL needs DATABASE_URL/)]);
    await expect(loadConfig({ DATA_DIR: dataDirectory, DATABASE_URL: 'postgres://bank@db/bank', READ_DATABASE_URL: 'mysql://db/bank' })).rejects.toThrow(
      /READ_DATABASE_URL: must be a postgres:\/\/ connection URL/,
    );
  });

  it('reads the ACH cut-off as HH:MM in bank time, 17:00 unless ACH_CUTOFF says otherwise, and refuses anything else at start', async () => {
    const dataDirectory = await temporaryDirectory();
    expect((await loadConfig({ DATA_DIR: dataDirectory })).achCutoff).toBe('17:00');
    expect((await loadConfig({ DATA_DIR: dataDirectory, ACH_CUTOFF: '14:30' })).achCutoff).toBe('14:30');
    expect((await loadConfig({ DATA_DIR: dataDirectory, ACH_CUTOFF: '' })).achCutoff).toBe('17:00');
    for (const wrong of ['5pm', '17', '1700', '7:00', '24:00', '17:60', '17:00:00', 'noon']) {
      const refused = await loadConfig({ DATA_DIR: dataDirectory, ACH_CUTOFF: wrong }).catch((caught: unknown) => caught);
      expect(refused, wrong).toBeInstanceOf(ConfigError);
      expect((refused as ConfigError).problems, wrong).toEqual(['ACH_CUTOFF: must be a time of day as HH:MM (24-hour, bank time), such as 17:00']);
    }
  });

  it('lists every malformed variable at once', async () => {
    const attempt = loadConfig({ PORT: 'eighty', BANK_MODE: 'live', ENCRYPTION_KEY: 'short', BANK_TIMEZONE: 'Mars/Olympus' });
    const error = (await attempt.catch((caught: unknown) => caught)) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    const named = error.problems.map((problem) => problem.split(':')[0]);
    expect(named).toEqual(expect.arrayContaining(['PORT', 'BANK_MODE', 'ENCRYPTION_KEY', 'BANK_TIME_ZONE']));
  });
});
