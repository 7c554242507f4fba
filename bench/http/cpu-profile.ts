import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The parts of V8's .cpuprofile (what `node --cpu-prof` writes) that self time needs. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; hitCount?: number }[];
  samples?: number[];
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

export interface SelfTime {
  name: string;
  where: string;
  ms: number;
  share: number;
}

/**
 * Self time by function over one or more profiles: each sample's time delta goes to the function
 * on top of the stack. Functions of the same name at the same place add up (V8 has a node per call
 * path). `(idle)` is the event loop waiting (on PostgreSQL, mostly), `(program)` native work
 * outside JavaScript, `(garbage collector)` GC.
 */
export async function topSelfTime(files: readonly string[], count: number, root: string): Promise<{ totalMs: number; top: SelfTime[] }> {
  const byFunction = new Map<string, { name: string; where: string; us: number }>();
  let totalUs = 0;
  const maps = new Map<string, SourceMap | undefined>();
  const locate = async (url: string, line: number, column: number): Promise<string> => {
    if (!url) return '';
    const filePath = url.startsWith('file://') ? fileURLToPath(url) : url;
    if (!maps.has(filePath)) {
      const mapPath = `${filePath}.map`;
      maps.set(
        filePath,
        existsSync(mapPath) ? new SourceMap(JSON.parse(await readFile(mapPath, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]) : undefined,
      );
    }
    const entry = maps.get(filePath)?.findEntry(line, column);
    // The bundle's place, told as the TypeScript line it came from.
    if (entry && 'originalSource' in entry && entry.originalSource) {
      const source = entry.originalSource.startsWith('file://')
        ? fileURLToPath(entry.originalSource)
        : path.resolve(path.dirname(filePath), entry.originalSource);
      return `${relativeUrl(source, root)}:${entry.originalLine + 1}`;
    }
    return `${relativeUrl(filePath, root)}:${line + 1}`;
  };
  for (const file of files) {
    const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
    const nodeById = new Map<number, { name: string; where: string }>();
    for (const node of profile.nodes) {
      const { functionName, url, lineNumber, columnNumber } = node.callFrame;
      nodeById.set(node.id, { name: functionName || '(anonymous)', where: await locate(url, lineNumber, columnNumber) });
    }
    const samples = profile.samples ?? [];
    const deltas = profile.timeDeltas ?? [];
    for (let index = 0; index < samples.length; index += 1) {
      // V8's delta at i is the time before sample i; the time a sample stands for is the next delta.
      const us = deltas[index + 1] ?? 0;
      const node = nodeById.get(samples[index] ?? -1);
      if (!node || us <= 0) continue;
      const { name, where } = node;
      const key = `${name}\u0000${where}`;
      const entry = byFunction.get(key) ?? { name, where, us: 0 };
      entry.us += us;
      byFunction.set(key, entry);
      totalUs += us;
    }
  }
  const top = [...byFunction.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, count)
    .map((entry) => ({ name: entry.name, where: entry.where, ms: entry.us / 1000, share: totalUs > 0 ? entry.us / totalUs : 0 }));
  return { totalMs: totalUs / 1000, top };
}

function relativeUrl(filePath: string, root: string): string {
  return filePath.startsWith(root) ? path.relative(root, filePath) : filePath;
}
