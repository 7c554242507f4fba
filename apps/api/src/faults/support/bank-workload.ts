import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import { openPostgres } from '../../db/postgres.ts';
import { createOnboardedCustomer } from '../../modules/onboarding/create-onboarded-customer.ts';
import { csrfTokenFor } from '../../platform/csrf.ts';
import { createSession } from '../../platform/session.ts';
import { createFilesystemStorage } from '../../platform/storage.ts';
import { checkBank, type BankCheck } from './bank-checker.ts';
import { BankHttp, snapshotBalances, type Acknowledged, type BankCustomer, type TransferBody } from './bank-http.ts';
import { progressLine, summaryLine } from './bank-report.ts';
import { createPostgresCluster, type PostgresBinaries, type PostgresCluster } from './postgres-cluster.ts';
import { startServer, type ServerProcess } from './server-process.ts';

/**
 * The Jepsen-style bank workload (issue 17, decision 036): customers move money among their own
 * accounts and to known payees at this bank over HTTP while a nemesis SIGKILLs the API and crashes
 * PostgreSQL (`pg_ctl -m immediate`). Money only moves between the workload's customers, so the
 * sum of their balances is an invariant; bank-checker.ts checks it and the rest afterwards.
 * Shared by faults/bank-chaos.test.ts (30 s in CI) and `npm run chaos -- --minutes N`.
 */
export interface BankRunOptions {
  binaries: PostgresBinaries;
  /** How long the clients move money. */
  durationMs: number;
  clients?: number;
  customers?: number;
  /** How many times the nemesis kills the API and crashes the database (each, alternating). */
  faultsEach: number;
  /** How long PostgreSQL stays down each time. */
  databaseDownMs?: number;
  /** Progress lines (the long run prints them; the test keeps them for a failure's message). */
  log?: (line: string) => void;
  /**
   * A database of someone else's to run against (the HA cluster's write port, issue 36) instead of a
   * PostgreSQL of the run's own; the built-in nemesis, which crashes that own PostgreSQL, then needs
   * `nemesis` in its place.
   */
  databaseUrl?: string;
  /** Replaces the built-in nemesis (API kills and PostgreSQL crashes): faults/support/ha-chaos.ts. */
  nemesis?: (run: BankNemesisRun) => Promise<void>;
  /** Every answer (or its absence) to a transfer, with when it was sent and when it came back. */
  onPaymentAnswer?: (answer: PaymentAnswer) => void;
  /** More environment for the API process (the HA run raises the per-customer money limit). */
  environment?: Record<string, string>;
  /** Every transfer acknowledged (201) to a client, as it is. */
  onAcknowledged?: (acknowledged: Acknowledged) => void;
}

export interface PaymentAnswer {
  sentAt: number;
  answeredAt: number;
  status: number | 'no_answer';
  /** The answer's Retry-After header (every 503 must carry one). */
  retryAfter?: string | null;
}

/** What a nemesis of its own can see and do while the clients run. */
export interface BankNemesisRun {
  counters: BankCounters;
  customers: readonly BankCustomer[];
  origin: () => string;
  log: (line: string) => void;
  /** The API process's output so far (a 500's cause is in it). */
  serverOutput: () => string;
  /** Marks the time the database is away, as the built-in nemesis does (status503WhileDatabaseDown). */
  setDatabaseDown: (down: boolean) => void;
  /** Opens a window: acknowledgements counted from now on belong to the fault named. */
  afterFault: (after: string) => void;
  /** Holds every client between two requests and resolves once none is in flight; resumeLoad lets them go on. */
  pauseLoad: () => Promise<void>;
  resumeLoad: () => void;
  /**
   * The checker on what the run saw so far (the load must be paused): unknown keys are replayed
   * and, once resolved, checked with the acknowledged ones from then on.
   */
  check: () => Promise<BankCheck>;
}

export interface BankCounters {
  acknowledged: number;
  refused: number;
  unknown: number;
  /** Payments refused at the socket while the API was down: they reached no server. */
  notSent: number;
  retries: number;
  reads: number;
  status503: number;
  /** 503 answers seen while PostgreSQL was down (the nemesis's own probes and the clients'). */
  status503WhileDatabaseDown: number;
  status5xxOther: number;
  /** Requests that got no answer within the client's timeout. */
  hangs: number;
  /** Answers no client expects (401, 404, 429, ...), by status and code. */
  unexpected: Record<string, number>;
  apiKills: number;
  databaseCrashes: number;
  /** The API ended without the nemesis killing it. */
  unexpectedExits: string[];
}

export interface BankReport {
  counters: BankCounters;
  /** Transfers acknowledged after each fault and before the next: the API served again by itself. */
  windows: { after: string; acknowledged: number }[];
  check: BankCheck;
  summary: string;
}

/** Under the payments' 120 a minute per address (modules/payments/routes.ts): rate limits stay out of the way. */
const minimumGapBetweenPaymentsMs = 650;
const fundCents = 200_000n;
/** The least time between the end of one fault and the next, and after the last. */
const minimumCalmMs = 2_000;
/**
 * A calm stretch also lasts until the clients have had this many transfers acknowledged since the
 * fault (the API served again by itself), but no longer than maximumCalmMs. On a loaded machine an
 * API restart took 20 s and the first answers after it came later than minimumCalmMs: a window
 * closed by the next fault before any answer proves nothing.
 */
const acknowledgedPerCalm = 5;
const maximumCalmMs = 60_000;
/** The load goes on past its duration until this many transfers were acknowledged (the check needs some), within maximumCalmMs. */
const minimumAcknowledged = 60;
/** The first fault comes once the clients are well under way. */
const firstFaultAfterMs = 3_000;

function errorCodeOf(json: unknown): string {
  return (json as { error?: { code?: string } } | undefined)?.error?.code ?? 'none';
}

/** Creates the customers (in-process, as the ops CLI does) with sessions made for this server's secret. */
async function createCustomers(db: Database, dataDirectory: string, secrets: { sessionSecret: Buffer; encryptionKey: Buffer }, count: number) {
  const storage = createFilesystemStorage(path.join(dataDirectory, 'uploads'), secrets.encryptionKey);
  const customers: BankCustomer[] = [];
  const runId = randomUUID().slice(0, 8);
  for (let index = 0; index < count; index += 1) {
    const phone = `+1202555${String(1_000 + index).padStart(4, '0')}`;
    const firstName = `Bank${String.fromCharCode(65 + index)}`;
    const created = await createOnboardedCustomer(
      { db, storage, encryptionKey: secrets.encryptionKey },
      { email: `bank-${runId}-${index}@example.com`, password: 'correct horse battery staple', fundCents, phone, firstName, lastName: 'Chaos' },
    );
    const { sessionId } = await createSession(db, { realm: 'customer', subjectId: created.userId });
    const csrf = csrfTokenFor(secrets.sessionSecret, sessionId);
    customers.push({
      id: created.userId,
      name: `${firstName} Chaos`,
      phone,
      cookie: `session=${sessionId}; csrf=${csrf}`,
      csrf,
      accounts: created.accounts.map((account) => ({ id: account.id, number: account.number, type: account.type })),
      payees: [],
    });
  }
  return customers;
}

/** The first payment to someone else asks for a step-up (D10): answered with the SMS code, as a customer would. */
async function payFirstTimeWithStepUp(db: Database, http: BankHttp, payer: BankCustomer, payee: BankCustomer): Promise<void> {
  const from = payer.accounts[0];
  const to = payee.accounts[0];
  if (!from || !to) throw new Error('a workload customer has no account');
  const body: TransferBody = {
    kind: 'internal',
    fromAccountId: from.id,
    toAccountNumber: to.number,
    accountName: payee.name,
    amountCents: 100,
    message: 'First payment',
  };
  const key = randomUUID();
  const first = await http.call(payer, 'POST', '/api/v1/transfers', body, { 'idempotency-key': key });
  if (first.status !== 403) throw new Error(`the first payment to a payee should ask for a step-up: ${JSON.stringify(first)}`);
  const challengeId = (first.json as { error: { challengeId: string } }).error.challengeId;
  let code: string | undefined;
  for (let attempt = 0; attempt < 2 && !code; attempt += 1) {
    const [message] = await db.query<{ text_body: string }>(
      `SELECT text_body FROM outbox_messages WHERE channel = 'sms' AND to_address = $1 ORDER BY created_at DESC LIMIT 1`,
      [payer.phone],
    );
    code = /\b(\d{6})\b/.exec(message?.text_body ?? '')?.[1];
    if (!code) await http.call(payer, 'POST', `/api/v1/step-up/${challengeId}/resend`, {});
  }
  if (!code) throw new Error('no step-up code was sent');
  const verified = await http.call(payer, 'POST', `/api/v1/step-up/${challengeId}`, { code });
  if (verified.status !== 200) throw new Error(`the step-up code was refused: ${JSON.stringify(verified)}`);
  const paid = await http.call(payer, 'POST', '/api/v1/transfers', body, { 'idempotency-key': key, 'x-step-up': challengeId });
  if (paid.status !== 201) throw new Error(`the first payment to a payee failed: ${JSON.stringify(paid)}`);
  payer.payees.push({ number: to.number, name: payee.name });
}

function randomOf<T>(items: readonly T[]): T {
  const item = items[randomInt(items.length)];
  if (item === undefined) throw new Error('nothing to choose from');
  return item;
}

function randomTransfer(customer: BankCustomer): TransferBody {
  const from = randomOf(customer.accounts);
  const amountCents = randomInt(1, 5_001);
  if (randomInt(100) < 40 || customer.payees.length === 0) {
    const to = randomOf(customer.accounts.filter((account) => account.id !== from.id));
    return { kind: 'own', fromAccountId: from.id, toAccountId: to.id, amountCents, message: 'Bank chaos' };
  }
  const payee = randomOf(customer.payees);
  return { kind: 'internal', fromAccountId: from.id, toAccountNumber: payee.number, accountName: payee.name, amountCents, message: 'Bank chaos' };
}

export async function runBankChaos(options: BankRunOptions): Promise<BankReport> {
  const log = options.log ?? (() => undefined);
  const clientCount = options.clients ?? 16;
  const customerCount = options.customers ?? 6;
  const databaseDownMs = options.databaseDownMs ?? 2_000;
  const counters: BankCounters = {
    acknowledged: 0,
    refused: 0,
    unknown: 0,
    notSent: 0,
    retries: 0,
    reads: 0,
    status503: 0,
    status503WhileDatabaseDown: 0,
    status5xxOther: 0,
    hangs: 0,
    unexpected: {},
    apiKills: 0,
    databaseCrashes: 0,
    unexpectedExits: [],
  };
  const negativeReads: string[] = [];
  const acknowledged: Acknowledged[] = [];
  const unknownKeys: { customer: BankCustomer; key: string; body: TransferBody }[] = [];

  let cluster: PostgresCluster | undefined;
  let db: Database | undefined;
  let server: ServerProcess | undefined;
  let databaseDown = false;
  let killing = false;
  const dataDirectory = await mkdtemp(path.join(tmpdir(), 'strongroom-bank-'));
  try {
    let databaseUrl = options.databaseUrl;
    if (!databaseUrl) {
      cluster = await createPostgresCluster(options.binaries);
      log(`PostgreSQL (fsync on) at 127.0.0.1:${cluster.port}`);
      databaseUrl = cluster.url;
    }
    db = await openPostgres(databaseUrl, 4);
    await migrate(db);
    const secrets = { sessionSecret: randomBytes(32), encryptionKey: randomBytes(32) };

    const environment = {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDirectory,
      SESSION_SECRET: secrets.sessionSecret.toString('base64'),
      ENCRYPTION_KEY: secrets.encryptionKey.toString('base64'),
      // Each client is a browser at its own address behind a proxy on loopback, so the per-address
      // limits (120 payments a minute) count each client apart, as they would in production.
      TRUST_PROXY: 'loopback',
      // The workload pays known payees small sums; a long run must not trip the new-payee review rule.
      REVIEW_NEW_PAYEE_DAILY_CENTS: String(Number.MAX_SAFE_INTEGER),
      LOG_LEVEL: 'error',
      ...options.environment,
    };
    const watch = (started: ServerProcess) => {
      void started.exited.then((how) => {
        if (!killing) counters.unexpectedExits.push(`the API exited by itself (${how}):\n${started.output().slice(-4_000)}`);
      });
      return started;
    };
    // The customers are made while the API starts (each start takes seconds on a loaded machine).
    const [customers, firstServer] = await Promise.all([createCustomers(db, dataDirectory, secrets, customerCount), startServer({ env: environment })]);
    server = watch(firstServer);
    const port = server.port;
    log(`API at ${server.origin}`);
    const origin = () => `http://127.0.0.1:${port}`;

    // Known payees: each customer pays the next two once, with the step-up a first payment needs.
    const setupHttp = new BankHttp(origin, '203.0.113.250');
    const setupDb = db;
    await Promise.all(
      customers.map(async (payer, index) => {
        for (const offset of [1, 2]) {
          const payee = customers[(index + offset) % customers.length];
          if (payee) await payFirstTimeWithStepUp(setupDb, new BankHttp(origin, `203.0.113.${index * 2 + offset}`), payer, payee);
        }
      }),
    );
    const before = await snapshotBalances(setupHttp, customers);
    log(`${customers.length} customers, ${customers.length * 2} accounts, total ${before.total} cents`);

    const deadline = Date.now() + options.durationMs;
    let loadEndsAt = Number.POSITIVE_INFINITY;
    const count503 = () => {
      counters.status503 += 1;
      if (databaseDown) counters.status503WhileDatabaseDown += 1;
    };
    const noteUnexpected = (status: number, json: unknown) => {
      const name = `${status} ${errorCodeOf(json)}`;
      counters.unexpected[name] = (counters.unexpected[name] ?? 0) + 1;
    };

    // A paused load: each client waits here between two requests (pauseLoad of a nemesis of its own).
    let loadGate: Promise<void> | undefined;
    let openGate: () => void = () => undefined;
    let clientsInFlight = clientCount;

    async function client(index: number): Promise<void> {
      const customer = customers[index % customers.length];
      if (!customer) return;
      const http = new BankHttp(origin, `198.51.100.${index + 1}`);
      let lastPaymentAt = 0;
      while (Date.now() < loadEndsAt) {
        if (loadGate) {
          clientsInFlight -= 1;
          await loadGate;
          clientsInFlight += 1;
          if (Date.now() >= loadEndsAt) break;
        }
        if (randomInt(100) < 35) {
          const read = await http.call(customer, 'GET', '/api/v1/accounts');
          counters.reads += 1;
          if (read.status === 200) {
            for (const account of read.json as { id: string; balanceCents: number; availableCents: number }[]) {
              if (account.balanceCents < 0 || account.availableCents < 0) negativeReads.push(`${account.id}: ${JSON.stringify(account)}`);
            }
          } else if (read.status === 503) count503();
          else if (read.status === 'no_answer') {
            if (read.reason === 'timeout') counters.hangs += 1;
            await sleep(200);
          } else if (read.status >= 500) counters.status5xxOther += 1;
          else noteUnexpected(read.status, read.json);
          continue;
        }
        const body = randomTransfer(customer);
        const key = randomUUID();
        for (let attempt = 0; ; attempt += 1) {
          const wait = lastPaymentAt + minimumGapBetweenPaymentsMs - Date.now();
          if (wait > 0) await sleep(wait);
          lastPaymentAt = Date.now();
          const answer = await http.call(customer, 'POST', '/api/v1/transfers', body, { 'idempotency-key': key });
          const retryAfter = answer.status === 'no_answer' ? undefined : answer.retryAfter;
          options.onPaymentAnswer?.({ sentAt: lastPaymentAt, answeredAt: Date.now(), status: answer.status, retryAfter });
          if (answer.status === 201) {
            counters.acknowledged += 1;
            if (openWindow) openWindow.acknowledged += 1;
            acknowledged.push({ customer, key, body, paymentId: (answer.json as { transfer: { id: string } }).transfer.id });
            options.onAcknowledged?.(acknowledged[acknowledged.length - 1] as Acknowledged);
            break;
          }
          if (answer.status === 422 && errorCodeOf(answer.json) === 'insufficient_funds') {
            counters.refused += 1;
            break;
          }
          // A refused connection reached no server: nothing happened, a new attempt is a new request.
          if (answer.status === 'no_answer' && answer.reason === 'refused' && attempt === 0) {
            counters.notSent += 1;
            await sleep(250);
            break;
          }
          // Unknown: the API or the database went away mid-request (503, no answer), or the first
          // attempt is still unfinished (409). The same key is tried again some of the time.
          if (answer.status === 503) count503();
          else if (answer.status === 'no_answer') {
            if (answer.reason === 'timeout') counters.hangs += 1;
          } else if (answer.status >= 500) counters.status5xxOther += 1;
          else if (!(answer.status === 409 && errorCodeOf(answer.json) === 'conflict')) {
            noteUnexpected(answer.status, answer.json);
            break;
          }
          if (attempt >= 3 || Date.now() >= loadEndsAt || randomInt(100) < 40) {
            counters.unknown += 1;
            unknownKeys.push({ customer, key, body });
            break;
          }
          counters.retries += 1;
          await sleep(randomInt(300, 800));
        }
      }
    }

    /** After each fault, the acknowledgements until the next one: the API must serve again by itself. */
    const windows: { after: string; acknowledged: number }[] = [];
    let openWindow: { after: string; acknowledged: number } | undefined;
    const afterFault = (after: string) => {
      openWindow = { after, acknowledged: 0 };
      windows.push(openWindow);
    };

    const resolvedUnknown: Acknowledged[] = [];
    let replaysBefore = 0;
    const nemesisRun = (): BankNemesisRun => ({
      counters,
      customers,
      origin,
      log,
      serverOutput: () => server?.output() ?? '',
      setDatabaseDown: (down) => (databaseDown = down),
      afterFault,
      async pauseLoad() {
        loadGate ??= new Promise<void>((resolve) => (openGate = resolve));
        while (clientsInFlight > 0) await sleep(50);
      },
      resumeLoad() {
        loadGate = undefined;
        openGate();
      },
      async check() {
        const unknown = unknownKeys.splice(0);
        const result = await checkBank({
          db: setupDb,
          http: setupHttp,
          customers,
          before,
          acknowledged: [...acknowledged, ...resolvedUnknown],
          unknownKeys: unknown,
          negativeReads,
          replaysBefore,
        });
        resolvedUnknown.push(...(result.resolvedAcknowledged ?? []));
        // The next check replays from fresh addresses (the checker's hundred per address).
        replaysBefore += Math.ceil((unknown.length + result.replayed) / 100) * 100;
        return result;
      },
    });

    /**
     * Waits out a calm stretch after a fault: minimumCalmMs, and until the open window has
     * acknowledgedPerCalm transfers and the run `acknowledged` in all, within maximumCalmMs.
     */
    async function calm(acknowledgedInAll = 0): Promise<void> {
      const from = Date.now();
      const enough = () => (openWindow?.acknowledged ?? 0) >= acknowledgedPerCalm && counters.acknowledged >= acknowledgedInAll;
      while (Date.now() - from < maximumCalmMs && (Date.now() - from < minimumCalmMs || !enough())) await sleep(100);
      log(`calm after ${openWindow?.after ?? 'the start'}: ${openWindow?.acknowledged ?? 0} acknowledged in ${Date.now() - from} ms`);
    }

    async function nemesis(): Promise<void> {
      if (options.nemesis) {
        try {
          await options.nemesis(nemesisRun());
        } finally {
          // Even when the nemesis failed: the clients stop after a calm stretch, and none stays paused.
          loadEndsAt = Math.max(deadline, Date.now() + minimumCalmMs);
          loadGate = undefined;
          openGate();
        }
        return;
      }
      const faults = options.faultsEach * 2;
      const spacing = options.durationMs / (faults + 1);
      let nextFaultAt = Date.now() + Math.min(spacing, firstFaultAfterMs);
      for (let fault = 0; fault < faults && server && cluster; fault += 1) {
        await sleep(Math.max(0, nextFaultAt - Date.now()));
        openWindow = undefined;
        const startedAt = Date.now();
        if (fault % 2 === 0) {
          databaseDown = true;
          await cluster.crash();
          counters.databaseCrashes += 1;
          log(`nemesis: PostgreSQL stopped (-m immediate), #${counters.databaseCrashes}`);
          // The nemesis's own probes: readiness and a signed-in read must answer 503, not 500 or nothing.
          const probe = new BankHttp(origin, '203.0.113.200');
          const probeCustomer = customers[0] as BankCustomer;
          const downUntil = Date.now() + databaseDownMs;
          while (Date.now() < downUntil) {
            for (const url of ['/api/v1/ready', '/api/v1/accounts']) {
              const answer = await probe.call(probeCustomer, 'GET', url);
              if (answer.status === 503) count503();
              else if (answer.status === 'no_answer' && answer.reason === 'timeout') counters.hangs += 1;
              else if (typeof answer.status === 'number' && answer.status >= 500) counters.status5xxOther += 1;
              else if (answer.status !== 'no_answer') noteUnexpected(answer.status, answer.json);
            }
            await sleep(250);
          }
          const restartingAt = Date.now();
          await cluster.start();
          databaseDown = false;
          afterFault(`PostgreSQL crash #${counters.databaseCrashes}`);
          log(`nemesis: PostgreSQL started again after ${Date.now() - startedAt} ms (its start took ${Date.now() - restartingAt} ms)`);
        } else {
          killing = true;
          await server.stop('SIGKILL');
          counters.apiKills += 1;
          log(`nemesis: API killed (SIGKILL), #${counters.apiKills}`);
          server = await startServer({ env: environment, port });
          killing = false;
          watch(server);
          afterFault(`API kill #${counters.apiKills}`);
          log(`nemesis: API started again after ${Date.now() - startedAt} ms`);
        }
        // Every fault is followed by a stretch of calm, however long the restart took.
        if (fault < faults - 1) await calm();
        nextFaultAt = Math.max(startedAt + spacing, Date.now());
      }
      // The load goes on for its duration, and for a calm stretch after the last fault.
      await Promise.all([sleep(Math.max(0, deadline - Date.now())), calm(minimumAcknowledged)]);
      loadEndsAt = Date.now();
    }

    const progress = setInterval(() => log(progressLine(counters)), 10_000);
    try {
      await Promise.all([nemesis(), ...Array.from({ length: clientCount }, (_, index) => client(index))]);
    } finally {
      clearInterval(progress);
    }
    log('load over; checking');
    const check = await checkBank({
      db,
      http: setupHttp,
      customers,
      before,
      acknowledged: [...acknowledged, ...resolvedUnknown],
      unknownKeys,
      negativeReads,
      replaysBefore,
    });
    const summary = summaryLine(counters, check);
    return { counters, check, summary, windows };
  } catch (error) {
    if (server) (error as Error).message += `\nAPI output:\n${server.output().slice(-4_000)}`;
    if (cluster) (error as Error).message += `\nPostgreSQL log:\n${(await cluster.log()).slice(-2_000)}`;
    throw error;
  } finally {
    killing = true;
    await server?.stop('SIGKILL');
    await db?.close().catch(() => undefined);
    await cluster?.destroy();
    await rm(dataDirectory, { recursive: true, force: true });
  }
}
