import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, inject, it } from 'vitest';

/**
 * The public pages' JavaScript budget (Foundation/Public site issues): what index.html makes every
 * visitor download must stay within 110 kB gzip, and must not carry the libraries only the signed-in
 * area uses. Global setup has just built the app into `webDistDirectory`.
 */
const publicJavaScriptBudgetBytes = 110_000;
const distDirectory = inject('webDistDirectory');

function entryScripts(): string[] {
  const html = readFileSync(path.join(distDirectory, 'index.html'), 'utf8');
  const sources = [...html.matchAll(/<script type="module"[^>]* src="([^"]+)"/g), ...html.matchAll(/<link rel="modulepreload"[^>]* href="([^"]+)"/g)];
  return sources.map((match) => match[1] ?? '').filter(Boolean);
}

function read(asset: string): string {
  return readFileSync(path.join(distDirectory, asset), 'utf8');
}

describe.skipIf(!inject('chromiumPath'))('public bundle', () => {
  it('keeps the JavaScript every public page loads under 110 kB gzip', () => {
    const scripts = entryScripts();
    expect(scripts.length).toBeGreaterThan(0);
    const gzipBytes = scripts.reduce((total, script) => total + gzipSync(read(script)).byteLength, 0);
    expect(gzipBytes).toBeLessThanOrEqual(publicJavaScriptBudgetBytes);
  });

  it('leaves zod, TanStack Query and react-hook-form to the lazy chunks', () => {
    const code = entryScripts().map(read).join('\n');
    // Error texts that only those libraries contain survive minification.
    expect(code).not.toContain('ZodError');
    expect(code).not.toContain('No QueryClient set');
    expect(code).not.toContain('isSubmitSuccessful');
  });
});
