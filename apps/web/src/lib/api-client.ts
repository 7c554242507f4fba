import {
  csrfCookieName,
  csrfHeaderName,
  isErrorCode,
  secureCsrfCookieName,
  secureStaffCsrfCookieName,
  staffCsrfCookieName,
  type ErrorCode,
} from '@strongroom/contracts/http.ts';
import { resultMessages } from '@strongroom/contracts/messages.ts';

/**
 * The one way the web app talks to the API. It sends cookies of this origin only, adds the
 * double-submit CSRF header on unsafe methods (docs/product.md D2) and turns every failure into an
 * `ApiError`, so screens handle one error type. It imports no zod (contracts' http.ts is zod-free):
 * it is part of the public entry, and callers pass their own `parse` (a zod schema's in lazy chunks).
 */
export const apiBasePath = '/api/v1';

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `network_error` is the web's own code for a request that never got an answer. */
export type ApiErrorCode = ErrorCode | 'network_error';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly fields: Readonly<Record<string, string>>;
  readonly challengeId: string | undefined;
  /** With `step_up_required`: how the customer may answer, best first ('passkey', 'totp', 'sms'). */
  readonly methods: readonly string[];
  /** From a 429's `Retry-After` header: how long to wait before asking again. */
  readonly retryAfterSeconds: number | undefined;

  constructor(input: {
    status: number;
    code: ApiErrorCode;
    message: string;
    fields?: Record<string, string>;
    challengeId?: string;
    methods?: readonly string[];
    retryAfterSeconds?: number;
  }) {
    super(input.message);
    this.status = input.status;
    this.code = input.code;
    this.fields = input.fields ?? {};
    this.challengeId = input.challengeId;
    this.methods = input.methods ?? [];
    this.retryAfterSeconds = input.retryAfterSeconds;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRequestOptions<T> {
  method?: HttpMethod;
  /** Sent as JSON, except a `FormData`, which the browser sends as multipart/form-data (uploads). */
  body?: unknown;
  query?: Readonly<Record<string, string | number | undefined>>;
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
  /** Checks and types the answer; every endpoint file passes its response schema's parser. */
  parse: (data: unknown) => T;
}

export function readCookie(name: string, cookieHeader: string = document.cookie): string | undefined {
  for (const pair of cookieHeader.split(';')) {
    const separator = pair.indexOf('=');
    if (separator < 0) continue;
    if (pair.slice(0, separator).trim() === name) return decodeURIComponent(pair.slice(separator + 1).trim());
  }
  return undefined;
}

/**
 * The session's CSRF token: over HTTPS the server names its cookie `__Host-csrf`, on plain
 * http://localhost `csrf` (decision 019).
 */
export function readCsrfToken(cookieHeader: string = document.cookie): string | undefined {
  return readCookie(secureCsrfCookieName, cookieHeader) ?? readCookie(csrfCookieName, cookieHeader);
}

/** The staff console's token: staff routes check the staff session's own cookie (D16). */
export function readStaffCsrfToken(cookieHeader: string = document.cookie): string | undefined {
  return readCookie(secureStaffCsrfCookieName, cookieHeader) ?? readCookie(staffCsrfCookieName, cookieHeader);
}

/**
 * The address of an API path, for what the browser fetches by itself: a download link (a receipt, a
 * statement) is a same-origin GET, so the session cookie goes with it and no CSRF header is needed.
 */
export function apiUrl(path: string, query?: ApiRequestOptions<unknown>['query']): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const queryString = search.toString();
  return `${apiBasePath}${path}${queryString ? `?${queryString}` : ''}`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringRecord(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  const result: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) if (typeof item === 'string') result[key] = item;
  return result;
}

/** A code the shared list does not know yet still reaches the screen with its message. */
function fallbackCode(status: number): ErrorCode {
  return status >= 500 ? 'internal_error' : 'bad_request';
}

/** `Retry-After` in seconds; the HTTP-date form is not used by this API. */
function retryAfterOf(response: Response): { retryAfterSeconds?: number } {
  const seconds = Number(response.headers.get('retry-after') ?? Number.NaN);
  return Number.isInteger(seconds) && seconds >= 0 ? { retryAfterSeconds: seconds } : {};
}

/** Reads `{ error: { code, message, fields } }`; anything else (a proxy's HTML page) gets a generic error. */
function errorFromResponse(response: Response, payload: unknown): ApiError {
  const { status } = response;
  const error = isRecord(payload) ? payload.error : undefined;
  if (isRecord(error) && typeof error.code === 'string' && typeof error.message === 'string') {
    return new ApiError({
      status,
      code: isErrorCode(error.code) ? error.code : fallbackCode(status),
      message: error.message,
      fields: stringRecord(error.fields),
      ...(typeof error.challengeId === 'string' ? { challengeId: error.challengeId } : {}),
      ...(Array.isArray(error.methods) ? { methods: error.methods.filter((method): method is string => typeof method === 'string') } : {}),
      ...retryAfterOf(response),
    });
  }
  return new ApiError({
    status,
    code: fallbackCode(status),
    message: `The server answered with status ${status}`,
    ...retryAfterOf(response),
  });
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function apiRequest<T>(path: string, options: ApiRequestOptions<T>): Promise<T> {
  const method = options.method ?? 'GET';
  const headers = new Headers(options.headers);
  headers.set('accept', 'application/json');
  // A FormData body gets its content type, with the multipart boundary, from the browser; any
  // content type set here would lack the boundary and the server could not read the parts.
  const body = options.body instanceof FormData || options.body === undefined ? options.body : JSON.stringify(options.body);
  if (typeof body === 'string') headers.set('content-type', 'application/json');
  if (unsafeMethods.has(method)) {
    const csrfToken = path.startsWith('/staff/') ? readStaffCsrfToken() : readCsrfToken();
    if (csrfToken) headers.set(csrfHeaderName, csrfToken);
  }

  let response: Response;
  try {
    response = await fetch(apiUrl(path, options.query), {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined ? { body } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (cause) {
    // A cancelled request is not a failure to report; the caller that aborted it expects the abort.
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError({ status: 0, code: 'network_error', message: resultMessages.networkError });
  }

  const payload = await readJson(response).catch(() => undefined);
  if (!response.ok) throw errorFromResponse(response, payload);
  return options.parse(payload);
}
