import { Secret, TOTP } from 'otpauth';

/**
 * Time-based one-time passwords (RFC 6238) as every authenticator app computes them: HMAC-SHA-1,
 * six digits, 30-second steps. The otpauth library does the arithmetic; this file fixes the
 * parameters and the rules: a code is valid one step either side of now at most, and the caller
 * remembers the step it accepted so the same code is never accepted twice (section 5.2).
 */
const period = 30;
const digits = 6;
const algorithm = 'SHA1';
/** One step either side: a phone clock up to 30 s off still works, and no more. */
const window = 1;
/** 160 bits, the size RFC 4226 recommends for an HMAC-SHA-1 key. */
const secretBytes = 20;

export function newTotpSecret(): string {
  return new Secret({ size: secretBytes }).base32;
}

export function otpauthUri(input: { secret: string; issuer: string; account: string }): string {
  return new TOTP({ issuer: input.issuer, label: input.account, secret: Secret.fromBase32(input.secret), algorithm, digits, period }).toString();
}

/** The 30-second step a time falls in (RFC 6238's T). */
export function totpStep(atMs: number): number {
  return TOTP.counter({ period, timestamp: atMs });
}

/** The code an authenticator shows at `atMs`; tests and the sandbox admin's sign-in use it. */
export function totpCode(secret: string, atMs: number = Date.now()): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), algorithm, digits, period, timestamp: atMs });
}

/**
 * The step whose code `code` is, if it is within one step of `atMs`; undefined otherwise. A code of
 * any other shape than six digits is refused without computing anything.
 */
export function matchTotp(secret: string, code: string, atMs: number = Date.now()): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = TOTP.validate({ token: code, secret: Secret.fromBase32(secret), algorithm, digits, period, timestamp: atMs, window });
  return delta === null ? undefined : totpStep(atMs) + delta;
}
