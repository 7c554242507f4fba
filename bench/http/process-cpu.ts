/**
 * Where the machine's CPU goes during a cell (issue 16 item 3: "find where the time goes"). On a
 * machine whose cores are all busy, requests per second is the machine's CPU divided by the CPU
 * one request costs, so the bench reports that cost per part: the API's processes, PostgreSQL's,
 * and the load generator's, read from Linux's /proc before and after. Elsewhere it reports nothing.
 *
 * A process tree's time is each live member's own time plus the time of the children it has
 * reaped (utime + stime + cutime + cstime), so a PostgreSQL backend that ends during the cell is
 * still counted: its time moves into the postmaster's cutime.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** USER_HZ: the unit of /proc's times, 100 on every Linux this runs on (`getconf CLK_TCK`). */
const ticksPerSecond = 100;

export const canMeasureCpu = existsSync('/proc/self/stat') && existsSync('/proc/stat');

interface ProcessTimes {
  parent: number;
  /** Own and reaped children's user and system time, in ticks. */
  ticks: number;
  /** Own user and system time, in ticks. */
  own: number;
}

function timesOf(pid: string): ProcessTimes | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((index) => Number(fields[index]));
    const own = (utime ?? 0) + (stime ?? 0);
    return { parent: Number(fields[1]), ticks: own + (cutime ?? 0) + (cstime ?? 0), own };
  } catch {
    return undefined; // it ended while we looked
  }
}

/**
 * A PostgreSQL backend serving a client names it in its process title: `postgres: user database
 * host(port) state`, or `[local]` on a Unix socket. Every other process of the cluster is its
 * background work: autovacuum, the checkpointer, the WAL writer, the background writer.
 */
function isClientBackend(pid: number): boolean {
  try {
    const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    return /^postgres: \S+ \S+ (\[local\]|\S+\(\d+\))/.test(title);
  } catch {
    return false;
  }
}

interface Snapshot {
  /** CPU ticks so far of each root's process tree (the root and all its descendants). */
  trees: number[];
  /** The own ticks (without reaped children) of each client backend under the first root. */
  clients: Map<number, number>;
}

function snapshot(roots: readonly number[]): Snapshot {
  const all = new Map<number, ProcessTimes>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const times = timesOf(entry);
    if (times) all.set(Number(entry), times);
  }
  const rootOf = (pid: number): number | undefined => {
    for (let current: number | undefined = pid, depth = 0; current && depth < 64; depth += 1) {
      if (roots.includes(current)) return current;
      current = all.get(current)?.parent;
    }
    return undefined;
  };
  const totals = new Map<number, number>(roots.map((root) => [root, 0]));
  const clients = new Map<number, number>();
  for (const [pid, times] of all) {
    const root = rootOf(pid);
    if (root === undefined) continue;
    totals.set(root, (totals.get(root) ?? 0) + times.ticks);
    if (root === roots[0] && pid !== root && isClientBackend(pid)) clients.set(pid, times.own);
  }
  return { trees: roots.map((root) => totals.get(root) ?? 0), clients };
}

/** CPU seconds of this process's children that have ended (wrk, pgbench, once they are reaped). */
function endedChildrenCpuSeconds(): number {
  if (!canMeasureCpu) return 0;
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[13]) + Number(fields[14])) / ticksPerSecond;
}

/** The machine's busy and total CPU seconds so far (all cores), from /proc/stat. */
function machineCpuSeconds(): { busy: number; total: number } {
  if (!canMeasureCpu) return { busy: 0, total: 0 };
  const [, ...values] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/);
  const ticks = values.map(Number);
  const total = ticks.slice(0, 8).reduce((sum, value) => sum + value, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0); // idle and iowait
  return { busy: (total - idle) / ticksPerSecond, total: total / ticksPerSecond };
}

/** The PostgreSQL server's process id (the first line of postmaster.pid). */
export function postmasterPid(dataDirectory: string): number {
  return Number(readFileSync(`${dataDirectory}/postmaster.pid`, 'utf8').split('\n')[0]);
}

export interface CpuSplit {
  /** CPU milliseconds per request (or per pgbench transaction). */
  serverMs: number;
  postgresMs: number;
  /** The part of postgresMs spent outside the client backends: autovacuum, checkpoints, WAL writing. */
  postgresBackgroundMs: number;
  loadMs: number;
  /** Share of all the machine's cores busy during the cell, 0 to 1. */
  machineBusy: number;
  /** Cores the machine has. */
  cores: number;
}

/**
 * How often the client backends are looked at, so that one that ends (pgbench's, at its end) is
 * still counted, up to its last sample: what it used after that counts as background.
 */
const sampleEveryMs = 500;

/**
 * Starts a measurement; the function it returns ends it, given how many requests were answered.
 * `server` is the API's root process (undefined for pgbench's run); the load generator is measured
 * as this process's reaped children, so it must have ended (awaited) before the end is taken.
 * A client backend's time is its last sample less its first (0 for one that began during the
 * measurement); the rest of PostgreSQL's time is its background work.
 */
export function startCpuSplit(postgres: number, server: number | undefined): (requests: number) => CpuSplit {
  if (!canMeasureCpu) return () => ({ serverMs: 0, postgresMs: 0, postgresBackgroundMs: 0, loadMs: 0, machineBusy: 0, cores: availableParallelism() });
  const roots = server === undefined ? [postgres] : [postgres, server];
  const first = snapshot(roots);
  const load = endedChildrenCpuSeconds();
  const machineAtStart = machineCpuSeconds();
  const clientTicks = new Map<number, { base: number; last: number }>([...first.clients].map(([pid, ticks]) => [pid, { base: ticks, last: ticks }]));
  const sample = (taken: Snapshot) => {
    for (const [pid, ticks] of taken.clients) {
      const seen = clientTicks.get(pid);
      if (seen) seen.last = ticks;
      else clientTicks.set(pid, { base: 0, last: ticks });
    }
  };
  const sampler = setInterval(() => sample(snapshot(roots)), sampleEveryMs);
  return (requests) => {
    clearInterval(sampler);
    const last = snapshot(roots);
    sample(last);
    const machine = machineCpuSeconds();
    const perRequest = (ticks: number) => (requests > 0 ? (ticks * 1000) / ticksPerSecond / requests : 0);
    const postgresTicks = (last.trees[0] ?? 0) - (first.trees[0] ?? 0);
    const clients = [...clientTicks.values()].reduce((sum, { base, last: ticks }) => sum + ticks - base, 0);
    const total = machine.total - machineAtStart.total;
    return {
      postgresMs: perRequest(postgresTicks),
      postgresBackgroundMs: perRequest(Math.max(0, postgresTicks - clients)),
      serverMs: perRequest((last.trees[1] ?? 0) - (first.trees[1] ?? 0)),
      loadMs: requests > 0 ? ((endedChildrenCpuSeconds() - load) * 1000) / requests : 0,
      machineBusy: total > 0 ? (machine.busy - machineAtStart.busy) / total : 0,
      cores: availableParallelism(),
    };
  };
}
