import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { JsonSchema, OpenApiDocument } from '../../test/openapi.ts';

/**
 * sqlmap against the running server (issue 17, item 5; docs/decisions/040-sqlmap-and-backups.md):
 * the targets come from the server's own OpenAPI document, every parameter (query, path, JSON body
 * field) is marked with sqlmap's custom injection mark `*`, and each target runs in its own sqlmap
 * process whose traffic file is kept, so the test can prove sqlmap both found nothing and really
 * reached the handlers (signed in, CSRF header accepted, no wall of 401s or 429s).
 */

export type Realm = 'customer' | 'staff' | 'public';

export interface SqlmapTarget {
  /** `POST /api/v1/loans/{id}/repayments`: the operation as the document names it. */
  operation: string;
  realm: Realm;
  method: string;
  /** The URL with every query and path value followed by sqlmap's mark `*`. */
  url: string;
  /** The JSON body with a mark after every leaf value, when the operation takes one. */
  data?: string;
  /** How many marks were placed: the parameters sqlmap must report testing. */
  marks: number;
}

/**
 * Operations sqlmap is not run against, each with its reason. Logging out would end the session
 * sqlmap signs in with (and they take no parameters). The others are limited per account or per
 * customer, a limit no environment variable lifts: past it every answer is a 429, which hides the
 * handler's answer and, when it starts mid-test, makes sqlmap see a difference where none is
 * injected (decision 040). Their SQL is covered by the in-process hostile-input sweep.
 */
export const notScanned: Record<string, string> = {
  'POST /api/v1/auth/logout': 'ends the session',
  'POST /api/v1/staff/auth/logout': 'ends the session',
  'POST /api/v1/auth/login': 'sign-in throttle per account (5 free failures)',
  'POST /api/v1/staff/auth/login': 'sign-in throttle per account (5 free failures)',
  'POST /api/v1/messages': 'secure messages: per-customer hourly limit',
  'POST /api/v1/messages/{id}/replies': 'secure messages: per-customer hourly limit',
};

/** Public routes: answered without a session (sign-in, sign-up, password reset, contact form...). */
function realmOf(route: string): Realm {
  if (route.startsWith('/api/v1/staff/') && route !== '/api/v1/staff/auth/login') return 'staff';
  if (/^\/api\/v1\/(auth\/|contact$|receipts\/verify\/)/.test(route) && !route.startsWith('/api/v1/auth/passkey')) return 'public';
  return 'customer';
}

/** Candidate texts tried in order against a string field's pattern and length limits. */
const textCandidates = ['sqlmap', 'Groceries', '2026-01-15', '123456789', '011000015', '123456', 'ABCDEFGH', '+12025550100', 'a'];

function variantOf(schema: JsonSchema): JsonSchema {
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches?.[0]) return variantOf(branches[0]);
  if (schema.allOf?.length) return Object.assign({}, ...schema.allOf.map(variantOf)) as JsonSchema;
  return schema;
}

function typeOf(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type;
}

/** A plausible value for a field, valid where the schema says enough, so the payloads reach the handler. */
export function sampleOf(schema: JsonSchema, name: string, known: Record<string, string>): unknown {
  const variant = variantOf(schema);
  if (variant.const !== undefined) return variant.const;
  if (variant.enum?.length) return variant.enum[0];
  switch (typeOf(variant)) {
    case 'integer':
    case 'number':
      return Math.max(variant.minimum ?? 1, Math.min(variant.maximum ?? 100, 100));
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: Math.max(1, variant.minItems ?? 1) }, () => sampleOf(variant.items ?? {}, name, known));
    case 'object': {
      const body: Record<string, unknown> = {};
      for (const [field, fieldSchema] of Object.entries(variant.properties ?? {})) body[field] = sampleOf(fieldSchema, field, known);
      return body;
    }
    default:
      if (known[name]) return known[name];
      if (variant.format === 'uuid') return randomUUID();
      if (variant.format === 'email') return 'nobody@example.test';
      if (variant.format === 'date-time') return '2026-01-15T12:00:00.000Z';
      return (
        textCandidates.find(
          (text) =>
            text.length >= (variant.minLength ?? 0) &&
            text.length <= (variant.maxLength ?? Infinity) &&
            (!variant.pattern || new RegExp(variant.pattern, 'u').test(text)),
        ) ?? 'sqlmap'
      );
  }
}

/**
 * Puts sqlmap's mark after every text and number of a JSON body; answers the text and how many
 * marks. Enumerations, constants (a union's `kind`) and booleans stay unmarked: they select the
 * body's branch, and the schema takes nothing but their few values.
 */
function markedJson(value: unknown, schema: JsonSchema): { text: string; marks: number } {
  const variant = variantOf(schema);
  if (Array.isArray(value)) {
    const parts = value.map((item) => markedJson(item, variant.items ?? {}));
    return { text: `[${parts.map((part) => part.text).join(',')}]`, marks: parts.reduce((sum, part) => sum + part.marks, 0) };
  }
  if (value !== null && typeof value === 'object') {
    const parts = Object.entries(value).map(([key, inner]) => ({ key, ...markedJson(inner, variant.properties?.[key] ?? {}) }));
    return { text: `{${parts.map((part) => `${JSON.stringify(part.key)}:${part.text}`).join(',')}}`, marks: parts.reduce((sum, part) => sum + part.marks, 0) };
  }
  if (variant.enum || variant.const !== undefined || typeof value === 'boolean') return { text: JSON.stringify(value), marks: 0 };
  // A string's mark goes inside its quotes (the payload then stays in the string); a number's follows it.
  if (typeof value === 'string') return { text: `${JSON.stringify(value).slice(0, -1)}*"`, marks: 1 };
  return { text: `${JSON.stringify(value)}*`, marks: 1 };
}

/** Every operation with a query, path or body parameter, as a marked sqlmap target. */
export function targetsOf(document: OpenApiDocument, origin: string, known: Record<string, string>): SqlmapTarget[] {
  const targets: SqlmapTarget[] = [];
  for (const [route, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const name = `${method.toUpperCase()} ${route}`;
      if (name in notScanned) continue;
      const parameters = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query' || parameter.in === 'path');
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      if (parameters.length === 0 && !bodySchema) continue;
      let marks = 0;
      let pathname = route;
      const query: string[] = [];
      for (const parameter of parameters) {
        const sample = String(sampleOf(parameter.schema ?? {}, parameter.name, known));
        // A path id the schema types only as text still names a row: a fresh UUID reaches the lookup.
        const value = parameter.in === 'path' && /id$/i.test(parameter.name) && textCandidates.includes(sample) ? randomUUID() : sample;
        marks += 1;
        if (parameter.in === 'path') pathname = pathname.replace(`{${parameter.name}}`, `${encodeURIComponent(value)}*`);
        else query.push(`${encodeURIComponent(parameter.name)}=${encodeURIComponent(value)}*`);
      }
      const body = bodySchema ? markedJson(sampleOf(bodySchema, '', known), bodySchema) : undefined;
      if (body) marks += body.marks;
      if (marks === 0) continue;
      targets.push({
        operation: name,
        realm: realmOf(route),
        method: method.toUpperCase(),
        url: `${origin}${pathname}${query.length ? `?${query.join('&')}` : ''}`,
        data: body?.text,
        marks,
      });
    }
  }
  return targets;
}

export interface Credentials {
  cookie: string;
  csrfToken?: string;
}

/**
 * Level 1 / risk 1, boolean-blind and error-based techniques against PostgreSQL: the
 * choice and its cost are argued in decision 040. `--drop-set-cookie` keeps the session given even
 * if a response clears cookies; the tamper script `xforwardedfor` gives every payload request its
 * own client address, which a server with TRUST_PROXY=127.0.0.1 takes as the caller's, so the
 * per-address rate limits never turn sqlmap's answers into 429s.
 */
export const sqlmapOptions = [
  '--batch',
  '--dbms=PostgreSQL',
  '--level=1',
  '--risk=1',
  // Boolean-blind and error-based: UNION was three quarters of the requests (decision 040).
  '--technique=BE',
  // The API's refusals are answers to compare, not reasons to stop (a random id is a 404 before any payload).
  '--ignore-code=400,401,403,404,409,413,415,422',
  '--drop-set-cookie',
  '--skip-waf',
  '--tamper=xforwardedfor',
  '--disable-coloring',
  '--timeout=30',
  '--retries=1',
];

export function sqlmapVersion(): string | undefined {
  const probe = spawnSync('sqlmap', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return undefined;
  return probe.stdout.split('\n')[0]?.trim();
}

export interface TargetResult {
  target: SqlmapTarget;
  exitCode: number | string;
  seconds: number;
  /** Parameters sqlmap says it tested ("testing for SQL injection on ... parameter"). */
  tested: number;
  /** sqlmap's verdicts of an injection (empty when it found none). */
  injections: string[];
  /** Heuristic hints ("might be injectable"), kept in the summary for a human to read. */
  hints: string[];
  /** HTTP status of every response sqlmap received, counted. */
  statuses: Record<string, number>;
  /** Responses whose error code says the session or CSRF header was not accepted. */
  sessionRefusals: number;
  logFile: string;
  trafficFile: string;
}

function slugOf(operation: string): string {
  return operation
    .replace(/^(\w+) \/api\/v1\//, '$1-')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/-+$/, '')
    .toLowerCase();
}

export function parseSqlmapLog(log: string) {
  const lines = log.split('\n');
  return {
    tested: lines.filter((line) => /testing for SQL injection on .*parameter/.test(line)).length,
    // sqlmap's final verdict: a candidate it then proves a false positive ("false positive or
    // unexploitable injection point detected") is not reported this way.
    injections: lines.filter((line) => /identified the following injection point|parameter '.*' is vulnerable\./i.test(line)),
    hints: lines.filter((line) => /might be injectable|seems to be injectable/i.test(line) && !/might not be injectable/.test(line)),
  };
}

export function parseTraffic(traffic: string) {
  const statuses: Record<string, number> = {};
  for (const match of traffic.matchAll(/^HTTP response \[#\d+\] \((\d{3})/gm)) statuses[match[1] ?? '?'] = (statuses[match[1] ?? '?'] ?? 0) + 1;
  const sessionRefusals = [...traffic.matchAll(/"code":"unauthenticated"|missing its CSRF token/g)].length;
  return { statuses, sessionRefusals };
}

/** The cookie values and CSRF token, which the kept traffic file must not show. */
function secretsOf(credentials: Credentials): string[] {
  const values = credentials.cookie.split(';').map((pair) => pair.split('=').slice(1).join('=').trim());
  return [...values, credentials.csrfToken ?? ''].filter((value) => value.length >= 16);
}

/** Runs sqlmap on one target; its console log and traffic file stay in `directory`. */
export async function runSqlmap(target: SqlmapTarget, credentials: Credentials | undefined, directory: string, index: number): Promise<TargetResult> {
  const base = path.join(directory, `${String(index).padStart(3, '0')}-${slugOf(target.operation)}`);
  const trafficFile = `${base}.traffic.txt`;
  const logFile = `${base}.log`;
  // sqlmap keeps one --headers option: its lines are separated by newlines.
  const headers = [...(target.data ? ['Content-Type: application/json'] : []), ...(credentials?.csrfToken ? [`x-csrf-token: ${credentials.csrfToken}`] : [])];
  const args = [
    '-u',
    target.url,
    `--method=${target.method}`,
    ...(target.data ? [`--data=${target.data}`] : []),
    ...(credentials ? [`--cookie=${credentials.cookie}`] : []),
    ...(headers.length ? [`--headers=${headers.join('\n')}`] : []),
    ...sqlmapOptions,
    `--output-dir=${base}.session`,
    '-t',
    trafficFile,
  ];
  const started = Date.now();
  const child = spawn('sqlmap', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // The log names the options but never the session cookie or CSRF token.
  const shown = args.map((arg) =>
    arg.startsWith('--cookie=') ? '--cookie=<session cookies>' : arg.startsWith('--headers=') ? '--headers=<Content-Type and CSRF headers>' : arg,
  );
  let output = `$ sqlmap ${shown.join(' ')}\n`;
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exitCode = await new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  // The artefacts keep what sqlmap said, sent and got, but not the session's secrets (sqlmap echoes
  // the Cookie header of a GET target); its resumable session state (which holds them) is dropped.
  const redact = (text: string) => (credentials ? secretsOf(credentials) : []).reduce((result, secret) => result.split(secret).join('<redacted>'), text);
  await writeFile(logFile, redact(output));
  const traffic = redact(await readFile(trafficFile, 'utf8').catch(() => ''));
  await writeFile(trafficFile, traffic);
  await rm(`${base}.session`, { recursive: true, force: true });
  return { target, exitCode, seconds, ...parseSqlmapLog(output), ...parseTraffic(traffic), logFile, trafficFile };
}

/** Runs every target, `concurrency` sqlmap processes at a time. */
export async function runAll(
  targets: SqlmapTarget[],
  credentialsOf: (realm: Realm) => Credentials | undefined,
  directory: string,
  concurrency: number,
): Promise<TargetResult[]> {
  await mkdir(directory, { recursive: true });
  const results: TargetResult[] = [];
  let next = 0;
  const worker = async () => {
    while (next < targets.length) {
      const index = next++;
      const target = targets[index];
      if (target) results[index] = await runSqlmap(target, credentialsOf(target.realm), directory, index);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}
