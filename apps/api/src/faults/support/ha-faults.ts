import { execFile } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { HaCluster } from './ha-cluster.ts';

const run = promisify(execFile);

/**
 * The nemesis of the failover test (issue 36, item 4; docs/deploy.md, "The failover test"): each
 * fault hits the cluster of `npm run ha` once and returns when the fault itself is over (the
 * process continued, the network healed, the member restarted); healing of the cluster is waited
 * for afterwards by faults/support/ha-chaos.ts.
 */
export type HaFaultName = 'postmaster-kill' | 'patroni-freeze' | 'leader-partition' | 'etcd-member-kill' | 'switchover' | 'leader-machine-lost';

export interface HaFault {
  name: HaFaultName;
  /** What the nemesis does, in a sentence of the report. */
  description: string;
  /** Whether the fault can be made on this machine; a reason when not (the run skips it and says so). */
  unavailable?: () => Promise<string | undefined>;
  /** Injects the fault and ends it; returns what happened, for the report. */
  inject: (cluster: HaCluster, log: (line: string) => void) => Promise<string>;
}

/** How long a frozen or cut-off leader stays so at most: past ttl (30 s) and an election. */
const faultHeldAtMostMs = 75_000;
/** How long one etcd member stays down: several of Patroni's loops (loop_wait 10 s). */
const etcdDownMs = 12_000;

async function requireLeader(cluster: HaCluster): Promise<string> {
  const leader = await cluster.leader();
  if (!leader) throw new Error('the cluster has no leader before the fault');
  return leader;
}

/** Resolves once another node leads and HAProxy's write port sends connections to it alone. */
async function waitForNewLeader(cluster: HaCluster, oldLeader: string): Promise<boolean> {
  return cluster.waitUntil(async () => {
    const leader = await cluster.leader();
    if (!leader || leader === oldLeader) return false;
    const { primary } = await cluster.routing();
    return primary.length === 1 && primary[0] === leader;
  }, faultHeldAtMostMs);
}

function signal(pid: number | undefined, name: NodeJS.Signals, what: string): void {
  if (!pid) throw new Error(`${what} is not running`);
  process.kill(pid, name);
}

/** An iptables chain of this cluster's own (named by its write port), so two clusters never share rules. */
function chainOf(cluster: HaCluster): string {
  return `strongroom-ha-${cluster.state.writePort}`;
}

async function iptables(...args: string[]): Promise<void> {
  await run('iptables', ['-w', ...args], { timeout: 30_000 });
}

/** Removes the partition's rules; safe to call when there are none. */
export async function healPartition(cluster: HaCluster): Promise<void> {
  const chain = chainOf(cluster);
  for (let rule = 0; rule < 10; rule += 1) {
    const removed = await iptables('-D', 'INPUT', '-j', chain).then(
      () => true,
      () => false,
    );
    if (!removed) break;
  }
  await iptables('-F', chain).catch(() => undefined);
  await iptables('-X', chain).catch(() => undefined);
}

/**
 * Cuts `node` off the others. Every process of the cluster talks over 127.0.0.1 (the kernel picks
 * that source for every 127.0.0.x), so addresses cannot tell them apart; ports can: the node's
 * PostgreSQL and REST ports, and the etcd client ports only it uses (HA_NODE_ETCD_PORTS in
 * scripts/ha-cluster.mjs). Packets to or from those ports are dropped in both directions; the
 * node's Patroni still reaches its own PostgreSQL through the local socket (use_unix_socket).
 */
async function cutOff(cluster: HaCluster, node: string): Promise<string[]> {
  const found = cluster.state.nodes.find((entry) => entry.name === node);
  const etcdPorts = cluster.state.etcd.map((member) => member.nodeClientPorts?.[node]);
  if (!found || etcdPorts.some((port) => port === undefined)) throw new Error(`${node} has no etcd client ports of its own`);
  const ports = [found.pgPort, found.restPort, ...etcdPorts].map(String);
  const chain = chainOf(cluster);
  await healPartition(cluster);
  await iptables('-N', chain);
  await iptables('-A', chain, '-i', 'lo', '-p', 'tcp', '-m', 'multiport', '--ports', ports.join(','), '-j', 'DROP');
  await iptables('-I', 'INPUT', '1', '-j', chain);
  return ports;
}

async function partitionUnavailable(): Promise<string | undefined> {
  if (process.getuid?.() !== 0) return 'the partition needs root (iptables)';
  try {
    await iptables('-L', 'INPUT', '-n');
    return undefined;
  } catch (error) {
    return `iptables does not work here: ${(error as Error).message.split('\n')[0]}`;
  }
}

export const haFaults: Record<HaFaultName, HaFault> = {
  'postmaster-kill': {
    name: 'postmaster-kill',
    description: "SIGKILL of the primary's postmaster",
    async inject(cluster, log) {
      const leader = await requireLeader(cluster);
      signal(cluster.postmasterPid(leader), 'SIGKILL', `${leader}'s postmaster`);
      log(`nemesis: SIGKILL to ${leader}'s postmaster`);
      return `${leader}'s postmaster killed`;
    },
  },
  'patroni-freeze': {
    name: 'patroni-freeze',
    description: "SIGSTOP of the leader's Patroni past its ttl, then SIGCONT",
    async inject(cluster, log) {
      const leader = await requireLeader(cluster);
      const pid = cluster.startedPid(leader, 'patroni');
      signal(pid, 'SIGSTOP', `${leader}'s Patroni`);
      log(`nemesis: SIGSTOP to ${leader}'s Patroni`);
      try {
        const elected = await waitForNewLeader(cluster, leader);
        log(`nemesis: ${elected ? `${await cluster.leader()} leads now` : 'no new leader yet'}; SIGCONT to ${leader}'s Patroni`);
      } finally {
        signal(pid, 'SIGCONT', `${leader}'s Patroni`);
      }
      return `${leader}'s Patroni frozen until another node led`;
    },
  },
  'leader-partition': {
    name: 'leader-partition',
    description: 'the leader cut off the others (its PostgreSQL, REST and etcd client ports dropped by iptables), then healed',
    unavailable: partitionUnavailable,
    async inject(cluster, log) {
      const leader = await requireLeader(cluster);
      try {
        const ports = await cutOff(cluster, leader);
        log(`nemesis: ${leader} cut off (tcp ports ${ports.join(', ')} dropped)`);
        const elected = await waitForNewLeader(cluster, leader);
        log(`nemesis: ${elected ? `${await cluster.leader()} leads now` : 'no new leader yet'}; healing the partition`);
      } finally {
        await healPartition(cluster);
      }
      return `${leader} cut off until another node led`;
    },
  },
  'etcd-member-kill': {
    name: 'etcd-member-kill',
    description: "SIGKILL of one etcd member (etcd's own Raft leader), restarted after 12 s",
    async inject(cluster, log) {
      const member = (await cluster.etcdLeader()) ?? cluster.state.etcd[0]?.name ?? 'etcd1';
      signal(cluster.startedPid(member, 'etcd'), 'SIGKILL', `etcd member ${member}`);
      log(`nemesis: SIGKILL to etcd member ${member} (etcd's leader)`);
      await sleep(etcdDownMs);
      await cluster.relaunch(member, 'etcd');
      log(`nemesis: etcd member ${member} started again`);
      return `etcd member ${member} down ${etcdDownMs / 1_000} s`;
    },
  },
  switchover: {
    name: 'switchover',
    description: 'a planned switchover (Patroni REST POST /switchover)',
    async inject(cluster, log) {
      const leader = await requireLeader(cluster);
      await cluster.switchover(leader);
      log(`nemesis: switchover away from ${leader} asked`);
      return `switchover away from ${leader}`;
    },
  },
  'leader-machine-lost': {
    name: 'leader-machine-lost',
    description: "the leader's machine lost (SIGKILL of its Patroni and its postmaster), its Patroni started again once another node led",
    async inject(cluster, log) {
      const leader = await requireLeader(cluster);
      signal(cluster.startedPid(leader, 'patroni'), 'SIGKILL', `${leader}'s Patroni`);
      signal(cluster.postmasterPid(leader), 'SIGKILL', `${leader}'s postmaster`);
      log(`nemesis: SIGKILL to ${leader}'s Patroni and postmaster`);
      const elected = await waitForNewLeader(cluster, leader);
      await cluster.relaunch(leader, 'patroni');
      log(`nemesis: ${elected ? `${await cluster.leader()} leads now` : 'no new leader yet'}; ${leader}'s Patroni started again`);
      return `${leader} lost until another node led`;
    },
  },
};
