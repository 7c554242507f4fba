import { z } from 'zod';

/**
 * Zod 4 compiles object schemas with `new Function` when the page allows it, and finds out by
 * trying once. Under the CSP (`script-src 'self'`, no 'unsafe-eval') the try is refused and caught,
 * but the browser still reports it as a `securitypolicyviolation`: every page that validated a form
 * raised a CSP report (found by the XSS journey). Jitless, Zod validates without generating code,
 * never tries, and a CSP report means an attack again. Imported first by main.tsx, before any parse.
 */
z.config({ jitless: true });
