#!/usr/bin/env node
// `npm run lint`: no cycle between two source files, through imports that exist at run time (an
// `import type`, or an import whose names are all `type`, is erased and closes no cycle). It took
// the place of ESLint's import-x/no-cycle, which walked the import graph afresh from every import
// of every file: 60% of ESLint's time, about 10 s of a lint run on two cores, where this reads each
// file once and finds the strongly connected components of the graph (Tarjan). Tests are left out,
// as that rule left them: nothing imports a test, so a test cannot close a cycle.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const directories = (process.argv.length > 2 ? process.argv.slice(2) : ['apps', 'packages', 'bench', 'scripts']).map((directory) =>
  path.resolve(root, directory),
);
const sourcePattern = /\.(ts|tsx|js|mjs)$/;
const testPattern = /\.(test|e2e)\.tsx?$/;
const skipped = new Set(['node_modules', 'dist', 'coverage', 'test-results', '.output']);

/** What a file imports from a relative path, with whether it imports types only. */
const importPattern = /(?:^|[\s;])(import|export)\s+(type\s+)?(?:([^'";]*?)\s+from\s+)?'(\.{1,2}\/[^']+)'|import\(\s*'(\.{1,2}\/[^']+)'\s*\)/g;

function importsOf(source) {
  const found = [];
  for (const match of source.matchAll(importPattern)) {
    const dynamicSpecifier = match[5];
    if (dynamicSpecifier) {
      found.push({ specifier: dynamicSpecifier, typesOnly: false });
      continue;
    }
    const [, keyword, typeKeyword, clause = '', specifier] = match;
    // `export { a } from` and `import { a } from` with every name marked `type` are erased too.
    const braces = /^\{([^}]*)\}$/.exec(clause.trim());
    const names = braces
      ? braces[1]
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean)
      : [];
    const everyNameAType = names.length > 0 && names.every((name) => name.startsWith('type '));
    // A bare `export` without `from` is not an import; the pattern needs `from` or `import '...'`.
    if (keyword === 'export' && clause === '') continue;
    found.push({ specifier, typesOnly: Boolean(typeKeyword) || everyNameAType });
  }
  return found;
}

function sourceFiles(directory, files = []) {
  if (!existsSync(directory)) return files;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (skipped.has(entry.name) || entry.name.startsWith('.')) continue;
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) sourceFiles(full, files);
    else if (sourcePattern.test(entry.name) && !testPattern.test(entry.name)) files.push(full);
  }
  return files;
}

/** The file an import names: as written (imports name their extension), or with one added. */
function resolved(fromFile, specifier) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.js`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

function importGraph(files) {
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const edges = new Set();
    for (const { specifier, typesOnly } of importsOf(readFileSync(file, 'utf8'))) {
      if (typesOnly) continue;
      const target = resolved(file, specifier);
      if (target && target !== file && known.has(target)) edges.add(target);
    }
    graph.set(file, edges);
  }
  return graph;
}

/** The strongly connected components of more than one file (Tarjan's algorithm). */
function cyclicComponents(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const connect = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component);
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
  return components;
}

/** One cycle through a component's first file, found breadth first within the component. */
function cycleIn(graph, component) {
  const members = new Set(component);
  const [start] = [...component].sort();
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const route = [start];
        for (let step = node; step !== undefined; step = previous.get(step)) route.unshift(step);
        return route;
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start];
}

const graph = importGraph(directories.flatMap((directory) => sourceFiles(directory)));
const components = cyclicComponents(graph);
for (const component of components) {
  console.error(
    `file cycle: ${cycleIn(graph, component)
      .map((file) => path.relative(root, file))
      .join(' -> ')}`,
  );
}
process.exitCode = components.length > 0 ? 1 : 0;
