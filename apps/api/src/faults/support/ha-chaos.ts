import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { openPostgres } from '../../db/postgres.ts';
import { BankHttp, type BankCustomer } from './bank-http.ts';
import { runBankChaos, type BankNemesisRun, type BankReport, type PaymentAnswer } from './bank-workload.ts';
import type { HaCluster } from './ha-cluster.ts';
import { haFaults, type HaFaultName } from './ha-faults.ts';
import type { PostgresBinaries } from './postgres-cluster.ts';
import { repositoryRoot } from './server-process.ts';

const run = promisify(execFile);

/**
 * The bank's workload of faults/bank-chaos.test.ts (decision 036) through HAProxy's write port while
 * faults/support/ha-faults.ts hits the Patroni cluster, one fault at a time (issue 36, item 4;
 * docs/deploy.md, "The failover test"). After each fault: the cluster must heal by itself, the
 * bank must accept writes again without a restart, and then, with the load paused, the checker
 * runs (every acknowledged transfer present once, every unknown key resolved by replay, sums
 * conserved, no negative balance read) with `check-ledger` and `check-audit`.
 */
export interface HaRunOptions {
  cluster: HaCluster;
  faults: readonly HaFaultName[];
  /** Whether the cluster replicates synchronously (strict) in this run; the control run turns it off. */
  synchronous: boolean;
  clients?: number;
  customers?: number;
  log?: (line: string) => void;
}

export interface HaFaultResult {
  fault: HaFaultName;
  description: string;
  /** Why the fault was not made on this machine (the run goes on without it). */
  skipped?: string;
  what?: string;
  leaderBefore?: string;
  leaderAfter?: string;
  /** From the fault to the cluster healed (etcd, a leader, two streaming replicas, HAProxy on the leader). */
  healedMs?: number;
  /** From the fault to the first transfer acknowledged after the last one refused or dropped. */
  firstAcceptedWriteMs?: number;
  /** Transfers answered 503, dropped or timed out after the fault. */
  writesFailed: number;
  status503: number;
  status5xxOther: number;
  hangs: number;
  /** `GET /api/v1/ready` every 500 ms until healed: how often it answered 503 (no primary). */
  readyNotReady: number;
  acknowledged: number;
  unknown: number;
  unknownResolved: number;
  violations: string[];
  checkLedger: string;
  checkAudit: string;
  passed: boolean;
}

export interface HaReport {
  synchronous: boolean;
  faults: HaFaultResult[];
  bank: BankReport;
  /** The API's log lines around any 500 (none expected): the request and the error. */
  serverErrors: string[];
}

/** The longest a fault may take to heal before the run fails. */
const healTimeoutMs = 180_000;
/** Load before each fault, so the fault lands on a busy bank. */
const loadBeforeFaultMs = 4_000;
/** Load after healing, at least, before the check; and the longest wait for the first accepted write. */
const loadAfterHealMs = 3_000;
const acceptedWriteTimeoutMs = 60_000;
const readyProbeIntervalMs = 500;
const moneyRequestsPerMinute = 1_000_000;

function isFailure(answer: PaymentAnswer): boolean {
  return answer.status === 'no_answer' || answer.status >= 500;
}

/** The end of the first acknowledged transfer after the last failed one that ended after `faultAt`. */
function firstAcceptedAfter(answers: readonly PaymentAnswer[], faultAt: number): number | undefined {
  const failures = answers.filter((answer) => answer.answeredAt >= faultAt && isFailure(answer));
  const outageEnd = Math.max(faultAt, ...failures.map((answer) => answer.answeredAt));
  const accepted = answers.filter((answer) => answer.status === 201 && answer.answeredAt >= outageEnd && answer.sentAt >= faultAt);
  return accepted.length === 0 ? undefined : Math.min(...accepted.map((answer) => answer.answeredAt)) - faultAt;
}

/** `npm run ops -- <command>` against the cluster's write port: its first line, and whether it exited 0. */
async function opsCommand(databaseUrl: string, command: string, dataDirectory: string): Promise<{ ok: boolean; line: string }> {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'apps/api/src/cli/ops.ts', command], {
      cwd: repositoryRoot,
      env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDirectory, BANK_MODE: 'sandbox', LOG_LEVEL: 'warn' },
      timeout: 120_000,
    });
    return { ok: true, line: stdout.trim().split('\n')[0] ?? '' };
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return { ok: false, line: `${stdout}${stderr}`.trim().split('\n').slice(0, 3).join(' / ') };
  }
}

/** Every idempotency key acknowledged maps to the one payment the client was told, on the (new) primary. */
async function keysMapOnce(databaseUrl: string, acknowledged: { customerId: string; key: string; paymentId: string }[]): Promise<string[]> {
  const db = await openPostgres(databaseUrl, 1);
  try {
    const rows = await db.query<{ customer_id: string; key: string; payment_id: string }>(
      `SELECT customer_id, key, payment_id FROM idempotency_keys WHERE key = ANY($1::text[])`,
      [acknowledged.map((ack) => ack.key)],
    );
    const found = new Map(rows.map((row) => [`${row.customer_id}/${row.key}`, row.payment_id]));
    return acknowledged
      .filter((ack) => found.get(`${ack.customerId}/${ack.key}`) !== ack.paymentId)
      .slice(0, 10)
      .map((ack) => `key ${ack.key} maps to ${found.get(`${ack.customerId}/${ack.key}`) ?? 'nothing'}, not to acknowledged payment ${ack.paymentId}`);
  } finally {
    await db.close();
  }
}

export async function runHaChaos(options: HaRunOptions, binaries: PostgresBinaries): Promise<HaReport> {
  const { cluster } = options;
  const log = options.log ?? (() => undefined);
  const answers: PaymentAnswer[] = [];
  const acknowledgedKeys: { customerId: string; key: string; paymentId: string }[] = [];
  const results: HaFaultResult[] = [];
  const opsDirectory = await mkdtemp(path.join(tmpdir(), 'strongroom-ha-ops-'));
  let serverOutput = '';

  async function nemesis(bank: BankNemesisRun): Promise<void> {
    const probeCustomer = bank.customers[0] as BankCustomer;
    const probe = new BankHttp(bank.origin, '203.0.113.201');
    for (const name of options.faults) {
      const fault = haFaults[name];
      const skipped = await fault.unavailable?.();
      const result: HaFaultResult = {
        fault: name,
        description: fault.description,
        writesFailed: 0,
        status503: 0,
        status5xxOther: 0,
        hangs: 0,
        readyNotReady: 0,
        acknowledged: 0,
        unknown: 0,
        unknownResolved: 0,
        violations: [],
        checkLedger: '',
        checkAudit: '',
        passed: false,
      };
      results.push(result);
      if (skipped) {
        result.skipped = skipped;
        log(`nemesis: ${name} skipped: ${skipped}`);
        continue;
      }
      await sleep(loadBeforeFaultMs);
      const before = { ...bank.counters };
      result.leaderBefore = await cluster.leader();
      const faultAt = Date.now();
      bank.afterFault(name);
      let healed = false;
      let healedAt: number;
      // Readiness while the fault lasts: 503 while there is no primary, never a 500.
      const readyProbe = (async () => {
        while (!healed) {
          const answer = await probe.call(probeCustomer, 'GET', '/api/v1/ready');
          if (answer.status === 503) result.readyNotReady += 1;
          else if (typeof answer.status === 'number' && answer.status >= 500) bank.counters.status5xxOther += 1;
          await sleep(readyProbeIntervalMs);
        }
      })();
      try {
        bank.setDatabaseDown(true);
        result.what = await fault.inject(cluster, log);
        const healedInTime = await cluster.waitUntil(() => cluster.healthy(options.synchronous), healTimeoutMs);
        healedAt = Date.now();
        result.healedMs = healedAt - faultAt;
        if (!healedInTime) {
          const members = JSON.stringify(await cluster.members());
          throw new Error(
            `the cluster did not heal within ${healTimeoutMs / 1_000} s (members: ${members}; routing: ${JSON.stringify(await cluster.routing())})`,
          );
        }
      } catch (error) {
        // The faults after this one would start from a broken cluster: the run stops making them,
        // and the load ends with the final check.
        result.violations.push(`${name}: ${(error as Error).message}`);
        log(`nemesis: ${name} failed: ${(error as Error).message}`);
        return;
      } finally {
        healed = true;
        bank.setDatabaseDown(false);
        await readyProbe;
      }
      result.leaderAfter = await cluster.leader();
      log(`nemesis: healed ${((healedAt - faultAt) / 1_000).toFixed(1)} s after the fault (leader ${result.leaderBefore} -> ${result.leaderAfter})`);
      const acceptedBy = Date.now() + acceptedWriteTimeoutMs;
      await sleep(loadAfterHealMs);
      while (firstAcceptedAfter(answers, faultAt) === undefined && Date.now() < acceptedBy) await sleep(250);
      result.firstAcceptedWriteMs = firstAcceptedAfter(answers, faultAt);

      await bank.pauseLoad();
      const check = await bank.check();
      for (const ack of check.resolvedAcknowledged ?? []) acknowledgedKeys.push({ customerId: ack.customer.id, key: ack.key, paymentId: ack.paymentId });
      const [ledger, audit, keys] = await Promise.all([
        opsCommand(cluster.writeUrl, 'check-ledger', opsDirectory),
        opsCommand(cluster.writeUrl, 'check-audit', opsDirectory),
        keysMapOnce(cluster.writeUrl, acknowledgedKeys),
      ]);
      bank.resumeLoad();
      const without = answers.filter((answer) => answer.answeredAt >= faultAt && answer.status === 503 && !answer.retryAfter);
      const counted = (key: 'status503' | 'status5xxOther' | 'hangs' | 'acknowledged' | 'unknown') => bank.counters[key] - before[key];
      Object.assign(result, {
        writesFailed: answers.filter((answer) => answer.answeredAt >= faultAt && isFailure(answer)).length,
        status503: counted('status503'),
        status5xxOther: counted('status5xxOther'),
        hangs: counted('hangs'),
        acknowledged: counted('acknowledged'),
        unknown: counted('unknown'),
        unknownResolved: check.unknownResolved,
        violations: [
          ...check.violations,
          ...keys,
          ...(without.length > 0 ? [`${without.length} transfers answered 503 without Retry-After`] : []),
          ...(ledger.ok ? [] : [`check-ledger: ${ledger.line}`]),
          ...(audit.ok ? [] : [`check-audit: ${audit.line}`]),
        ],
        checkLedger: ledger.line,
        checkAudit: audit.line,
      });
      result.passed = result.violations.length === 0 && result.status5xxOther === 0 && result.hangs === 0 && result.firstAcceptedWriteMs !== undefined;
      log(`check after ${name}: ${result.passed ? 'passed' : `FAILED ${result.violations.join('; ')}`}`);
    }
  }

  try {
    if (!(await cluster.waitUntil(() => cluster.healthy(options.synchronous), healTimeoutMs))) throw new Error('the cluster is not healthy before the run');
    const bank = await runBankChaos({
      binaries,
      databaseUrl: cluster.writeUrl,
      durationMs: 0,
      faultsEach: 0,
      clients: options.clients ?? 12,
      customers: options.customers ?? 6,
      log,
      nemesis: async (bankRun) => {
        try {
          await nemesis(bankRun);
        } finally {
          serverOutput = bankRun.serverOutput();
        }
      },
      // The checker replays every acknowledged key after each fault, for the same few customers:
      // the per-customer money limit (120 a minute) would refuse the workload's own transfers then.
      environment: { MONEY_RATE_LIMIT_PER_MINUTE: String(moneyRequestsPerMinute) },
      onPaymentAnswer: (answer) => answers.push(answer),
      onAcknowledged: (ack) => acknowledgedKeys.push({ customerId: ack.customer.id, key: ack.key, paymentId: ack.paymentId }),
    });
    const serverErrors = serverOutput
      .split('\n')
      .filter((line) => /"statusCode":5\d\d|"level":(50|60)/.test(line) && !/"statusCode":503/.test(line))
      .slice(0, 20);
    return { synchronous: options.synchronous, faults: results, bank, serverErrors };
  } finally {
    await rm(opsDirectory, { recursive: true, force: true });
  }
}
