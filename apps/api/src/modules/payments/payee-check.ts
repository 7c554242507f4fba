import type { PayeeCheckResponse } from '@strongroom/contracts/payments.ts';
import type { Queryable } from '../../db/database.ts';
import { findAccountByNumber } from './repository.ts';

/**
 * Confirmation of Payee, as UK banks do it: before paying an account at this bank, does the name
 * typed match the name on the account? A close match tells the real name so a typo can be fixed;
 * no match tells nothing, so the check cannot be used to learn who holds an account, nor whether
 * an account number exists (a missing or closed account answers exactly as a wrong name). The
 * close match is what a guesser can still learn, so the route limits checks per customer as well
 * as per address (payeeCheckLimits).
 */
export const payeeCheckLimits = {
  perAddress: { max: 30, timeWindow: '1 hour' },
  perCustomer: { max: 20, timeWindow: '1 hour' },
} as const;

function normalizedWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z\s]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = row[j] ?? 0;
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}

export function compareNames(typed: string, actual: string): 'match' | 'close_match' | 'no_match' {
  const typedWords = normalizedWords(typed);
  const actualWords = normalizedWords(actual);
  if (typedWords.length === 0) return 'no_match';
  if ([...typedWords].sort().join(' ') === [...actualWords].sort().join(' ')) return 'match';
  const typedLast = typedWords.at(-1) ?? '';
  const actualLast = actualWords.at(-1) ?? '';
  const typedFirst = typedWords[0] ?? '';
  const actualFirst = actualWords[0] ?? '';
  // "J Smith" for "John Smith"; "Jon Smith" for "John Smith"; a typo of one or two letters.
  if (typedLast === actualLast && (actualFirst.startsWith(typedFirst) || editDistance(typedFirst, actualFirst) <= 1)) return 'close_match';
  if (editDistance(typedWords.join(' '), actualWords.join(' ')) <= 2) return 'close_match';
  return 'no_match';
}

export async function checkPayee(db: Queryable, accountNumber: string, accountName: string): Promise<PayeeCheckResponse> {
  const account = await findAccountByNumber(db, accountNumber);
  if (!account || account.status === 'closed') return { result: 'no_match' };
  const result = compareNames(accountName, account.holder_name);
  return result === 'close_match' ? { result, accountName: account.holder_name } : { result };
}
