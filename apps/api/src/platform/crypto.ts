import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** 256 bits from the CSPRNG, URL-safe: links, session ids and binding cookies. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A random code of `digits` decimal digits, leading zeros kept. */
export function randomDigits(digits: number): string {
  if (!Number.isInteger(digits) || digits < 4 || digits > 10) throw new RangeError('digits out of range');
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0');
}

export function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * Short codes (4 or 6 digits) are hashed with a server key: a stolen database alone cannot turn a
 * stored hash back into the code by trying all 10,000 of them.
 */
export function keyedHash(key: Buffer, value: string): Buffer {
  return createHmac('sha256', key).update(value).digest();
}

export function equalHashes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

const ivBytes = 12;
const tagBytes = 16;

/** AES-256-GCM: iv (12 bytes) | tag (16 bytes) | ciphertext. Tampering fails decryption. */
export function encrypt(key: Buffer, plaintext: Buffer): Buffer {
  if (key.length !== 32) throw new Error('AES-256-GCM needs a 32-byte key');
  const iv = randomBytes(ivBytes);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
}

export function decrypt(key: Buffer, sealed: Buffer): Buffer {
  if (sealed.length < ivBytes + tagBytes) throw new Error('ciphertext too short');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, ivBytes));
  decipher.setAuthTag(sealed.subarray(ivBytes, ivBytes + tagBytes));
  return Buffer.concat([decipher.update(sealed.subarray(ivBytes + tagBytes)), decipher.final()]);
}
