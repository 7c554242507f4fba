import { writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runHaChaos, type HaReport } from './ha-chaos.ts';
import { HaCluster, missingHaPrograms } from './ha-cluster.ts';
import { haFaults, healPartition, type HaFaultName } from './ha-faults.ts';
import { haFailures, haJsonSummary, haReportTable } from './ha-report.ts';
import { findPostgresBinaries } from './postgres-cluster.ts';

/**
 * `npm run chaos:ha`: the failover test in full (issue 36, item 4; docs/deploy.md, "The failover
 * test"). Starts a cluster of `npm run ha` (HA_DIR, HA_PORT_BASE as for that script), runs the
 * bank's workload through HAProxy while the nemesis makes each of the five faults in turn, then a
 * control run with asynchronous replication (a killed postmaster and a lost leader machine), prints
 * a report and a JSON summary (also to --json FILE), and stops the cluster. Exits 1 when a check of
 * the synchronous run failed; the control run reports what it saw and fails nothing. --keep keeps
 * the cluster's directory and logs; `--faults a,b` and `--no-control` choose what runs.
 */
const allFaults: HaFaultName[] = ['postmaster-kill', 'patroni-freeze', 'leader-partition', 'etcd-member-kill', 'switchover'];
const controlFaults: HaFaultName[] = ['postmaster-kill', 'leader-machine-lost'];

const { values } = parseArgs({
  options: {
    faults: { type: 'string', default: allFaults.join(',') },
    'no-control': { type: 'boolean', default: false },
    clients: { type: 'string', default: '12' },
    json: { type: 'string' },
    // Keeps the cluster's directory (its logs: Patroni's, PostgreSQL's, etcd's, HAProxy's) after stopping it.
    keep: { type: 'boolean', default: false },
  },
});
const faults = (values.faults ?? '').split(',').filter(Boolean) as HaFaultName[];
const unknownFault = faults.find((fault) => !(fault in haFaults));
if (unknownFault) {
  process.stderr.write(`unknown fault ${unknownFault}; known: ${Object.keys(haFaults).join(', ')}\n`);
  process.exit(2);
}
const missing = missingHaPrograms();
const binaries = findPostgresBinaries();
if (missing.length > 0 || !binaries) {
  process.stderr.write(
    `chaos:ha needs ${[...missing, ...(binaries ? [] : ['PostgreSQL (initdb, pg_ctl)'])].join(', ')}: apt-get install patroni etcd-server etcd-client haproxy\n`,
  );
  process.exit(2);
}

const started = Date.now();
const log = (line: string) => process.stdout.write(`[${((Date.now() - started) / 1_000).toFixed(1).padStart(6)} s] ${line}\n`);
const directory = process.env.HA_DIR ?? (await mkdtemp(path.join(tmpdir(), 'strongroom-chaos-ha-')));
const portBase = process.env.HA_PORT_BASE ? Number(process.env.HA_PORT_BASE) : undefined;
const runs: { name: string; report: HaReport }[] = [];
let failures: string[] = [];
let cluster: HaCluster | undefined;

try {
  log(`starting the cluster in ${directory}`);
  cluster = await HaCluster.start(directory, portBase);
  log(`cluster up: writes through HAProxy at 127.0.0.1:${cluster.state.writePort}, leader ${await cluster.leader()}`);
  const clients = Number(values.clients);
  const report = await runHaChaos({ cluster, faults, synchronous: true, clients, log }, binaries);
  runs.push({ name: 'synchronous', report });
  failures = haFailures(report);
  process.stdout.write(`\n${haReportTable('Failover under load', report)}\n\n`);

  if (!values['no-control']) {
    log('control run: synchronous replication off (PATCH /config)');
    await cluster.setSynchronous(false);
    const control = await runHaChaos({ cluster, faults: controlFaults, synchronous: false, clients, log }, binaries);
    runs.push({ name: 'control (asynchronous)', report: control });
    process.stdout.write(`\n${haReportTable('Control run', control)}\n`);
    const lost = control.bank.check.violations.filter((violation) => /acknowledged|summed/.test(violation));
    process.stdout.write(
      lost.length > 0
        ? `The checker saw loss with asynchronous replication:\n  ${lost.join('\n  ')}\n\n`
        : 'The checker saw no loss with asynchronous replication in this run (a short run may see none: the standby was rarely behind when the leader died).\n\n',
    );
  }
} catch (error) {
  failures.push(`the run stopped: ${(error as Error).stack ?? String(error)}`);
} finally {
  if (cluster) await healPartition(cluster).catch(() => undefined);
  log(`stopping the cluster${values.keep ? ` (keeping ${directory})` : ''}`);
  await HaCluster.stop(directory, values.keep);
}

const json = haJsonSummary(runs);
process.stdout.write(`JSON summary:\n${json}\n`);
if (values.json) writeFileSync(values.json, `${json}\n`);
const failuresShown = 20;
for (const failure of failures.slice(0, failuresShown)) process.stdout.write(`FAIL ${failure}\n`);
if (failures.length > failuresShown) process.stdout.write(`... and ${failures.length - failuresShown} more failures\n`);
process.stdout.write(failures.length === 0 ? 'chaos:ha: every check passed\n' : `chaos:ha: ${failures.length} failures\n`);
process.exit(failures.length === 0 ? 0 : 1);
