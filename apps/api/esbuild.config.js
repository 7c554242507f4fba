// `npm run build --workspace apps/api` (and `npm start` when the sources changed): bundles the
// server into dist/main.js for `node` to run (docs/decisions/024-compiled-production-start.md).
// The app's own TypeScript and packages/contracts are bundled; every npm package stays in
// node_modules, loaded as it is under tsx. What the code reads from disk beside itself travels too:
// db/migrate.ts reads ./migrations/ relative to its own file, so the SQL is copied to
// dist/migrations/; config.ts finds the web app at ../../web/dist, which holds from dist/ as from src/.
import { cp, rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const apiDirectory = import.meta.dirname;
const outDirectory = path.join(apiDirectory, 'dist');

/** npm packages are loaded from node_modules at run time; the workspace's own (TypeScript source) are bundled. */
const npmPackagesExternal = {
  name: 'npm-packages-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === 'entry-point' || args.path.startsWith('@strongroom/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

// A previous build's files go first, so a migration deleted from the sources is not applied from dist/.
await rm(outDirectory, { recursive: true, force: true });
await build({
  absWorkingDir: apiDirectory,
  entryPoints: { main: 'src/main.ts' },
  outdir: outDirectory,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  plugins: [npmPackagesExternal],
  // Stack traces name the TypeScript lines (`node --enable-source-maps`); the sources are in the
  // repository beside the map, so the map does not carry a second copy of them.
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
});
await cp(path.join(apiDirectory, 'src/db/migrations'), path.join(outDirectory, 'migrations'), { recursive: true });
