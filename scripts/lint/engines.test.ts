import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * A clean `npm install` on the oldest Node the README promises prints no EBADENGINE warning: every
 * package in the lockfile declares an engine range that includes it (decision 028 explains the
 * overrides that keep cookie and content-disposition on versions that say so).
 */
const oldestSupportedNode = '20.19.0';

type LockedPackage = { version?: string; engines?: Record<string, string> | string[] };

function lockedPackages(): Array<[string, LockedPackage]> {
  const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as { packages: Record<string, LockedPackage> };
  return Object.entries(lock.packages).filter(([path]) => path.includes('node_modules/'));
}

describe('the engines of the locked packages', () => {
  it(`all accept Node ${oldestSupportedNode}`, () => {
    const refusing = lockedPackages()
      .map(([path, entry]) => ({ path, version: entry.version, node: Array.isArray(entry.engines) ? undefined : entry.engines?.node }))
      .filter(({ node }) => node !== undefined && !semver.satisfies(oldestSupportedNode, node))
      .map(({ path, version, node }) => `${path}@${version} wants node ${node}`);
    expect(refusing).toEqual([]);
  });

  it('the root package promises that Node', () => {
    const root = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
    expect(semver.minVersion(root.engines.node)?.version).toBe(oldestSupportedNode);
  });
});
