import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Each rule that encodes the architecture (docs/decisions/022-code-health-and-boundaries.md) is
 * shown to bite: a planted violation fails the lint, and the same file without it passes.
 */
const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

async function ruleIdsFor(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? `fatal: ${message.message}`);
}

describe('the layers', () => {
  it.each([
    ['a browser file importing the server', 'apps/web/src/lib/planted.ts', `export { buildApp } from '../../../api/src/app.ts';\n`],
    ['the contracts importing an app', 'packages/contracts/src/planted.ts', `export { formatMoney } from '../../../apps/web/src/lib/money.ts';\n`],
    ['the ledger importing a feature', 'apps/api/src/ledger/planted.ts', `export { accountsWithBalances } from '../modules/accounts/service.ts';\n`],
    ['the ledger importing platform/', 'apps/api/src/ledger/planted.ts', `export { AppError } from '../platform/errors.ts';\n`],
    ['the database layer importing a module', 'apps/api/src/db/planted.ts', `export { accountsWithBalances } from '../modules/accounts/service.ts';\n`],
    ['platform/ importing a module', 'apps/api/src/platform/planted.ts', `export { accountsWithBalances } from '../modules/accounts/service.ts';\n`],
  ])('refuses %s', async (_name, file, code) => {
    expect(await ruleIdsFor(file, code)).toContain('import-x/no-restricted-paths');
  });

  it('lets the ledger import db/ and its own files, and its tests use the test kits', async () => {
    expect(
      await ruleIdsFor('apps/api/src/ledger/planted.ts', `export type { Database } from '../db/database.ts';\nexport { ledgers } from './codes.ts';\n`),
    ).toEqual([]);
    expect(await ruleIdsFor('apps/api/src/ledger/planted.test.ts', `export { describeEachDatabase } from '../test/databases.ts';\n`)).toEqual([]);
  });
});

describe('the module boundaries', () => {
  it("refuses a module reaching into another module's files, and allows its service.ts", async () => {
    expect(await ruleIdsFor('apps/api/src/modules/accounts/planted.ts', `export { findCustomerById } from '../customers/repository.ts';\n`)).toEqual([
      'strongroom/module-boundaries',
    ]);
    expect(await ruleIdsFor('apps/api/src/modules/accounts/planted.ts', `export { findCustomerById } from '../customers/service.ts';\n`)).toEqual([]);
  });

  it('lets a test set up state through any module', async () => {
    expect(await ruleIdsFor('apps/api/src/modules/accounts/planted.test.ts', `export { findCustomerById } from '../customers/repository.ts';\n`)).toEqual([]);
  });
});

describe('routes speak HTTP only', () => {
  it("refuses a route file importing its own repository or another module's, and allows its service", async () => {
    expect(await ruleIdsFor('apps/api/src/modules/contact/routes.ts', `export { insertContactMessage } from './repository.ts';\n`)).toEqual([
      'strongroom/routes-speak-http-only',
    ]);
    expect(await ruleIdsFor('apps/api/src/modules/contact/staff-routes.ts', `export { messageQueuePageSize } from './staff-repository.ts';\n`)).toEqual([
      'strongroom/routes-speak-http-only',
    ]);
    expect(await ruleIdsFor('apps/api/src/modules/accounts/routes.ts', `export { findCustomerById } from '../customers/repository.ts';\n`)).toContain(
      'strongroom/routes-speak-http-only',
    );
    expect(await ruleIdsFor('apps/api/src/modules/contact/routes.ts', `export { submitContactMessage } from './service.ts';\n`)).toEqual([]);
  });

  it('lets a test, and a service, import a repository', async () => {
    expect(await ruleIdsFor('apps/api/src/modules/contact/routes.test.ts', `export { insertContactMessage } from './repository.ts';\n`)).toEqual([]);
    expect(await ruleIdsFor('apps/api/src/modules/contact/service.ts', `export { insertContactMessage } from './repository.ts';\n`)).toEqual([]);
  });
});

describe('money through one module', () => {
  it('refuses a feature writing ledger transfers itself, and lets the money module, the ledger and the tests', async () => {
    const planted = `export { createTransfersIn } from '../../ledger/create-transfers.ts';\n`;
    expect(await ruleIdsFor('apps/api/src/modules/cards/planted.ts', planted)).toEqual(['strongroom/money-through-one-module']);
    expect(await ruleIdsFor('apps/api/src/modules/payments/settlement.ts', planted)).toContain('strongroom/money-through-one-module');
    expect(await ruleIdsFor('apps/api/src/platform/planted.ts', `export { createTransfers } from '../ledger/create-transfers.ts';\n`)).toContain(
      'strongroom/money-through-one-module',
    );
    expect(await ruleIdsFor('apps/api/src/modules/payments/move-money.ts', planted)).toContain('strongroom/money-through-one-module');
    expect(await ruleIdsFor('apps/api/src/modules/money/movements.ts', planted)).toEqual([]);
    expect(await ruleIdsFor('apps/api/src/modules/cards/planted.test.ts', planted)).toEqual([]);
    expect(await ruleIdsFor('apps/api/src/ledger/planted.ts', `export { createTransfers } from './create-transfers.ts';\n`)).toEqual([]);
  });
});

describe("the web app's features", () => {
  it('refuses a feature importing another feature, tests included, and allows the shared parts', async () => {
    expect(await ruleIdsFor('apps/web/src/features/cards/planted.ts', `export { default as OtpPage } from '../payments/step-up/otp-page.tsx';\n`)).toEqual([
      'strongroom/feature-boundaries',
    ]);
    expect(await ruleIdsFor('apps/web/src/features/cards/planted.test.ts', `export { LoanList } from '../loans/loan-list.tsx';\n`)).toEqual([
      'strongroom/feature-boundaries',
    ]);
    expect(
      await ruleIdsFor(
        'apps/web/src/features/cards/planted.ts',
        `export { StepUpDialog } from '../../components/step-up/step-up-dialog.tsx';\nexport { formatMoney } from '../../lib/money.ts';\nexport { cardTypes } from '@strongroom/contracts/cards.ts';\n`,
      ),
    ).toEqual([]);
  });

  it('refuses a shared part importing a feature, and lets app/ compose them', async () => {
    expect(await ruleIdsFor('apps/web/src/components/planted.ts', `export { LoanList } from '../features/loans/loan-list.tsx';\n`)).toContain(
      'import-x/no-restricted-paths',
    );
    expect(await ruleIdsFor('apps/web/src/lib/planted.ts', `export { LoanList } from '../features/loans/loan-list.tsx';\n`)).toContain(
      'import-x/no-restricted-paths',
    );
    expect(await ruleIdsFor('apps/web/src/app/planted.ts', `export { LoanList } from '../features/loans/loan-list.tsx';\n`)).toEqual([]);
  });
});

describe('sizes', () => {
  const lines = (count: number, line: string) => Array.from({ length: count }, () => line).join('\n');

  it('refuses a production file over 400 lines, and lets a test file be longer', async () => {
    const long = `${lines(401, 'export const planted = 1;')}\n`;
    expect(await ruleIdsFor('apps/api/src/platform/planted.ts', long)).toContain('max-lines');
    expect(await ruleIdsFor('apps/web/src/lib/planted.ts', long)).toContain('max-lines');
    expect(await ruleIdsFor('apps/api/src/platform/planted.test.ts', long)).not.toContain('max-lines');
  });

  it('refuses a server function or a React component over 100 lines', async () => {
    const body = lines(101, '  total += 1;');
    const code = `export function planted(): number {\n  let total = 0;\n${body}\n  return total;\n}\n`;
    expect(await ruleIdsFor('apps/api/src/platform/planted.ts', code)).toContain('max-lines-per-function');
    const rows = lines(101, '      <li>row</li>');
    const component = `export function Planted() {\n  return (\n    <ul>\n${rows}\n    </ul>\n  );\n}\n`;
    expect(await ruleIdsFor('apps/web/src/components/planted.tsx', component)).toContain('max-lines-per-function');
    expect(await ruleIdsFor('apps/web/src/components/planted.test.tsx', component)).not.toContain('max-lines-per-function');
    expect(await ruleIdsFor('apps/api/src/platform/planted.ts', 'export function planted(): number {\n  return 1;\n}\n')).toEqual([]);
  });
});

describe('dependencies', () => {
  it('refuses a production file importing what its workspace does not declare, or only the root declares for tests', async () => {
    expect(await ruleIdsFor('apps/api/src/platform/planted.ts', `export { default as React } from 'react';\n`)).toContain(
      'import-x/no-extraneous-dependencies',
    );
    expect(await ruleIdsFor('apps/api/src/platform/planted.ts', `export { default as fc } from 'fast-check';\n`)).toContain(
      'import-x/no-extraneous-dependencies',
    );
    expect(await ruleIdsFor('apps/api/src/platform/planted.test.ts', `export { default as fc } from 'fast-check';\n`)).toEqual([]);
  });
});

describe('cycles', () => {
  let plantedDirectory: string;
  let modulesDirectory: string;

  beforeAll(async () => {
    // Outside the tree, so that the tree itself can be checked meanwhile.
    plantedDirectory = await mkdtemp(path.join(tmpdir(), 'strongroom-planted-files-'));
    await writeFile(path.join(plantedDirectory, 'a.ts'), `import { b } from './b.ts';\nexport const a = (): number => b() + 1;\n`);
    await writeFile(path.join(plantedDirectory, 'b.ts'), `import { a } from './a.ts';\nexport const b = (): number => a() - 1;\n`);
    modulesDirectory = await mkdtemp(path.join(tmpdir(), 'strongroom-planted-modules-'));
    for (const [name, other] of [
      ['alpha', 'beta'],
      ['beta', 'alpha'],
    ] as const) {
      await mkdir(path.join(modulesDirectory, name));
      await writeFile(path.join(modulesDirectory, name, 'service.ts'), `export { x } from '../${other}/service.ts';\n`);
    }
  });

  afterAll(async () => {
    await rm(plantedDirectory, { recursive: true, force: true });
    await rm(modulesDirectory, { recursive: true, force: true });
  });

  it('refuses a cycle between two files, not one closed by an import of types only, and finds none in the tree', async () => {
    const script = path.join(root, 'scripts/lint/file-cycles.js');
    const planted = await run(process.execPath, [script, plantedDirectory]).catch((error: { code: number; stderr: string }) => error);
    expect(planted).toMatchObject({ code: 1, stderr: expect.stringMatching(/file cycle: \S*\/a\.ts -> \S*\/b\.ts -> \S*\/a\.ts\n/) });
    await writeFile(path.join(plantedDirectory, 'types-only.ts'), `import { type c } from './c.ts';\nexport type D = typeof c;\n`);
    await writeFile(path.join(plantedDirectory, 'c.ts'), `import type { D } from './types-only.ts';\nexport const c = (d?: D): number => (d ? 1 : 0);\n`);
    const typesOnly = await run(process.execPath, [script, plantedDirectory]).catch((error: { code: number; stderr: string }) => error);
    expect(typesOnly.stderr).not.toContain('types-only.ts');
    await expect(run(process.execPath, [script])).resolves.toMatchObject({ stderr: '' });
  });

  it('refuses a cycle between two modules, and finds none in the tree', async () => {
    const script = path.join(root, 'scripts/lint/module-cycles.js');
    const planted = await run(process.execPath, [script, modulesDirectory]).catch((error: { code: number; stderr: string }) => error);
    expect(planted).toMatchObject({ code: 1, stderr: expect.stringContaining('module cycle: alpha -> beta -> alpha') });
    await expect(run(process.execPath, [script])).resolves.toMatchObject({ stderr: '' });
  });
});

describe('formatting', () => {
  it('fails a file Prettier would change', async () => {
    const options = { ...(await prettier.resolveConfig(path.join(root, 'apps/api/src/app.ts'))), filepath: path.join(root, 'apps/api/src/planted.ts') };
    expect(await prettier.check(`export const planted = { a: 1, b: "two" }\n`, options)).toBe(false);
    expect(await prettier.check(`export const planted = { a: 1, b: 'two' };\n`, options)).toBe(true);
  });
});
