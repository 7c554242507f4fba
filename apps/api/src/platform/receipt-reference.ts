import { keyedHash } from './crypto.ts';

/**
 * A receipt's reference: 20 characters of Crockford base32 (100 bits) of an HMAC of the line's id
 * with the server's session secret, in five groups of four for reading aloud and typing from
 * paper. Nobody without the key can make one that exists, and nothing in it says which payment.
 */
const crockfordAlphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const referenceCharacters = 20;
const groupCharacters = 4;
export const receiptReferencePattern = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){4}$/;

function crockfordBase32(bytes: Buffer, characters: number): string {
  let text = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && text.length < characters) {
      text += crockfordAlphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
    if (text.length === characters) return text;
  }
  throw new Error('not enough bytes for a receipt reference');
}

function grouped(text: string): string {
  return (text.match(new RegExp(`.{${groupCharacters}}`, 'g')) ?? []).join('-');
}

export function deriveReceiptReference(key: Buffer, paymentId: string, side: 'in' | 'out'): string {
  const reference = grouped(crockfordBase32(keyedHash(key, `receipt:${paymentId}:${side}`), referenceCharacters));
  if (!receiptReferencePattern.test(reference)) throw new Error('a derived receipt reference has the wrong form');
  return reference;
}

/**
 * What a person typed or a QR code carried, in the stored form; undefined when it cannot be a
 * reference. Lower case, spaces and missing dashes are forgiven, and so are the letters Crockford
 * base32 leaves out because they look like digits (O for 0, I and L for 1).
 */
export function normalizeReceiptReference(text: string): string | undefined {
  const compact = text.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (compact.length !== referenceCharacters || ![...compact].every((character) => crockfordAlphabet.includes(character))) return undefined;
  return grouped(compact);
}
