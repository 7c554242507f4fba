#!/usr/bin/env node
// `npm test`'s second step: the browser journeys, the fault and attack suites and everything else,
// in three Vitest runs side by side.
//
// One Vitest run puts the journeys (a project with fileParallelism off) after all other files, so
// on 2 cores about nine minutes of journeys waited for the API suites to finish. The journeys spend
// most of their time waiting on Chromium and on the server they started, so they run in a process
// of their own from the start. The other suites' output streams as usual; the journeys' is printed
// once they end, so the two never interleave. The fault and attack suites (faults/) also wait mostly
// on processes they started (servers, PostgreSQL, sqlmap), so they get a process of their own too,
// printed the same way. Arguments after `npm test --` go to every run.
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

// A filter given to `npm test --` may match files of one run only; the other then has nothing to do.
const vitest = ['node_modules/vitest/vitest.mjs', 'run', '--passWithNoTests'];
const extraArguments = process.argv.slice(2);

// What the suites leave in the temporary directory (data directories, stand-in and built web apps,
// PostgreSQL clusters, backups, Chromium's profiles: some 900 directories and 330 MB a run, which
// piled up in /tmp run after run) goes into one directory of this run: TMPDIR is what Node's
// os.tmpdir() reads, in the Vitest workers and in every server, CLI, PostgreSQL, sqlmap and Chromium
// they start. It is removed once every run passed, and kept, and named, when one failed.
const runDirectory = await mkdtemp(path.join(tmpdir(), 'strongroom-test-run-'));
// The fault suites start PostgreSQL as the postgres user, in directories of their own under it.
await chmod(runDirectory, 0o755);

function run(projects, { streamOutput, maxWorkers }) {
  const projectFilter = projects.join(',');
  const workers = maxWorkers ? [`--maxWorkers=${maxWorkers}`] : [];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...vitest, ...projects.map((project) => `--project=${project}`), ...workers, ...extraArguments], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TMPDIR: runDirectory },
    });
    // A streamed run's output is kept too: its failures are printed again at the very end.
    const output = [];
    child.stdout.on('data', (chunk) => {
      output.push(chunk);
      if (streamOutput) process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      output.push(chunk);
      if (streamOutput) process.stderr.write(chunk);
    });
    child.on('close', (code, signal) => resolve({ projectFilter, code: code ?? (signal ? 1 : 0), output: Buffer.concat(output).toString() }));
  });
}

/**
 * The part of a Vitest run's output that says what failed: from its first "Failed Tests", "Failed
 * Suites" or "Unhandled Errors" heading to the end, without colours, at most the last 20,000
 * characters (when there is no such heading, Vitest itself broke: the last 5,000), after the seed
 * that replays the run's order.
 */
function failuresOf(output) {
  const plain = stripVTControlCharacters(output);
  const start = plain.search(/⎯+ (Failed Tests|Failed Suites|Unhandled Errors?)\b/);
  const failures = start === -1 ? plain.slice(-5_000) : plain.slice(start);
  const seed = plain.match(/^Random tests run with seed .*$/m)?.[0];
  return `${seed ? `${seed}\n` : ''}${failures.length > 20_000 ? `...\n${failures.slice(-20_000)}` : failures}`;
}

/**
 * Why each test failed, in brief: in Vitest's failure section every failed test has a "FAIL" line
 * followed by its error; the first eight lines of that error (at most 800 characters) are kept,
 * keyed by the FAIL line as it is printed.
 */
function reasonsOf(output) {
  const plain = stripVTControlCharacters(output);
  const start = plain.search(/⎯+ (Failed Tests|Failed Suites)\b/);
  const reasons = new Map();
  if (start === -1) return reasons;
  const blocks = plain
    .slice(start)
    .split(/^(?= *FAIL )/m)
    .slice(1);
  for (const block of blocks) {
    const [heading = '', ...rest] = block.split('\n');
    const error = rest
      .map((line) => line.trimEnd())
      .filter((line) => line.trim() !== '' && !/^⎯+/.test(line.trim()))
      .slice(0, 8)
      .join('\n');
    if (!reasons.has(heading.trim())) reasons.set(heading.trim(), error.length > 800 ? `${error.slice(0, 800)}...` : error);
  }
  return reasons;
}

function indent(text, prefix) {
  return text
    .split('\n')
    .map((line) => `${prefix}${line.trim()}`)
    .join('\n');
}

// Vitest ORs several `--project=!x` filters, so the first run names its projects instead.
// Vitest runs one file at a time on 2 cores (its default is one worker fewer than the cores); the
// suites wait on databases as much as they compute, so the first run takes two files at a time.
// Measured on fresh-clone CI runs on the 2-core machine: 1,203 s with the cores 1.27 busy on
// average, then 1,021 s with them 1.45 busy.
const runs = await Promise.all([
  run(['lint', 'contracts', 'api', 'web'], { streamOutput: true, maxWorkers: 2 }),
  run(['faults'], { streamOutput: false }),
  run(['e2e'], { streamOutput: false }),
]);
const [first, faults, journeys] = runs;
process.stdout.write(`\nThe fault and attack suites (vitest --project=faults):\n${faults.output}`);
process.stdout.write(`\nThe browser journeys (vitest --project=e2e):\n${journeys.output}`);
// The first run streamed long before the others ended, so a reader of the end of the output (a CI
// log is often cut to its last lines) would not see why it failed: its failures come again last.
if (first.code !== 0) process.stdout.write(`\nWhat failed in vitest --project=${first.projectFilter}:\n${failuresOf(first.output)}\n`);
// A CI log cut to its last lines may end inside one long failure (a DOM dump), so the very end
// names every failed test of every run in one line each, with the first lines of why it failed.
for (const { projectFilter, code, output } of runs) {
  if (code === 0) continue;
  const failedTests = [...new Set(stripVTControlCharacters(output).match(/^ *FAIL .*$/gm) ?? [])].map((line) => line.trim());
  const reasons = reasonsOf(output);
  const lines = failedTests.map((line) => `\n  ${line}${reasons.has(line) ? `\n${indent(reasons.get(line), '      ')}` : ''}`);
  process.stderr.write(`vitest --project=${projectFilter} failed (exit ${code})${lines.join('')}\n`);
}
const failed = runs.some(({ code }) => code !== 0);
if (failed) {
  process.stderr.write(`The runs' temporary files are kept for a look: ${runDirectory}\n`);
} else {
  await rm(runDirectory, { recursive: true, force: true }).catch((error) =>
    process.stderr.write(`The runs' temporary files could not all be removed (${error.message}): ${runDirectory}\n`),
  );
}
process.exitCode = failed ? 1 : 0;
