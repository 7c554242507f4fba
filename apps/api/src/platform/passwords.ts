import { hash, verify, type Options } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';
import { randomToken } from './crypto.ts';

/**
 * argon2id with m = 19 MiB, t = 2, p = 1 (ASVS 11.4.2, OWASP's minimum). `Algorithm` is a const
 * enum that isolated modules cannot import, so its value for argon2id is written out.
 */
const argon2idAlgorithm = 2;
const argon2Options: Options = { algorithm: argon2idAlgorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, argon2Options);
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false);
}

let dummyHash: Promise<string> | undefined;

/**
 * For an email nobody uses, sign-in still verifies a password against a real argon2id hash, so a
 * wrong email and a wrong password take the same time (ASVS 6.3.8).
 */
export async function spendVerificationTime(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomToken());
  await verifyPassword(await dummyHash, password);
  return false;
}

/** The 49,000 most common passwords, bundled with zxcvbn-ts (D5, ASVS 6.2.4). */
const commonPasswords = new Set(dictionary['passwords-common'].map((word) => word.toLowerCase()));

export function isCommonPassword(password: string): boolean {
  return commonPasswords.has(password.toLowerCase());
}
