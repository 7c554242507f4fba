import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { uniqueEmail } from './identity.ts';
import { runOps } from './money.ts';

/** What every staff member of the journeys signs in with, next to their authenticator code. */
export const staffPassword = 'an orchard of quiet ledgers';

export interface JourneyStaff {
  email: string;
  totpSecret: string;
}

/** The authenticator's current code (RFC 6238: HMAC-SHA-1, 30 s, 6 digits), as an app computes it from the base32 secret. */
export function totpNow(base32Secret: string, atMs = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const character of base32Secret.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(character).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 30_000)));
  const digest = createHmac('sha1', key).update(counter).digest();
  const offset = (digest.at(-1) ?? 0) & 0x0f;
  return String((digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** A new staff member with `role`, made as an operator would (`npm run ops -- create-staff`). */
export async function createStaff(label: string, role: 'support' | 'compliance' | 'operations' | 'admin'): Promise<JourneyStaff> {
  const email = uniqueEmail(label);
  const result = await runOps('create-staff', ['--email', email, '--password', staffPassword, '--role', role]);
  expect(result.exitCode, result.output).toBe(0);
  return { email, totpSecret: (JSON.parse(result.output) as { totpSecret: string }).totpSecret };
}

/**
 * Signs in at /ops/login with password and the authenticator's current code, and returns once the console's
 * overview shows. The login page's own heading ("Strongroom back office") also contains "back office", so the
 * wait is for the exact overview heading: a looser match returned before the sign-in finished, and a `goto`
 * right after it landed back on the login page (the four-eyes journey's CI failure).
 */
export async function staffSignIn(page: Page, staff: JourneyStaff): Promise<void> {
  await page.goto('/ops/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(staff.email);
  await page.getByLabel('Password').fill(staffPassword);
  await page.getByRole('textbox', { name: 'Authenticator code' }).fill(totpNow(staff.totpSecret));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Back office', exact: true }).waitFor();
}
