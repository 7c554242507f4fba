// `npm run ha -- start|stop|status [--keep]`: a PostgreSQL cluster that survives losing its primary, on
// one machine for trying and testing (issue 36, item 1). Three etcd members, three Patroni nodes
// each running a PostgreSQL 15 (synchronous, strict), and HAProxy with a write port (the primary)
// and a read port (the replicas), all on loopback, all under one directory: HA_DIR, or
// <tmp>/strongroom-ha. The configuration is deploy/ha/*, filled here with ports and paths.
//
// Ports are free ones below the kernel's ephemeral range, or HA_PORT_BASE and the 13 after it. As root, every
// process runs as the `postgres` user (PostgreSQL refuses root) and the directory is theirs;
// otherwise everything runs as the user who calls it.
//
// HA_NODE_ETCD_PORTS=1 gives each Patroni node etcd client ports of its own on every member (9
// ports more, so HA_PORT_BASE and the 22 after it): on one machine every process talks over
// 127.0.0.1, so the failover test (`npm run chaos:ha`) can only cut one node off the others by
// dropping its ports, and the ports it uses to reach etcd must be its alone (docs/deploy.md).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const templates = path.join(root, 'deploy/ha');
const directory = path.resolve(process.env.HA_DIR ?? path.join(tmpdir(), 'strongroom-ha'));
const stateFile = path.join(directory, 'cluster.json');
const pidFile = (name) => path.join(directory, 'run', `${name}.pid`);
const logFile = (name) => path.join(directory, 'logs', `${name}.log`);
const haproxySocket = path.join(directory, 'run', 'haproxy.sock');
const host = '127.0.0.1';
const pgBinDirectory = process.env.HA_PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';
const nodeNames = ['node1', 'node2', 'node3'];
const etcdNames = ['etcd1', 'etcd2', 'etcd3'];
const nodeEtcdPorts = process.env.HA_NODE_ETCD_PORTS === '1';
const portsNeeded = 2 + nodeNames.length * 2 + etcdNames.length * 2 + (nodeEtcdPorts ? etcdNames.length * nodeNames.length : 0);
const readyTimeoutMs = 180_000;
const stopTimeoutMs = 60_000;
const pollIntervalMs = 500;
const httpTimeoutMs = 2_000;
const asRoot = process.getuid?.() === 0;

/** The programs the cluster runs, where they are, and the Debian package that ships each. */
const tools = {
  etcd: { file: findProgram('etcd'), debianPackage: 'etcd-server' },
  patroni: { file: findProgram('patroni'), debianPackage: 'patroni' },
  haproxy: { file: findProgram('haproxy'), debianPackage: 'haproxy' },
  postgres: { file: path.join(pgBinDirectory, 'postgres'), debianPackage: 'postgresql-15' },
};

function findProgram(name) {
  const directories = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin', '/sbin'];
  return directories.map((entry) => path.join(entry, name)).find((file) => existsSync(file)) ?? path.join('/usr/bin', name);
}

function checkTools() {
  const missing = Object.entries(tools).filter(([, tool]) => !existsSync(tool.file));
  if (asRoot && spawnSync('id', ['postgres']).status !== 0) missing.push(['the postgres user', { file: 'id postgres', debianPackage: 'postgresql-15' }]);
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map(([, tool]) => tool.debianPackage))];
  console.error(`ha: missing ${missing.map(([name, tool]) => `${name} (${tool.file})`).join(', ')}.`);
  console.error(`Install with: apt-get install ${packages.join(' ')}`);
  console.error('(HA_PG_BIN_DIR points at another PostgreSQL 15 bin directory.)');
  process.exit(1);
}

/** The uid and gid the cluster's processes run as: postgres's when we are root, our own otherwise. */
function owner() {
  if (!asRoot) return {};
  const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function pickPorts() {
  if (process.env.HA_PORT_BASE) {
    const base = Number(process.env.HA_PORT_BASE);
    if (!Number.isInteger(base) || base < 1024 || base + portsNeeded > 65536)
      throw new Error(`HA_PORT_BASE must be a port from 1024 to ${65536 - portsNeeded}`);
    return Array.from({ length: portsNeeded }, (_, index) => base + index);
  }
  // Free ports below the kernel's ephemeral range. A port the kernel picks for a listener comes
  // from that range, and once released it can be handed to any outgoing connection (a test suite
  // opens thousands) before PostgreSQL or etcd binds it: "Address already in use", or a node that
  // cannot restart after a failover. Ports below the range are never handed out that way.
  const [ephemeralLow] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  const high = Math.max(2_048, (Number.isInteger(ephemeralLow) ? ephemeralLow : 32_768) - 1);
  const low = Math.max(1_024, high - 12_000);
  const held = [];
  const tryListen = (port) =>
    new Promise((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(undefined));
      server.listen(port, host, () => resolve(server));
    });
  // Hold every port open until all are picked, so none is picked twice.
  for (let attempt = 0; held.length < portsNeeded && attempt < portsNeeded * 50; attempt++) {
    const server = await tryListen(low + Math.floor(Math.random() * (high - low)));
    if (server) held.push(server);
  }
  const ports = held.map((server) => server.address().port);
  await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  if (ports.length < portsNeeded) throw new Error(`no ${portsNeeded} free ports between ${low} and ${high}; set HA_PORT_BASE`);
  return ports;
}

async function newState() {
  const ports = await pickPorts();
  const take = () => ports.shift();
  const password = () => randomBytes(18).toString('base64url');
  const state = {
    directory,
    writePort: take(),
    readPort: take(),
    etcd: etcdNames.map((name) => ({ name, clientPort: take(), peerPort: take() })),
    nodes: nodeNames.map((name) => ({ name, pgPort: take(), restPort: take() })),
    passwords: { superuser: password(), replication: password(), rewind: password(), rest: password(), bank: password() },
  };
  // Taken last, so the other ports stay where they were without HA_NODE_ETCD_PORTS.
  if (nodeEtcdPorts) for (const member of state.etcd) member.nodeClientPorts = Object.fromEntries(nodeNames.map((name) => [name, take()]));
  return state;
}

/** The etcd client addresses node `name` uses: its own ports on each member when it has them. */
function etcdHostsOf(state, name) {
  return state.etcd.map((member) => `${host}:${member.nodeClientPorts?.[name] ?? member.clientPort}`).join(',');
}

/** A file of deploy/ha with every {{FIELD}} replaced; a field without a value is an error. */
function fill(template, values) {
  return readFileSync(path.join(templates, template), 'utf8').replace(/\{\{(\w+)\}\}/g, (_, field) => {
    if (!(field in values)) throw new Error(`deploy/ha/${template}: no value for {{${field}}}`);
    return String(values[field]);
  });
}

function writeConfiguration(state) {
  for (const folder of ['run', 'logs', ...etcdNames, ...nodeNames]) mkdirSync(path.join(directory, folder), { recursive: true });
  const initialCluster = state.etcd.map((member) => `${member.name}=http://${host}:${member.peerPort}`).join(',');
  for (const member of state.etcd) {
    const nodePorts = Object.values(member.nodeClientPorts ?? {});
    const values = {
      NAME: member.name,
      HOST: host,
      CLIENT_PORT: member.clientPort,
      MORE_CLIENT_URLS: nodePorts.map((port) => `,http://${host}:${port}`).join(''),
      PEER_PORT: member.peerPort,
      INITIAL_CLUSTER: initialCluster,
    };
    writeFileSync(path.join(directory, member.name, 'etcd.yml'), fill('etcd.yml', { ...values, DATA_DIR: path.join(directory, member.name, 'data') }));
  }
  for (const node of state.nodes) {
    const values = {
      NAME: node.name,
      HOST: host,
      REST_PORT: node.restPort,
      PG_PORT: node.pgPort,
      REST_PASSWORD: state.passwords.rest,
      ETCD_HOSTS: etcdHostsOf(state, node.name),
      DATA_DIR: path.join(directory, node.name, 'data'),
      PG_BIN_DIR: pgBinDirectory,
      PGPASS_FILE: path.join(directory, node.name, 'pgpass'),
      SUPERUSER_PASSWORD: state.passwords.superuser,
      REPLICATION_PASSWORD: state.passwords.replication,
      REWIND_PASSWORD: state.passwords.rewind,
      SOCKET_DIR: path.join(directory, 'run'),
      CLIENT_CIDR: `${host}/32`,
    };
    const file = path.join(directory, node.name, 'patroni.yml');
    writeFileSync(file, fill('patroni.yml', values));
    chmodSync(file, 0o600);
  }
  const servers = state.nodes.map((node) => `    server ${node.name} ${host}:${node.pgPort} maxconn 100 check port ${node.restPort}`).join('\n');
  const haproxy = { HOST: host, WRITE_PORT: state.writePort, READ_PORT: state.readPort, SERVERS: servers, STATS_SOCKET: haproxySocket };
  writeFileSync(path.join(directory, 'haproxy.cfg'), fill('haproxy.cfg', haproxy));
  writeFileSync(stateFile, JSON.stringify(state, null, 2), { mode: 0o600 });
}

/** What this run launched, as [name, program]: a waitFor fails as soon as one of them dies. */
const launched = [];

/** Starts a program in the background, its output in logs/<name>.log and its pid in run/<name>.pid. */
function launch(name, program, args) {
  launched.push([name, path.basename(program)]);
  const output = openSync(logFile(name), 'a');
  const child = spawn(program, args, { detached: true, stdio: ['ignore', output, output], env: { ...process.env, HOME: directory }, ...owner() });
  closeSync(output);
  writeFileSync(pidFile(name), String(child.pid));
  child.unref();
}

/** Whether process `pid` is alive and its command line still mentions `marker` (pids are reused). */
function alive(pid, marker) {
  try {
    return pid > 0 && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
  } catch {
    return false; // no such process
  }
}

/** The pid in run/<name>.pid when that process is alive and still the program we started. */
function runningPid(name, program) {
  const pid = Number(existsSync(pidFile(name)) ? readFileSync(pidFile(name), 'utf8') : 0);
  return alive(pid, program) ? pid : undefined;
}

async function getJson(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(httpTimeoutMs) });
    return { status: response.status, body: await response.json().catch(() => undefined) };
  } catch {
    return { status: 0, body: undefined };
  }
}

/** Polls `check` until it returns a value; fails with the log's tail if a started process died. */
async function waitFor(what, check) {
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    const value = await check();
    if (value) return value;
    for (const [name, program] of launched) {
      if (runningPid(name, program)) continue;
      const tail = readFileSync(logFile(name), 'utf8').split('\n').slice(-20).join('\n');
      throw new Error(`${name} exited while waiting for ${what}; the end of ${logFile(name)}:\n${tail}`);
    }
    await sleep(pollIntervalMs);
  }
  throw new Error(`gave up waiting for ${what} after ${readyTimeoutMs / 1000} s (logs in ${path.join(directory, 'logs')})`);
}

async function clusterView(state) {
  for (const node of state.nodes) {
    const { status, body } = await getJson(`http://${host}:${node.restPort}/cluster`);
    if (status === 200 && body?.members) return body.members;
  }
  return undefined;
}

/** A primary, and two replicas streaming from it (one of them the synchronous standby). */
async function clusterReady(state) {
  const members = await clusterView(state);
  const leader = members?.find((member) => member.role === 'leader' && member.state === 'running');
  if (!leader || members.filter((member) => member.role !== 'leader' && member.state === 'running').length !== 2) return false;
  if (!members.some((member) => member.role === 'sync_standby')) return false;
  const { body } = await getJson(`${leader.api_url.replace(/\/patroni$/, '')}/patroni`);
  return (body?.replication ?? []).filter((replica) => replica.state === 'streaming').length === 2;
}

/** HAProxy's `show stat`: for each port, the nodes it currently sends connections to. */
async function haproxyRouting() {
  const csv = await new Promise((resolve) => {
    let text = '';
    const socket = net.connect(haproxySocket, () => socket.end('show stat\n'));
    socket
      .on('data', (chunk) => (text += chunk))
      .on('end', () => resolve(text))
      .on('error', () => resolve(''));
  });
  const routing = { primary: [], replicas: [] };
  for (const [proxy, server, ...fields] of csv.split('\n').map((line) => line.split(','))) {
    if (routing[proxy] && !['FRONTEND', 'BACKEND'].includes(server) && fields[15]?.startsWith('UP')) routing[proxy].push(server);
  }
  return routing;
}

function psql(state, port, sql) {
  const url = `postgres://postgres@${host}:${port}/postgres`;
  const result = spawnSync(path.join(pgBinDirectory, 'psql'), [url, '-v', 'ON_ERROR_STOP=1', '-qAt', '-c', sql], {
    env: { ...process.env, PGPASSWORD: state.passwords.superuser, PGCONNECT_TIMEOUT: '5' },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`psql through port ${port} failed: ${result.stderr}`);
}

async function start() {
  checkTools();
  const programs = [...etcdNames.map((name) => [name, 'etcd']), ...nodeNames.map((name) => [name, 'patroni']), ['haproxy', 'haproxy']];
  const running = programs.filter(([name, program]) => runningPid(name, program));
  if (running.length > 0) throw new Error(`a cluster is already running in ${directory} (${running.map(([name]) => name).join(', ')}); npm run ha -- stop`);
  const fresh = !existsSync(stateFile);
  const state = fresh ? await newState() : readState();
  console.log(`ha: ${fresh ? 'a new cluster' : 'the kept cluster'} in ${directory}${asRoot ? ' (its processes run as postgres)' : ''}`);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  writeConfiguration(state);
  if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', directory]);

  for (const member of state.etcd) {
    launch(member.name, tools.etcd.file, ['--config-file', path.join(directory, member.name, 'etcd.yml')]);
  }
  for (const member of state.etcd) {
    await waitFor(`etcd member ${member.name}`, async () => (await getJson(`http://${host}:${member.clientPort}/health`)).body?.health === 'true');
  }
  console.log('ha: etcd is up (3 members)');

  // The first node initialises the cluster; the others start once it leads, and copy it. A kept
  // cluster starts all three at once and lets Patroni elect the most advanced.
  const startNode = (node) => launch(node.name, tools.patroni.file, [path.join(directory, node.name, 'patroni.yml')]);
  const [first, ...others] = state.nodes;
  startNode(first);
  if (fresh) await waitFor('the first node to lead', async () => (await getJson(`http://${host}:${first.restPort}/primary`)).status === 200);
  others.forEach(startNode);
  await waitFor('a primary and two streaming replicas', () => clusterReady(state));
  console.log('ha: Patroni is up (a primary, a synchronous standby, a replica)');

  launch('haproxy', tools.haproxy.file, ['-f', path.join(directory, 'haproxy.cfg')]);
  // Ready when HAProxy's own checks agree: one node behind the write port, two behind the read port.
  const routedRight = ({ primary, replicas }) => primary.length === 1 && replicas.length === 2;
  await waitFor('HAProxy to route to the primary and the replicas', async () => routedRight(await haproxyRouting()));

  if (fresh) {
    psql(state, state.writePort, `CREATE ROLE bank LOGIN PASSWORD '${state.passwords.bank}'`);
    psql(state, state.writePort, 'CREATE DATABASE bank OWNER bank');
  }
  printAddresses(state);
}

function printAddresses(state) {
  const url = (port) => `postgres://bank:${state.passwords.bank}@${host}:${port}/bank`;
  console.log(`
Writes (the primary):   DATABASE_URL=${url(state.writePort)}
Reads (the replicas):   ${url(state.readPort)}
Superuser:              postgres://postgres:${state.passwords.superuser}@${host}:${state.writePort}/postgres
Patroni REST:           ${state.nodes.map((node) => `${node.name} http://${host}:${node.restPort}`).join(', ')}
patronictl:             patronictl -c ${path.join(directory, 'node1', 'patroni.yml')} list
Logs:                   ${path.join(directory, 'logs')}
Stop:                   npm run ha -- stop [--keep]${process.env.HA_DIR ? ` (with HA_DIR=${directory})` : ''}`);
}

function readState() {
  if (!existsSync(stateFile)) throw new Error(`no cluster in ${directory} (HA_DIR chooses another)`);
  return JSON.parse(readFileSync(stateFile, 'utf8'));
}

async function status() {
  const state = readState();
  const members = await clusterView(state);
  if (!members) throw new Error(`no Patroni node answers (REST ports ${state.nodes.map((node) => node.restPort).join(', ')})`);
  const rows = members.map((member) => [member.name, member.role, member.state, `${member.host}:${member.port}`, member.timeline ?? '', member.lag ?? '']);
  const table = [['member', 'role', 'state', 'address', 'timeline', 'lag (bytes)'], ...rows];
  const widths = table[0].map((_, column) => Math.max(...table.map((row) => String(row[column]).length)));
  for (const row of table) console.log(row.map((cell, column) => String(cell).padEnd(widths[column])).join('  '));
  const routing = await haproxyRouting();
  console.log(
    `\nHAProxy: writes (${state.writePort}) -> ${routing.primary.join(', ') || 'nobody'}; reads (${state.readPort}) -> ${routing.replicas.join(', ') || 'nobody'}`,
  );
  printAddresses(state);
}

/** `signal` (SIGTERM), then SIGKILL if the process has not exited within the stop timeout. */
async function stopProcess(name, pid, marker, signal = 'SIGTERM') {
  if (!alive(pid, marker)) return;
  process.kill(pid, signal);
  const startedMs = Date.now();
  while (alive(pid, marker) && Date.now() < startedMs + stopTimeoutMs) await sleep(pollIntervalMs);
  if (!alive(pid, marker)) return console.log(`ha: stopped ${name} (${((Date.now() - startedMs) / 1000).toFixed(1)} s)`);
  console.warn(`ha: ${name} did not stop within ${stopTimeoutMs / 1000} s; killing it`);
  process.kill(pid, 'SIGKILL');
}

/** A postmaster its Patroni left behind (Patroni killed first): a fast shutdown (SIGINT). */
async function stopOrphanPostgres(node) {
  const dataDirectory = path.join(directory, node, 'data');
  const postmasterFile = path.join(dataDirectory, 'postmaster.pid');
  const pid = Number(existsSync(postmasterFile) ? readFileSync(postmasterFile, 'utf8').split('\n')[0] : 0);
  if (!alive(pid, dataDirectory)) return;
  console.warn(`ha: ${node}'s PostgreSQL outlived its Patroni; stopping it`);
  await stopProcess(`${node}'s PostgreSQL`, pid, dataDirectory, 'SIGINT');
}

async function stop(keep) {
  const state = readState();
  // HAProxy first (no new connections), then the replicas, then the primary (so nothing fails
  // over while stopping), then etcd, which the nodes need until the end.
  const stopStarted = (name, program) => stopProcess(name, runningPid(name, program), program);
  await stopStarted('haproxy', 'haproxy');
  const leader = (await clusterView(state))?.find((member) => member.role === 'leader')?.name;
  const stopNode = async (node) => {
    await stopStarted(node, 'patroni');
    await stopOrphanPostgres(node);
  };
  // A replica's Patroni took up to 12 s to stop in trials (the leader's 3 s): stop them together.
  await Promise.all(nodeNames.filter((name) => name !== leader).map(stopNode));
  if (leader) await stopNode(leader);
  await Promise.all(etcdNames.map((member) => stopStarted(member, 'etcd')));
  if (keep) {
    console.log(`ha: stopped; kept ${directory} (npm run ha -- start starts it again)`);
  } else {
    rmSync(directory, { recursive: true, force: true });
    console.log(`ha: stopped; removed ${directory}`);
  }
}

const [command, ...options] = process.argv.slice(2);
const commands = { start: () => start(), stop: () => stop(options.includes('--keep')), status: () => status() };
if (!commands[command]) {
  console.error('usage: npm run ha -- start | stop [--keep] | status   (HA_DIR, HA_PORT_BASE, HA_PG_BIN_DIR: see scripts/ha-cluster.mjs)');
  process.exit(2);
}
try {
  await commands[command]();
} catch (error) {
  console.error(`ha: ${error.message}`);
  if (launched.length > 0) console.error('ha: what did start is still running: npm run ha -- stop --keep stops it and keeps the logs');
  process.exit(1);
}
