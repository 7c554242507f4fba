/**
 * `npm run bench:http -- --cluster` (issue 36 item 5): the HA cluster of deploy/ha as a target of
 * the benchmark. It starts the cluster with scripts/ha-cluster.mjs (HA_DIR and HA_PORT_BASE as
 * that script reads them), or uses the one already running there, and says where the bank reaches
 * it: HAProxy's write port, and the current primary's own PostgreSQL port (asked of Patroni's REST
 * `/cluster`), which bypasses HAProxy. See docs/deploy.md, "A cluster that survives losing its
 * primary".
 *
 * The script prints the cluster's passwords with its addresses: its output is filtered here to
 * its progress lines, and no URL with a password is ever printed.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const script = path.join(root, 'scripts/ha-cluster.mjs');
const host = '127.0.0.1';

/** What scripts/ha-cluster.mjs writes to $HA_DIR/cluster.json (the parts used here). */
interface ClusterState {
  writePort: number;
  readPort: number;
  nodes: { name: string; pgPort: number; restPort: number }[];
  passwords: { bank: string; superuser: string };
}

interface Member {
  name: string;
  role: string;
  state: string;
  host: string;
  port: number;
  timeline?: number;
}

export interface Primary {
  name: string;
  port: number;
  timeline: number | undefined;
  /** Its data directory, where postmaster.pid names its postmaster (for the CPU split). */
  dataDirectory: string;
}

export interface HaTarget {
  directory: string;
  /** Whether this run started the cluster (and so stops it); a cluster found running is left running. */
  startedHere: boolean;
  /** The bank's DATABASE_URL through HAProxy's write port. */
  haproxyUrl: string;
  /** The bank's DATABASE_URL straight to a node's PostgreSQL port. */
  directUrl(port: number): string;
  writePort: number;
  /** The superuser's password, for pgbench (passed as PGPASSWORD, never in a URL that could be printed). */
  superuserPassword: string;
  primary(): Promise<Primary>;
  /** The synchronous standby's name, as Patroni reports it, or undefined when there is none. */
  syncStandby(): Promise<string | undefined>;
  /** The data directories of the running members that are not the primary. */
  standbyDataDirectories(): Promise<string[]>;
  /** Patroni's dynamic configuration: the settings that decide how commits and failovers behave. */
  settings(): Promise<string>;
  haproxyPid(): number | undefined;
  stop(): Promise<void>;
}

const directoryOf = () => path.resolve(process.env.HA_DIR ?? path.join(os.tmpdir(), 'strongroom-ha'));

async function getJson(url: string): Promise<unknown> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return response.status === 200 ? await response.json() : undefined;
  } catch {
    return undefined;
  }
}

async function members(state: ClusterState): Promise<Member[] | undefined> {
  for (const node of state.nodes) {
    const body = (await getJson(`http://${host}:${node.restPort}/cluster`)) as { members?: Member[] } | undefined;
    if (body?.members) return body.members;
  }
  return undefined;
}

/** The running leader and a synchronous standby: a cluster that takes writes as strict mode does. */
async function answers(state: ClusterState): Promise<boolean> {
  const list = await members(state);
  return Boolean(list?.some((m) => m.role === 'leader' && m.state === 'running') && list.some((m) => m.role === 'sync_standby'));
}

/**
 * Runs scripts/ha-cluster.mjs and keeps only its progress lines (`ha: ...`): the rest of its output
 * names passwords. It never rejects, so no error carrying that output can be printed.
 */
function runScript(...args: string[]): Promise<{ ok: boolean; progress: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { cwd: root, timeout: 300_000, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      const progress = `${String(stdout)}\n${String(stderr)}`
        .split('\n')
        .filter((line) => line.startsWith('ha: '))
        .join('\n');
      resolve({ ok: !error, progress });
    });
  });
}

/** The cluster in HA_DIR: the one running there if it answers, else one started now. */
export async function openHaTarget(): Promise<HaTarget> {
  const directory = directoryOf();
  const stateFile = path.join(directory, 'cluster.json');
  const readState = () => JSON.parse(readFileSync(stateFile, 'utf8')) as ClusterState;
  let startedHere = false;
  if (existsSync(stateFile) && (await answers(readState()))) {
    console.log(`cluster: using the one running in ${directory}`);
  } else {
    console.log(`cluster: starting one in ${directory} (npm run ha -- start) ...`);
    const started = await runScript('start');
    console.log(started.progress);
    if (!started.ok) {
      // Only what this start launched is stopped (the script says so when it launched anything): a
      // cluster that was already running there, answering or not, is someone else's to stop.
      const launched = started.progress.includes('what did start is still running');
      if (launched) console.log((await runScript('stop', '--keep')).progress);
      throw new Error(
        `npm run ha -- start failed (HA_DIR=${directory})` +
          (launched ? `; what it started is stopped, its logs kept in ${path.join(directory, 'logs')} (npm run ha -- stop removes the directory)` : ''),
      );
    }
    startedHere = true;
  }
  const state = readState();
  const url = (port: number) => `postgres://bank:${encodeURIComponent(state.passwords.bank)}@${host}:${port}/bank`;
  const view = async () => {
    const list = await members(state);
    if (!list) throw new Error(`no Patroni node of ${directory} answers`);
    return list;
  };
  return {
    directory,
    startedHere,
    haproxyUrl: url(state.writePort),
    directUrl: url,
    writePort: state.writePort,
    superuserPassword: state.passwords.superuser,
    async primary() {
      const leader = (await view()).find((m) => m.role === 'leader' && m.state === 'running');
      if (!leader) throw new Error(`the cluster in ${directory} has no running primary`);
      return { name: leader.name, port: leader.port, timeline: leader.timeline, dataDirectory: path.join(directory, leader.name, 'data') };
    },
    async syncStandby() {
      return (await view()).find((m) => m.role === 'sync_standby')?.name;
    },
    async standbyDataDirectories() {
      return (await view()).filter((m) => m.role !== 'leader' && m.state !== 'stopped').map((m) => path.join(directory, m.name, 'data'));
    },
    async settings() {
      for (const node of state.nodes) {
        const config = (await getJson(`http://${host}:${node.restPort}/config`)) as Record<string, unknown> | undefined;
        if (!config) continue;
        const names = ['ttl', 'loop_wait', 'retry_timeout', 'synchronous_mode', 'synchronous_mode_strict', 'synchronous_node_count'];
        return names.map((name) => `${name}: ${String(config[name] ?? 'unset')}`).join(', ');
      }
      return 'n/a (no Patroni node answered /config)';
    },
    haproxyPid() {
      const file = path.join(directory, 'run', 'haproxy.pid');
      const pid = existsSync(file) ? Number(readFileSync(file, 'utf8')) : Number.NaN;
      return Number.isInteger(pid) && pid > 0 ? pid : undefined;
    },
    async stop() {
      if (!startedHere) return;
      const stopped = await runScript('stop');
      console.log(stopped.progress);
      if (!stopped.ok) throw new Error(`npm run ha -- stop failed (HA_DIR=${directory})`);
    },
  };
}

/** Patroni's, HAProxy's and etcd's versions, for the record. */
export async function haVersions(): Promise<string> {
  const first = async (program: string, args: string[]) => {
    try {
      const { stdout, stderr } = await execFileAsync(program, args, { timeout: 10_000 });
      return `${stdout}${stderr}`.split('\n')[0]?.trim() ?? '';
    } catch {
      return `${program}: n/a`;
    }
  };
  return [await first('patroni', ['--version']), await first('haproxy', ['-v']), await first('etcd', ['--version'])].join('; ');
}

/** A process tree's CPU ticks (user and system, its own and its reaped children's), of each root. */
function treeTicks(roots: readonly number[]): number[] {
  const parents = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
      ticks.set(
        Number(entry),
        [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index] ?? 0), 0),
      );
    } catch {
      // It ended while we looked.
    }
  }
  const totals = roots.map(() => 0);
  for (const [pid, own] of ticks) {
    for (let current: number | undefined = pid, depth = 0; current && depth < 64; current = parents.get(current), depth += 1) {
      const index = roots.indexOf(current);
      if (index >= 0) {
        totals[index] = (totals[index] ?? 0) + own;
        break;
      }
    }
  }
  return totals;
}

/**
 * CPU milliseconds per request of each process tree given (HAProxy, the standbys' PostgreSQL),
 * between now and the call of the function returned; NaN for a root that is not there. Unlike
 * bench/http/process-cpu.ts it needs no sampling: it splits no tree into client and background.
 */
export function startTreeCpu(roots: readonly (number | undefined)[]): (requests: number) => number[] {
  const live = roots.map((pid) => pid ?? -1);
  const first = treeTicks(live);
  return (requests) => {
    const last = treeTicks(live);
    // /proc counts in USER_HZ, 100 per second on Linux (see bench/http/process-cpu.ts).
    return live.map((pid, index) => (pid < 0 || requests === 0 ? Number.NaN : (((last[index] ?? 0) - (first[index] ?? 0)) * 10) / requests));
  };
}
