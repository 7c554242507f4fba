#!/usr/bin/env node
// `npm run lint`: no cycle between the API's feature modules. file-cycles.js sees cycles between
// files; this sees them between modules (apps/api/src/modules/<name>), where a
// cycle means two features that cannot be understood, tested or removed one without the other.
// Tests are left out: a test may set up state through any module.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const modulesDirectory = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../../apps/api/src/modules'));
const importPattern = /(?:^|\s)(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g;

/** For each module, the other modules its non-test files import, with one file that shows it. */
function moduleGraph() {
  const graph = new Map();
  for (const name of readdirSync(modulesDirectory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)) {
    const edges = new Map();
    const root = path.join(modulesDirectory, name);
    for (const file of readdirSync(root, { recursive: true })) {
      if (!/\.tsx?$/.test(file) || /\.test\.tsx?$/.test(file)) continue;
      const full = path.join(root, file);
      for (const match of readFileSync(full, 'utf8').matchAll(importPattern)) {
        const target = path.relative(modulesDirectory, path.resolve(path.dirname(full), match[1] ?? match[2]));
        const targetModule = target.split(path.sep)[0];
        if (target.startsWith('..') || targetModule === name || edges.has(targetModule)) continue;
        edges.set(targetModule, `${name}/${file} imports ${target.split(path.sep).join('/')}`);
      }
    }
    graph.set(name, edges);
  }
  return graph;
}

/** Every elementary cycle found by depth-first search, each reported once from its smallest name. */
function findCycles(graph) {
  const cycles = [];
  const visit = (start, current, trail) => {
    for (const next of graph.get(current)?.keys() ?? []) {
      if (next === start) cycles.push([...trail, start]);
      else if (next > start && !trail.includes(next)) visit(start, next, [...trail, next]);
    }
  };
  for (const start of [...graph.keys()].sort()) visit(start, start, [start]);
  return cycles;
}

const graph = moduleGraph();
const cycles = findCycles(graph);
for (const cycle of cycles) {
  console.error(`module cycle: ${cycle.join(' -> ')}`);
  for (let i = 0; i < cycle.length - 1; i += 1) console.error(`  ${graph.get(cycle[i]).get(cycle[i + 1])}`);
}
process.exitCode = cycles.length > 0 ? 1 : 0;
