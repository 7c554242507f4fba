import { randomInt } from 'node:crypto';
import type { CardNetwork } from '@strongroom/contracts/cards.ts';
import { cardRules } from '@strongroom/contracts/cards.ts';
import { decrypt, encrypt, keyedHash } from '../../platform/crypto.ts';

/**
 * Card numbers (docs/product.md D9, docs/decisions/026-cards.md). Every card this bank issues is a
 * "Demo card" in a test-only range: Visa 4000 00xx xxxx xxxx (the 400000 range card networks and
 * processors keep for testing) and Mastercard 5555 00xx xxxx xxxx (inside 5555 55.., Mastercard's
 * own published test range family). 16 digits, the last a Luhn check digit.
 */
export const testBins: Readonly<Record<CardNetwork, string>> = { visa: '400000', mastercard: '555500' };
export const cardNumberLength = 16;

export interface CardKeys {
  pan: Buffer;
  lookup: Buffer;
  cvv: Buffer;
}

/** The Luhn check digit that completes `partial` (all digits but the last). */
export function luhnCheckDigit(partial: string): string {
  let sum = 0;
  for (let index = 0; index < partial.length; index += 1) {
    // Double every second digit counting from the right of the full number, i.e. from the right of `partial` first.
    let digit = Number(partial[partial.length - 1 - index]);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10);
}

export function isLuhnValid(number: string): boolean {
  if (!/^\d{2,19}$/.test(number)) return false;
  return luhnCheckDigit(number.slice(0, -1)) === number.slice(-1);
}

/** A new, random, Luhn-valid number in the network's test range. */
export function newCardNumber(network: CardNetwork): string {
  const bin = testBins[network];
  let body = bin;
  while (body.length < cardNumberLength - 1) body += String(randomInt(0, 10));
  return body + luhnCheckDigit(body);
}

export function encryptCardNumber(keys: CardKeys, number: string): Buffer {
  return encrypt(keys.pan, Buffer.from(number, 'utf8'));
}

export function decryptCardNumber(keys: CardKeys, sealed: Buffer): string {
  return decrypt(keys.pan, sealed).toString('utf8');
}

/** The same number always hashes alike under this bank's lookup key: a card is found by its number without decrypting any. */
export function cardNumberLookup(keys: CardKeys, number: string): Buffer {
  return keyedHash(keys.lookup, `card-number:${number}`);
}

export interface Expiry {
  month: number;
  year: number;
}

/** "MM/YY". */
export function formatExpiry(expiry: Expiry): string {
  return `${String(expiry.month).padStart(2, '0')}/${String(expiry.year % 100).padStart(2, '0')}`;
}

/** A card issued now is valid to the end of the same month three years on. */
export function expiryFrom(issuedAt: Date): Expiry {
  return { month: issuedAt.getUTCMonth() + 1, year: issuedAt.getUTCFullYear() + cardRules.validityYears };
}

/** A card works through the last day of its expiry month (UTC). */
export function isExpired(expiry: Expiry, now: Date): boolean {
  const firstDayAfter = Date.UTC(expiry.year, expiry.month, 1);
  return now.getTime() >= firstDayAfter;
}

/**
 * The card verification value, never stored (D9): derived from the number and the expiry under the
 * bank's CVV key, as issuers derive a CVV2 with a card verification key. The same card always
 * gets the same three digits; without the key they cannot be computed from the number.
 */
export function cardVerificationValue(keys: CardKeys, number: string, expiry: Expiry): string {
  const digest = keyedHash(keys.cvv, `cvv2:${number}:${formatExpiry(expiry)}`);
  return String(digest.readUInt32BE(0) % 1000).padStart(3, '0');
}
