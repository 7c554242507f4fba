// The lint run (`npm run lint`): typescript-eslint's recommended rules, the import plugin, and the
// rules that encode how the code is laid out (docs/decisions/022-code-health-and-boundaries.md).
// Formatting is Prettier's job (`prettier --check`); eslint-config-prettier turns off the rules
// that would argue with it.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { boundaries } from './scripts/lint/boundaries.js';

const api = './apps/api/src';

// Which part may import which: the layers of docs/decisions/022-code-health-and-boundaries.md.
const layers = [
  { target: './apps/web', from: './apps/api', message: 'The browser never imports the server: share it through packages/contracts.' },
  { target: './packages/contracts', from: './apps', message: 'The contracts are shared by both apps and import neither.' },
  { target: `${api}/db`, from: `${api}/modules`, message: 'The database layer imports no module.' },
  { target: `${api}/platform`, from: `${api}/modules`, message: 'platform/ is below the modules: it imports none of them.' },
  ...['components', 'lib', 'test'].map((shared) => ({
    target: `./apps/web/src/${shared}`,
    from: './apps/web/src/features',
    message: "The web app's shared parts import no feature: features are composed in app/.",
  })),
];
// The ledger's own tests may use the test kits in apps/api/src/test; its code may not.
const ledgerLayer = { target: `${api}/ledger`, from: api, except: ['./ledger', './db'], message: 'The ledger knows no feature: it imports only db/.' };

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'apps/web/e2e/.output/**', '**/*.d.ts', 'coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  importX.flatConfigs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    settings: {
      // Imports name their files with the extension (`./service.ts`), and the contracts resolve through
      // the workspace link in node_modules, so the plain Node resolver finds every one of them.
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'], conditionNames: ['types', 'import', 'default'] })],
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
    plugins: { strongroom: boundaries },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Cycles between files: scripts/lint/file-cycles.js, in a fraction of this rule's time.
      'import-x/no-self-import': 'error',
      'import-x/no-useless-path-segments': 'error',
      'import-x/no-duplicates': 'error',
      // TypeScript already proves names exist; these would only repeat it more slowly.
      'import-x/named': 'off',
      'import-x/namespace': 'off',
      'import-x/default': 'off',
      'import-x/no-named-as-default-member': 'off',
      'import-x/no-named-as-default': 'off',
      'import-x/no-unresolved': ['error', { ignore: ['^virtual:', '\\?(raw|url)$'] }],
      'import-x/no-restricted-paths': ['error', { zones: layers }],
      'strongroom/module-boundaries': 'error',
      'strongroom/feature-boundaries': 'error',
      'strongroom/routes-speak-http-only': 'error',
      'strongroom/money-through-one-module': 'error',
    },
  },
  // Each workspace declares what its files import; the root declares only the shared test and build
  // tooling (Vitest, Playwright, fast-check, the linters), which production files may not import.
  ...['apps/api', 'apps/web', 'packages/contracts', '.'].map((workspace) => ({
    files: workspace === '.' ? ['bench/**', 'scripts/**', '*.{js,ts}'] : [`${workspace}/**`],
    rules: {
      'import-x/no-extraneous-dependencies': [
        'error',
        {
          packageDir: workspace === '.' ? [import.meta.dirname] : [`${import.meta.dirname}/${workspace}`, import.meta.dirname],
          devDependencies: ['**/*.test.{ts,tsx}', '**/test/**', '**/faults/**', '**/e2e/**', 'bench/**', 'scripts/**', '**/*.config.{js,ts}'],
        },
      ],
    },
  })),
  {
    files: ['apps/api/src/ledger/**'],
    ignores: ['**/*.test.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [...layers, ledgerLayer] }] },
  },
  {
    // Files by responsibility (issue 31): no production file of the apps over 400 lines, and no
    // function over 100 (a server function or a React component).
    files: ['apps/*/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/test/**', '**/faults/**'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    files: ['apps/*/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/test/**', '**/faults/**'],
    rules: { 'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  prettier,
);
