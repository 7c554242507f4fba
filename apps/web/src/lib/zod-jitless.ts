/**
 * Zod 4 compiles object schemas with `new Function` when the page allows it, and finds out by
 * trying once. Under the CSP (`script-src 'self'`, no 'unsafe-eval') the try is refused and caught,
 * but the browser still reports it as a `securitypolicyviolation`: every page that validated a form
 * raised a CSP report (found by the XSS journey, docs/decisions/041). Jitless, Zod validates without
 * generating code, never tries, and a CSP report means an attack again.
 *
 * `z.config({ jitless: true })` would pull Zod into the entry chunk, which the bundle budget keeps
 * it out of. Zod adopts `globalThis.__zod_globalConfig` as its configuration when it loads (that is
 * where `z.config` writes too), so this sets it first, from main.tsx, without importing Zod.
 */
const zodGlobal = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodGlobal.__zod_globalConfig = { ...zodGlobal.__zod_globalConfig, jitless: true };

export {};
