/**
 * The FDX error entity (`{ code, message, debugMessage? }`) and the codes the resource API answers
 * with. The codes are FDX's own, from the error table of the FDX API specification (FDX 6,
 * "Errors"; docs/connected-apps.md, "Resource API"):
 * - 500 Internal server error; 501 Subsystem unavailable (the database is away: HTTP 503 with Retry-After, as the bank's API answers);
 * - 602 Customer not authorized (no token, a bad token or proof, a scope not granted);
 * - 701 Account not found (also an account outside the consent: it looks exactly like a missing one);
 * - 702 Invalid start or end date; 703 Invalid date range.
 * FDX leaves the rest to the provider. Where its table has no code (a statement that is not found,
 * a malformed paging cursor or limit, too many requests), the HTTP status doubles as the code: a
 * number FDX gives no other meaning.
 */
export const fdxErrorCodes = {
  internal: 500,
  subsystemUnavailable: 501,
  notAuthorized: 602,
  accountNotFound: 701,
  invalidDate: 702,
  invalidDateRange: 703,
  statementNotFound: 404,
  invalidParameter: 400,
  tooManyRequests: 429,
} as const;

export interface FdxErrorBody {
  code: number;
  message: string;
  debugMessage?: string;
}

/** An answer of the resource API that is not a success, in FDX's shape. */
export class FdxError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly details: { debugMessage?: string; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'FdxError';
  }

  body(): FdxErrorBody {
    return { code: this.code, message: this.message, ...(this.details.debugMessage ? { debugMessage: this.details.debugMessage } : {}) };
  }
}

/** Every account the consent does not cover answers this, whatever the reason: missing, another customer's, closed, malformed. */
export function accountNotFound(): FdxError {
  return new FdxError(404, fdxErrorCodes.accountNotFound, 'Account not found');
}

export function statementNotFound(): FdxError {
  return new FdxError(404, fdxErrorCodes.statementNotFound, 'Statement not found');
}

export function invalidDate(parameter: string): FdxError {
  return new FdxError(400, fdxErrorCodes.invalidDate, 'Invalid start or end date', { debugMessage: `${parameter} must be a date, YYYY-MM-DD` });
}

export function invalidDateRange(debugMessage: string): FdxError {
  return new FdxError(400, fdxErrorCodes.invalidDateRange, 'Invalid date range', { debugMessage });
}

export function invalidParameter(parameter: string, debugMessage: string): FdxError {
  return new FdxError(400, fdxErrorCodes.invalidParameter, `Invalid ${parameter}`, { debugMessage });
}

export function tooManyRequests(retryAfterSeconds: number): FdxError {
  return new FdxError(429, fdxErrorCodes.tooManyRequests, 'Too many requests', {
    debugMessage: 'This app made more requests this minute than the bank allows it; try again after Retry-After seconds',
    retryAfterSeconds,
  });
}
