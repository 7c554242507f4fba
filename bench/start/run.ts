/**
 * `npm run bench:start`: how long the server takes to start and how much memory it holds, run the
 * way `npm start` ran it before decision 024 (TypeScript through tsx) and the way it runs it now
 * (the esbuild bundle under node, with and without source maps). The variants take turns, run after
 * run, so drift in a shared machine's speed reaches them alike. Each variant restarts on a data
 * directory of its own that an uncounted first run migrated and seeded: the figure is a restart,
 * not a first start (which is mostly creating the PGlite database). Appends to bench/RESULTS.md.
 *
 * Per run: spawn to the first answer of /api/v1/health; spawn to "is open at" (sandbox seeded);
 * VmRSS then, and after 50 more requests; VmHWM (peak resident memory) at the end. Opening PGlite
 * takes most of a start, so each run also loads the code alone: BANK_MODE=production without its
 * settings makes the server refuse to start once every module is loaded, and /usr/bin/time gives
 * that process's wall and CPU seconds and peak memory.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { appendFile, mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const runs = Number(process.env.BENCH_RUNS ?? 7);
const startTimeoutMs = 120_000;
const pollIntervalMs = 10;
const requestsAfterStart = 50;
const requestPaths = ['/api/v1/health', '/api/v1/ready', '/api/v1/openapi.json', '/api/v1/health', '/api/v1/dev/outbox'];

const variants = [
  { name: 'tsx: node --import tsx apps/api/src/main.ts (before)', args: ['--import', 'tsx', 'apps/api/src/main.ts'] },
  { name: 'compiled: node --enable-source-maps apps/api/dist/main.js (after, npm start)', args: ['--enable-source-maps', 'apps/api/dist/main.js'] },
  { name: 'compiled, no source maps: node apps/api/dist/main.js', args: ['apps/api/dist/main.js'] },
] as const;

interface LoadSample {
  wallSeconds: number;
  cpuSeconds: number;
  peakKiB: number;
}

interface Sample {
  healthMs: number;
  openMs: number;
  rssOpenKiB: number;
  rssAfterRequestsKiB: number;
  peakKiB: number;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

async function statusKiB(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
  if (!match?.[1]) throw new Error(`no ${field} for ${pid}`);
  return Number(match[1]);
}

async function startOnce(args: readonly string[], dataDirectory: string): Promise<Sample> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const startedAt = performance.now();
  const server = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', BANK_MODE: 'sandbox', PORT: String(port), DATA_DIR: dataDirectory, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let openMs: number | undefined;
  server.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (openMs === undefined && output.includes('is open at')) openMs = performance.now() - startedAt;
  });
  server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => server.on('exit', () => resolve()));
  const pid = server.pid;
  if (pid === undefined) throw new Error('the server did not start');
  try {
    const deadline = performance.now() + startTimeoutMs;
    const waitFor = async (done: () => Promise<boolean> | boolean) => {
      while (!(await done())) {
        if (performance.now() > deadline || server.exitCode !== null) throw new Error(`the server did not start: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
      }
    };
    await waitFor(() =>
      fetch(`${origin}/api/v1/health`).then(
        (response) => response.ok,
        () => false,
      ),
    );
    const healthMs = performance.now() - startedAt;
    await waitFor(() => openMs !== undefined);
    const rssOpenKiB = await statusKiB(pid, 'VmRSS');
    for (let index = 0; index < requestsAfterStart; index += 1) {
      const response = await fetch(`${origin}${requestPaths[index % requestPaths.length]}`);
      if (!response.ok) throw new Error(`${response.url} answered ${response.status}`);
      await response.arrayBuffer();
    }
    const rssAfterRequestsKiB = await statusKiB(pid, 'VmRSS');
    const peakKiB = await statusKiB(pid, 'VmHWM');
    return { healthMs, openMs: openMs ?? Number.NaN, rssOpenKiB, rssAfterRequestsKiB, peakKiB };
  } finally {
    server.kill('SIGTERM');
    await exited;
  }
}

/** Loads every module, then exits 1 at the configuration check (nothing is opened or listened on). */
function loadOnce(args: readonly string[], timingFile: string): LoadSample {
  const result = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', '-o', timingFile, process.execPath, ...args], {
    cwd: root,
    env: { ...process.env, BANK_MODE: 'production', DATABASE_URL: '' },
    encoding: 'utf8',
  });
  if (result.status !== 1 || !result.stderr.includes('BANK_MODE=production')) throw new Error(`the server did not refuse its configuration: ${result.stderr}`);
  const [wall, user, system, peak] = readFileSync(timingFile, 'utf8').trim().split('\n').at(-1)?.split(' ').map(Number) ?? [];
  if (wall === undefined || user === undefined || system === undefined || peak === undefined) throw new Error('no timing from /usr/bin/time');
  return { wallSeconds: wall, cpuSeconds: user + system, peakKiB: peak };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function figure<T>(samples: T[], pick: (sample: T) => number, unit: 'ms' | 'MiB' | 's'): string {
  const values = samples.map(pick).map((value) => (unit === 'MiB' ? value / 1024 : value));
  const format = (value: number) => (unit === 'ms' ? Math.round(value).toLocaleString('en-US') : value.toFixed(unit === 's' ? 2 : 1));
  return `${format(median(values))} (${format(Math.min(...values))}-${format(Math.max(...values))})`;
}

async function main(): Promise<void> {
  const build = spawnSync(process.execPath, ['apps/api/esbuild.config.js'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the server did not build');
  const machine = `${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, Node ${process.version}`;
  const loadAtStart = os.loadavg()[0]?.toFixed(1) ?? '?';
  console.log(`machine: ${machine}; ${runs} runs of each, alternating`);

  const dataDirectories: string[] = [];
  for (const variant of variants) {
    const dataDirectory = await mkdtemp(path.join(os.tmpdir(), 'strongroom-bench-start-'));
    await startOnce(variant.args, dataDirectory); // Migrates and seeds; not counted.
    dataDirectories.push(dataDirectory);
  }
  const samples: Sample[][] = variants.map(() => []);
  const canTime = existsSync('/usr/bin/time');
  const timingFile = path.join(dataDirectories[0] ?? os.tmpdir(), 'load-timing.txt');
  const loadSamples: LoadSample[][] = variants.map(() => []);
  for (let run = 0; run < runs; run += 1) {
    for (let turn = 0; turn < variants.length; turn += 1) {
      const index = (run + turn) % variants.length;
      const variant = variants[index];
      const dataDirectory = dataDirectories[index];
      if (!variant || !dataDirectory) throw new Error('no variant');
      const sample = await startOnce(variant.args, dataDirectory);
      samples[index]?.push(sample);
      if (canTime) loadSamples[index]?.push(loadOnce(variant.args, timingFile));
      console.log(
        `run ${run + 1} ${variant.name}: health ${Math.round(sample.healthMs)} ms, open ${Math.round(sample.openMs)} ms, RSS ${(sample.rssOpenKiB / 1024).toFixed(1)} MiB, after requests ${(sample.rssAfterRequestsKiB / 1024).toFixed(1)} MiB`,
      );
    }
  }

  const rows = variants.map((variant, index) => {
    const of = samples[index] ?? [];
    return `| ${variant.name} | ${figure(of, (sample) => sample.healthMs, 'ms')} | ${figure(of, (sample) => sample.openMs, 'ms')} | ${figure(of, (sample) => sample.rssOpenKiB, 'MiB')} | ${figure(of, (sample) => sample.rssAfterRequestsKiB, 'MiB')} | ${figure(of, (sample) => sample.peakKiB, 'MiB')} |`;
  });
  const loadRows = variants.map((variant, index) => {
    const of = loadSamples[index] ?? [];
    return `| ${variant.name} | ${figure(of, (sample) => sample.wallSeconds, 's')} | ${figure(of, (sample) => sample.cpuSeconds, 's')} | ${figure(of, (sample) => sample.peakKiB, 'MiB')} |`;
  });
  const loadTable = canTime
    ? `
Loading the code alone (BANK_MODE=production without its settings: every module loaded, then the refusal; /usr/bin/time):

| command | wall, s | CPU (user + sys), s | peak RSS, MiB |
|---|---:|---:|---:|
${loadRows.join('\n')}
`
    : '';
  const section = `
## ${new Date().toISOString()} server start

- machine: ${machine}; 1-minute load average ${loadAtStart} at the start, ${os.loadavg()[0]?.toFixed(1) ?? '?'} at the end (the machine is shared)
- each variant restarted ${runs} times, in turn with the others, on its own PGlite data directory (migrated and seeded by an uncounted first start), sandbox mode; median (min-max)
- start to health: spawn to the first 200 from /api/v1/health; start to open: spawn to "is open at" (sandbox seeded); RSS: VmRSS at open, then after ${requestsAfterStart} requests (health, ready, openapi.json, dev/outbox); peak: VmHWM

| command | start to health, ms | start to open, ms | RSS at open, MiB | RSS after ${requestsAfterStart} requests, MiB | peak RSS, MiB |
|---|---:|---:|---:|---:|---:|
${rows.join('\n')}
${loadTable}`;
  console.log(section);
  await appendFile(path.join(root, 'bench/RESULTS.md'), section);
}

await main();
