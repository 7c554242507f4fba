import type { FundingSource, FundingSourceStatus } from '@strongroom/contracts/funding-sources.ts';
import { accountTypeName } from '../../../components/payment/account-options.ts';
import type { BadgeTone } from '../../../components/ui/badge.tsx';

/** A link's status in words; the screens show it in colour too, never by colour alone. */
export const fundingSourceStatusWords: Readonly<Record<FundingSourceStatus, string>> = {
  pending_verification: 'Waiting for the two small deposits',
  verified: 'Verified',
  failed: 'Could not be verified',
  removed: 'Removed',
};

/** Its colour, by what it asks of the customer: verified green, waiting amber (something to do), failed or removed red. */
export const fundingSourceStatusTones: Readonly<Record<FundingSourceStatus, BadgeTone>> = {
  pending_verification: 'warning',
  verified: 'success',
  failed: 'danger',
  removed: 'danger',
};

/** 'Checking •••• 0055': the bank never shows more of an account number it keeps for the ACH file. */
export function fundingSourceAccount(source: Pick<FundingSource, 'accountType' | 'last4'>): string {
  return `${accountTypeName(source.accountType)} •••• ${source.last4}`;
}

/** 'Dana Demo · Checking •••• 0055': which account, in one line (the deposit form's choices, button names). */
export function fundingSourceLabel(source: Pick<FundingSource, 'accountName' | 'accountType' | 'last4'>): string {
  return `${source.accountName} · ${fundingSourceAccount(source)}`;
}

/** Links that count towards the limit of live links: waiting or verified. */
export function isLiveFundingSource(source: Pick<FundingSource, 'status'>): boolean {
  return source.status === 'pending_verification' || source.status === 'verified';
}
