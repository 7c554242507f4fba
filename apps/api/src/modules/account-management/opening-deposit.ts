import type { ManagedAccountResponse } from '@strongroom/contracts/account-management.ts';
import { errorStatusByCode, isErrorCode, type ErrorCode } from '@strongroom/contracts/http.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { storeIdempotentResponse, type StoredResponse } from '../../platform/idempotency.ts';
import { auditEntryOf } from '../../platform/request-actor.ts';
import { requestPayment } from '../payments/service.ts';
import { markAccountClosed, type ManagedAccountRow } from './manage-repository.ts';
import { presentAccountById, publishAccountsChanged, reasonDetails, type AccountManagementDependencies, type AccountRequester } from './managed-account.ts';

/** The Idempotency-Key of an account's opening deposit from another bank: one per account, so it is asked for once. */
export function openingDepositKeyOf(accountId: string): string {
  return `account-opening-${accountId}`;
}

/**
 * The opening deposit from a verified account at another bank: a deposit (an ACH pull) made by the
 * deposit flow itself (payments/service.ts requestPayment), pending at the rail until it clears,
 * with every rule of a deposit (the daily allowance, a frozen customer). The account is already
 * open; its answer is stored for the opening's key once the deposit is asked for. When the deposit
 * is refused, the account (still empty, nothing depends on it) is closed and the refusal is the
 * opening's answer: an account never stays open without the deposit its product needs.
 */
export async function depositOpeningFromBank(
  dependencies: AccountManagementDependencies,
  requester: AccountRequester,
  account: ManagedAccountRow,
  request: { fundingSourceId?: string | undefined; openingDepositCents: number },
): Promise<StoredResponse> {
  const { db } = dependencies;
  const { actor, customerId } = requester;
  let refusal: { code: ErrorCode; message: string } | undefined;
  try {
    const result = await requestPayment(
      dependencies.payments,
      { customerId, ip: actor.ip, userAgent: actor.userAgent, requestId: actor.requestId },
      {
        endpoint: 'deposits',
        body: {
          accountId: account.id,
          fundingSourceId: request.fundingSourceId,
          amountCents: request.openingDepositCents,
          reason: `Opening deposit to ${account.name}`,
        },
      },
      { idempotencyKey: openingDepositKeyOf(account.id) },
    );
    if (result.outcome === 'refused') refusal = result.refusal;
  } catch (error) {
    if (!(error instanceof AppError) || !isErrorCode(error.code)) throw error;
    refusal = { code: error.code, message: error.message };
  }

  const answer = await db.transaction(async (tx): Promise<StoredResponse> => {
    if (refusal) {
      await markAccountClosed(tx, account.id, dependencies.clock);
      await recordAudit(
        tx,
        auditEntryOf(actor, {
          action: 'account.opening_refused',
          subject: account.id,
          outcome: 'failure',
          details: { code: refusal.code, ...reasonDetails(requester) },
        }),
      );
      const response = { status: errorStatusByCode[refusal.code], body: { error: refusal } };
      await storeIdempotentResponse(tx, account.id, response);
      return response;
    }
    const response = { status: 201, body: { account: await presentAccountById(tx, customerId, account.id) } satisfies ManagedAccountResponse };
    await storeIdempotentResponse(tx, account.id, response);
    return response;
  });
  publishAccountsChanged(dependencies, customerId);
  return answer;
}
