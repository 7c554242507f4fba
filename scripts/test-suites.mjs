#!/usr/bin/env node
// `npm test`'s second step: the browser journeys beside everything else, in two Vitest runs.
//
// One Vitest run puts the journeys (a project with fileParallelism off) after all other files, so
// on 2 cores about nine minutes of journeys waited for the API suites to finish. The journeys spend
// most of their time waiting on Chromium and on the server they started, so they run in a process
// of their own from the start. The other suites' output streams as usual; the journeys' is printed
// once they end, so the two never interleave. Arguments after `npm test --` go to both runs.
import { spawn } from 'node:child_process';

// A filter given to `npm test --` may match files of one run only; the other then has nothing to do.
const vitest = ['node_modules/vitest/vitest.mjs', 'run', '--passWithNoTests'];
const extraArguments = process.argv.slice(2);

function run(projectFilter, { streamOutput }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...vitest, `--project=${projectFilter}`, ...extraArguments], {
      stdio: ['ignore', streamOutput ? 'inherit' : 'pipe', streamOutput ? 'inherit' : 'pipe'],
    });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => resolve({ projectFilter, code: code ?? (signal ? 1 : 0), output: Buffer.concat(output).toString() }));
  });
}

const [others, journeys] = await Promise.all([run('!e2e', { streamOutput: true }), run('e2e', { streamOutput: false })]);
process.stdout.write(`\nThe browser journeys (vitest --project=e2e):\n${journeys.output}`);
for (const { projectFilter, code } of [others, journeys]) {
  if (code !== 0) process.stderr.write(`vitest --project=${projectFilter} failed (exit ${code})\n`);
}
process.exitCode = others.code !== 0 || journeys.code !== 0 ? 1 : 0;
