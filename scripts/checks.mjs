#!/usr/bin/env node
// `npm test`'s first step: the lint and the type check side by side (each mostly uses one core),
// their output kept apart and printed in order, failing if either fails. Given npm scripts, it runs
// those side by side instead: `npm run lint` runs ESLint, the cycle checks and Prettier so (on two
// cores they took 58 s one after the other, ESLint and Prettier about 30 s each).
// Prettier keeps a cache of the files it found formatted (node_modules/.cache/prettier), by content,
// so a second run checks only what changed. ESLint keeps none: import-x/no-unresolved and the
// boundary rules judge a file by others that may have changed.
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(script) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '-s', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => resolve({ script, code, output: Buffer.concat(output).toString() }));
  });
}

const asked = process.argv.slice(2);
const results = await Promise.all((asked.length > 0 ? asked : ['lint', 'typecheck']).map(run));
for (const { script, code, output } of results) {
  const shown = output.replace(/^npm warn Unknown user config.*\n/gm, '');
  if (shown.trim()) process.stdout.write(`${script}:\n${shown}`);
  if (code !== 0) process.stderr.write(`npm run ${script} failed (exit ${code})\n`);
}
process.exitCode = results.some(({ code }) => code !== 0) ? 1 : 0;
