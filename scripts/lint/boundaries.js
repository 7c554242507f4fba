// The repository's own lint rule: a feature module in apps/api/src/modules reaches another module only
// through that module's service.ts. What two modules both need moves down to platform/ or to the
// contracts instead. Tests may set up state through any module, and the ops registry
// (modules/ops/registry.ts) lists every module's ops-commands.ts.
import path from 'node:path';

const modulesSegment = `${path.sep}apps${path.sep}api${path.sep}src${path.sep}modules${path.sep}`;

/** The module a file belongs to and its path inside that module, or undefined outside the modules. */
function locate(file) {
  const at = file.indexOf(modulesSegment);
  if (at < 0) return undefined;
  const [name, ...rest] = file.slice(at + modulesSegment.length).split(path.sep);
  return { name, inner: rest.join('/') };
}

const moduleBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: "A feature module imports another module only through that module's service.ts" },
    schema: [],
    messages: {
      reachesIn:
        'modules/{{from}} reaches into modules/{{to}}/{{inner}}: go through modules/{{to}}/service.ts, or move the shared part down to platform/ or packages/contracts.',
    },
  },
  create(context) {
    const file = context.filename;
    const importer = locate(file);
    if (!importer || /\.test\.tsx?$/.test(file)) return {};
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = locate(path.resolve(path.dirname(file), source));
      if (!target || target.name === importer.name) return;
      if (target.inner === 'service.ts') return;
      if (importer.name === 'ops' && importer.inner === 'registry.ts' && target.inner === 'ops-commands.ts') return;
      context.report({ node: node.source, messageId: 'reachesIn', data: { from: importer.name, to: target.name, inner: target.inner } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

const featuresSegment = `${path.sep}apps${path.sep}web${path.sep}src${path.sep}features${path.sep}`;

/** The web feature a file belongs to, or undefined outside apps/web/src/features. */
function featureOf(file) {
  const at = file.indexOf(featuresSegment);
  return at < 0 ? undefined : file.slice(at + featuresSegment.length).split(path.sep)[0];
}

// The web app's rule: a feature (apps/web/src/features/<name>) imports only the shared parts
// (components/, lib/, app/, test/) and the contracts, never another feature, tests included; features
// are composed by app/ (its routes). What two features both need moves to components/ or lib/.
const featureBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'A web feature imports no other feature: shared parts live in components/ or lib/' },
    schema: [],
    messages: {
      crossesFeatures: 'features/{{from}} imports features/{{to}}: move what both need to components/ or lib/, or compose the two in app/.',
    },
  },
  create(context) {
    const file = context.filename;
    const importer = featureOf(file);
    if (!importer) return {};
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = featureOf(path.resolve(path.dirname(file), source));
      if (!target || target === importer) return;
      context.report({ node: node.source, messageId: 'crossesFeatures', data: { from: importer, to: target } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

// Routes speak HTTP only (docs/decisions/064-routes-speak-http-only.md): a route file
// (modules/<name>/routes.ts or modules/<name>/<kind>-routes.ts) parses the request, calls its service and
// maps the answer; it imports no repository (repository.ts or *-repository.ts), its own module's or any
// other's. Tests may still set up state through a repository.
const routeFile = /^(?:[^/]+-)?routes\.ts$/;
const repositoryFile = /(?:^|[/\\])(?:[^/\\]+-)?repository\.ts$/;

const routesSpeakHttpOnly = {
  meta: {
    type: 'problem',
    docs: { description: 'A route file imports no repository: the service reads and writes the database' },
    schema: [],
    messages: {
      importsRepository: 'modules/{{module}}/{{file}} imports {{source}}: a route calls its service, and the service calls the repository.',
    },
  },
  create(context) {
    const file = context.filename;
    const importer = locate(file);
    if (!importer || !routeFile.test(importer.inner)) return {};
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.') || !repositoryFile.test(source)) return;
      context.report({ node: node.source, messageId: 'importsRepository', data: { module: importer.name, file: importer.inner, source } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

// Money moves through one module (docs/decisions/069-every-movement-through-the-money-module.md): the
// only production code of the API that writes ledger transfers is the money module, modules/money/,
// which takes every transfer's sides from its kinds.ts. The ledger's own files and the tests may use
// the ledger directly.
const ledgerWriter = /(?:^|[/\\])ledger[/\\]create-transfers\.ts$/;
const moneyModule = `${path.sep}modules${path.sep}money${path.sep}`;
const apiSource = `${path.sep}apps${path.sep}api${path.sep}src${path.sep}`;
const mayWriteTheLedger = (file) =>
  file.includes(moneyModule) ||
  /\.test\.ts$/.test(file) ||
  [`${apiSource}ledger${path.sep}`, `${apiSource}test${path.sep}`, `${apiSource}faults${path.sep}`].some((folder) => file.includes(folder));

const moneyThroughOneModule = {
  meta: {
    type: 'problem',
    docs: { description: 'Only the money module (modules/money/) writes ledger transfers' },
    schema: [],
    messages: {
      writesTheLedger:
        '{{source}} writes ledger transfers: move money through modules/money/service.ts (postPayment, bookMovements, resolveHeld), with its sides in modules/money/kinds.ts.',
    },
  },
  create(context) {
    const file = context.filename;
    if (!file.includes(apiSource) || mayWriteTheLedger(file)) return {};
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !ledgerWriter.test(source)) return;
      context.report({ node: node.source, messageId: 'writesTheLedger', data: { source } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export const boundaries = {
  meta: { name: 'strongroom' },
  rules: {
    'module-boundaries': moduleBoundaries,
    'feature-boundaries': featureBoundaries,
    'routes-speak-http-only': routesSpeakHttpOnly,
    'money-through-one-module': moneyThroughOneModule,
  },
};
