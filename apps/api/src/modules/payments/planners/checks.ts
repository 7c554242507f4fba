import { formatMoney } from '@strongroom/contracts/money.ts';
import { fundingSourceMessages } from '@strongroom/contracts/funding-sources.ts';
import { AppError } from '../../../platform/errors.ts';

import { owedCents } from '../../accounts/service.ts';
import { verifiedFundingSource as findVerifiedFundingSource, type FundingSourceRow } from '../../funding-sources/service.ts';
import type { PlanContext } from '../plan.ts';
import { findAccountById, type AccountRef } from '../party-repository.ts';

/** What several planners check: the accounts a customer may pay from or into, and the funding source of a deposit. */
export const noSuchAccount = 'No such account';

/**
 * The customer's own account to pay from (or into, for a deposit). Someone else's account answers
 * exactly as a missing one does; a closed account and one not yet approved say so.
 */
export async function ownAccount(context: PlanContext, accountId: string): Promise<AccountRef> {
  return checkOwnAccount(context, await findAccountById(context.db, accountId));
}

/** ownAccount's checks on an account already read (own.ts reads both of a transfer's at once). */
export function checkOwnAccount(context: PlanContext, account: AccountRef | undefined): AccountRef {
  if (!account || account.customer_id !== context.customerId) throw new AppError('not_found', noSuchAccount);
  if (account.status === 'closed') throw new AppError('conflict', 'This account is closed. Choose another account.');
  if (account.status !== 'active' || !account.identity_approved) throw new AppError('forbidden', 'Account has not been approved');
  return account;
}

/** The account money leaves: the customer's own, and owing the bank nothing (accounts/owed.ts). */
export async function sourceAccount(context: PlanContext, accountId: string): Promise<AccountRef> {
  return checkSourceAccount(context, await findAccountById(context.db, accountId));
}

/** sourceAccount's checks on an account already read. */
export async function checkSourceAccount(context: PlanContext, read: AccountRef | undefined): Promise<AccountRef> {
  const account = checkOwnAccount(context, read);
  const owed = await owedCents(context.db, account);
  if (owed > 0n) {
    throw new AppError(
      'account_overdrawn',
      `This account is ${formatMoney(-owed)} after a deposit was returned. Pay in at least ${formatMoney(owed)} before you send money from it.`,
    );
  }
  return account;
}

/** A verified account at another bank of this customer's; anything else answers as if there were none. */
export async function verifiedFundingSource(context: PlanContext, fundingSourceId: string | undefined): Promise<FundingSourceRow> {
  const source = fundingSourceId === undefined ? undefined : await findVerifiedFundingSource(context.db, context.customerId, fundingSourceId);
  if (!source) throw new AppError('no_funding_source', fundingSourceMessages.noFundingSource);
  return source;
}

export function fieldError(name: string, message: string): AppError {
  return new AppError('validation_failed', message, { fields: { [name]: message } });
}

/** Nothing a planner decides about the recipient or favourites: money that stays with this customer. */
export const noRecipient = { recipientCustomerId: null, favorite: null } as const;
