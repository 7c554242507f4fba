import type { PayeeCheckResponse } from '@strongroom/contracts/payments.ts';
import type { Queryable } from '../../db/database.ts';
import { compareNames } from '../../platform/name-match.ts';
import { findAccountByNumber } from './party-repository.ts';

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

export async function checkPayee(db: Queryable, accountNumber: string, accountName: string): Promise<PayeeCheckResponse> {
  const account = await findAccountByNumber(db, accountNumber);
  if (!account || account.status === 'closed') return { result: 'no_match' };
  const result = compareNames(accountName, account.holder_name);
  return result === 'close_match' ? { result, accountName: account.holder_name } : { result };
}
