// `npm start`: build the web app and the server where they are missing or older than their sources,
// then run the compiled server with node (which applies migrations and seeds the sandbox itself).
// One process serves the API and the app (with WEB_CONCURRENCY=N it forks N workers that share the
// port, signals reach them through it). `npm run dev` runs the TypeScript through tsx instead.
import { spawnSync, spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const contracts = 'packages/contracts/src';

/** What each workspace builds, the file that marks a finished build, and what it is built from. */
const builds = [
  {
    name: 'the web app',
    workspace: 'apps/web',
    output: 'apps/web/dist/index.html',
    inputs: ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/package.json', contracts],
  },
  {
    name: 'the server',
    workspace: 'apps/api',
    output: 'apps/api/dist/main.js',
    inputs: ['apps/api/src', 'apps/api/esbuild.config.js', 'apps/api/package.json', contracts],
  },
];

/** The newest modification time under a file or folder, tests left out; 0 when it does not exist. */
function newestChangeMs(entry) {
  const info = statSync(entry, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return /\.test\.tsx?$/.test(entry) ? 0 : info.mtimeMs;
  return readdirSync(entry).reduce((newest, child) => Math.max(newest, newestChangeMs(path.join(entry, child))), info.mtimeMs);
}

for (const { name, workspace, output, inputs } of builds) {
  const built = statSync(path.join(root, output), { throwIfNoEntry: false });
  const sourcesMs = Math.max(...inputs.map((input) => newestChangeMs(path.join(root, input))));
  if (built && built.mtimeMs >= sourcesMs) continue;
  process.stdout.write(`Building ${name} (${built ? 'its sources changed' : 'first start only'})...\n`);
  const result = spawnSync('npm', ['run', 'build', '--workspace', workspace], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const server = spawn(process.execPath, ['--enable-source-maps', 'apps/api/dist/main.js'], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
