import { execFile, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { repositoryRoot } from './server-process.ts';

const run = promisify(execFile);

/**
 * The Patroni cluster of `npm run ha` (scripts/ha-cluster.mjs, docs/deploy.md) seen from the
 * failover test: started and stopped through that script, watched through Patroni's REST API and
 * HAProxy's stats socket, and its processes found by the pid files the script writes.
 */
export interface HaState {
  directory: string;
  writePort: number;
  readPort: number;
  etcd: { name: string; clientPort: number; peerPort: number; nodeClientPorts?: Record<string, number> }[];
  nodes: { name: string; pgPort: number; restPort: number }[];
  passwords: { superuser: string; rest: string; bank: string };
}

export interface HaMember {
  name: string;
  role: string;
  state: string;
  timeline?: number;
  lag?: number | string;
}

const host = '127.0.0.1';
const httpTimeoutMs = 2_000;
const pollIntervalMs = 250;
const scriptTimeoutMs = 240_000;
/** Patroni answers POST /switchover once the new leader runs. */
const switchoverTimeoutMs = 90_000;

/** The programs the cluster needs that this machine lacks (Debian: patroni, etcd-server, haproxy). */
export function missingHaPrograms(): string[] {
  const directories = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin', '/sbin'];
  const has = (name: string) => directories.some((directory) => directory && existsSync(path.join(directory, name)));
  return ['patroni', 'etcd', 'haproxy'].filter((name) => !has(name));
}

async function getJson(url: string, init: RequestInit = {}, timeoutMs = httpTimeoutMs): Promise<{ status: number; body: unknown }> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Patroni answers some calls in plain text.
    }
    return { status: response.status, body };
  } catch {
    return { status: 0, body: undefined };
  }
}

function pidAlive(pid: number | undefined, marker: string): boolean {
  try {
    return pid !== undefined && pid > 0 && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
  } catch {
    return false;
  }
}

export class HaCluster {
  private constructor(
    readonly state: HaState,
    private readonly scriptEnvironment: Record<string, string>,
  ) {}

  /** `npm run ha -- start` in `directory`, each node with etcd ports of its own (so it can be cut off). */
  static async start(directory: string, portBase?: number): Promise<HaCluster> {
    const environment: Record<string, string> = { HA_DIR: directory, HA_NODE_ETCD_PORTS: '1' };
    if (portBase !== undefined) environment.HA_PORT_BASE = String(portBase);
    try {
      await run(process.execPath, ['scripts/ha-cluster.mjs', 'start'], {
        cwd: repositoryRoot,
        env: { ...process.env, ...environment },
        timeout: scriptTimeoutMs,
      });
    } catch (error) {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      await HaCluster.stop(directory);
      throw new Error(`npm run ha -- start failed:\n${stdout}\n${stderr}`, { cause: error });
    }
    const state = JSON.parse(readFileSync(path.join(directory, 'cluster.json'), 'utf8')) as HaState;
    return new HaCluster(state, environment);
  }

  /** `npm run ha -- stop` (everything it started, then the directory unless `keep`); quiet when nothing runs. */
  static async stop(directory: string, keep = false): Promise<void> {
    if (!existsSync(path.join(directory, 'cluster.json'))) return;
    await run(process.execPath, ['scripts/ha-cluster.mjs', 'stop', ...(keep ? ['--keep'] : [])], {
      cwd: repositoryRoot,
      env: { ...process.env, HA_DIR: directory },
      timeout: scriptTimeoutMs,
    }).catch(() => undefined);
  }

  stop(): Promise<void> {
    return HaCluster.stop(this.scriptEnvironment.HA_DIR ?? this.state.directory);
  }

  /** The bank's DATABASE_URL: HAProxy's write port, which follows the primary. */
  get writeUrl(): string {
    return `postgres://bank:${this.state.passwords.bank}@${host}:${this.state.writePort}/bank`;
  }

  private restUrl(node: string): string {
    const found = this.state.nodes.find((entry) => entry.name === node);
    if (!found) throw new Error(`no node ${node}`);
    return `http://${host}:${found.restPort}`;
  }

  private get restAuthorization(): string {
    return `Basic ${Buffer.from(`patroni:${this.state.passwords.rest}`).toString('base64')}`;
  }

  /** The members as the first Patroni node that answers sees them. */
  async members(): Promise<HaMember[] | undefined> {
    for (const node of this.state.nodes) {
      const { status, body } = await getJson(`${this.restUrl(node.name)}/cluster`);
      const members = (body as { members?: HaMember[] } | undefined)?.members;
      if (status === 200 && members) return members;
    }
    return undefined;
  }

  async leader(): Promise<string | undefined> {
    return (await this.members())?.find((member) => member.role === 'leader' && member.state === 'running')?.name;
  }

  /** HAProxy's `show stat`: the nodes each port sends connections to now. */
  async routing(): Promise<{ primary: string[]; replicas: string[] }> {
    const csv = await new Promise<string>((resolve) => {
      let text = '';
      const socket = connect(path.join(this.state.directory, 'run', 'haproxy.sock'), () => socket.end('show stat\n'));
      socket
        .on('data', (chunk) => (text += chunk.toString()))
        .on('end', () => resolve(text))
        .on('error', () => resolve(''));
    });
    const routing = { primary: [] as string[], replicas: [] as string[] };
    for (const [proxy, server, ...fields] of csv.split('\n').map((line) => line.split(','))) {
      if ((proxy === 'primary' || proxy === 'replicas') && server && !['FRONTEND', 'BACKEND'].includes(server) && fields[15]?.startsWith('UP'))
        routing[proxy].push(server);
    }
    return routing;
  }

  /**
   * Healed: all three etcd members healthy, a leader with two replicas streaming from it (one the
   * synchronous standby when synchronous mode is on), and HAProxy's write port on the leader alone.
   */
  async healthy(synchronous = true): Promise<boolean> {
    for (const member of this.state.etcd) {
      const { body } = await getJson(`http://${host}:${member.clientPort}/health`);
      if ((body as { health?: string } | undefined)?.health !== 'true') return false;
    }
    const members = await this.members();
    const leader = members?.find((member) => member.role === 'leader' && member.state === 'running');
    if (!members || !leader) return false;
    if (members.filter((member) => member.role !== 'leader' && ['running', 'streaming'].includes(member.state)).length !== 2) return false;
    if (synchronous && !members.some((member) => member.role === 'sync_standby')) return false;
    const { body } = await getJson(`${this.restUrl(leader.name)}/patroni`);
    const replication = (body as { replication?: { state: string }[] } | undefined)?.replication ?? [];
    if (replication.filter((replica) => replica.state === 'streaming').length !== 2) return false;
    const { primary } = await this.routing();
    return primary.length === 1 && primary[0] === leader.name;
  }

  /** Polls until `check` holds; false when `timeoutMs` passed first. */
  async waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (await check()) return true;
      await sleep(pollIntervalMs);
    }
    return false;
  }

  /** The pid of a process the script started (run/<name>.pid), if it still runs. */
  startedPid(name: string, program: 'patroni' | 'etcd'): number | undefined {
    const file = path.join(this.state.directory, 'run', `${name}.pid`);
    const pid = existsSync(file) ? Number(readFileSync(file, 'utf8')) : undefined;
    return pidAlive(pid, program) ? pid : undefined;
  }

  /** The postmaster of `node` (the first line of its postmaster.pid), if it runs. */
  postmasterPid(node: string): number | undefined {
    const dataDirectory = path.join(this.state.directory, node, 'data');
    const file = path.join(dataDirectory, 'postmaster.pid');
    const pid = existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : undefined;
    return pidAlive(pid, dataDirectory) ? pid : undefined;
  }

  /** The etcd member that leads etcd's own Raft group now (the one whose loss costs an election). */
  async etcdLeader(): Promise<string | undefined> {
    for (const member of this.state.etcd) {
      const { body } = await getJson(`http://${host}:${member.clientPort}/v3/maintenance/status`, { method: 'POST', body: '{}' });
      const status = body as { leader?: string; header?: { member_id?: string } } | undefined;
      if (status?.leader && status.leader === status.header?.member_id) return member.name;
    }
    return undefined;
  }

  /**
   * Starts a process of the cluster again as the script does (as postgres when root, output to
   * logs/<name>.log, pid in run/<name>.pid so `npm run ha -- stop` stops it).
   */
  async relaunch(name: string, program: 'patroni' | 'etcd'): Promise<void> {
    const args =
      program === 'etcd' ? ['--config-file', path.join(this.state.directory, name, 'etcd.yml')] : [path.join(this.state.directory, name, 'patroni.yml')];
    const owner = process.getuid?.() === 0 ? await postgresOwner() : {};
    const output = openSync(path.join(this.state.directory, 'logs', `${name}.log`), 'a');
    const child = spawn(program, args, { detached: true, stdio: ['ignore', output, output], env: { ...process.env, HOME: this.state.directory }, ...owner });
    closeSync(output);
    writeFileSync(path.join(this.state.directory, 'run', `${name}.pid`), String(child.pid));
    child.unref();
  }

  /** A planned switchover (Patroni REST POST /switchover): the leader hands over to a healthy standby. */
  async switchover(leader: string): Promise<void> {
    const { status, body } = await getJson(
      `${this.restUrl(leader)}/switchover`,
      {
        method: 'POST',
        headers: { authorization: this.restAuthorization, 'content-type': 'application/json' },
        body: JSON.stringify({ leader }),
      },
      switchoverTimeoutMs,
    );
    if (status !== 200) throw new Error(`POST /switchover answered ${status}: ${JSON.stringify(body)}`);
  }

  /** Synchronous replication on (strict, as deploy/ha/patroni.yml sets it) or off, by PATCH /config. */
  async setSynchronous(on: boolean): Promise<void> {
    const leader = (await this.leader()) ?? this.state.nodes[0]?.name ?? 'node1';
    const { status, body } = await getJson(`${this.restUrl(leader)}/config`, {
      method: 'PATCH',
      headers: { authorization: this.restAuthorization, 'content-type': 'application/json' },
      body: JSON.stringify({ synchronous_mode: on, synchronous_mode_strict: on }),
    });
    if (status !== 200) throw new Error(`PATCH /config answered ${status}: ${JSON.stringify(body)}`);
    // Patroni applies it at the leader's next loop: no synchronous standby left (or one named again).
    const applied = async () => ((await this.members()) ?? []).some((member) => member.role === 'sync_standby') === on;
    if (!(await this.waitUntil(applied, 60_000))) throw new Error(`synchronous_mode ${on} was not applied within 60 s`);
  }
}

async function postgresOwner(): Promise<{ uid: number; gid: number }> {
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}
