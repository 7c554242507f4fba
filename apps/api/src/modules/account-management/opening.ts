import { randomUUID } from 'node:crypto';
import type { ManagedAccountResponse } from '@strongroom/contracts/account-management.ts';
import { fundingSourceMessages } from '@strongroom/contracts/funding-sources.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Product } from '@strongroom/contracts/products.ts';
import type { Queryable } from '../../db/database.ts';
import { createAccounts } from '../../ledger/accounts.ts';
import { accountCodes, ledgers } from '../../ledger/codes.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { accountFlags } from '../../ledger/types.ts';
import { assertNotFrozen } from '../../platform/account-freeze.ts';
import { recordAudit } from '../../platform/audit.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { AppError } from '../../platform/errors.ts';
import { claimIdempotencyKey, lookupIdempotencyKey, requestHash, storeIdempotentResponse, type StoredResponse } from '../../platform/idempotency.ts';
import { auditEntryOf } from '../../platform/request-actor.ts';
import { verifiedFundingSource } from '../funding-sources/service.ts';
import { moveMoney } from '../payments/service.ts';
import { insertCustomerAccount, newAccountNumber, owedCents } from '../accounts/service.ts';
import { customerExists, findCustomerAccount, identityApproved, lockCustomer, type ManagedAccountRow } from './manage-repository.ts';
import {
  noSuchAccount,
  presentAccountById,
  productOnBankDate,
  publishAccountsChanged,
  reasonDetails,
  type AccountManagementDependencies,
  type AccountRequester,
} from './managed-account.ts';
import { depositOpeningFromBank } from './opening-deposit.ts';

/** What an account is opened with: its product, and the opening deposit and where it comes from. */
export interface OpeningRequest {
  productId: string;
  fromAccountId?: string | undefined;
  fundingSourceId?: string | undefined;
  openingDepositCents: number;
}

const accountNumberAttempts = 10;
export const alreadyOpening = 'This account is already being opened. Check your accounts before trying again.';

/**
 * `POST /accounts` (and staff's `POST /staff/customers/{id}/accounts`), docs/product.md section 7:
 * another account of any product for a customer whose identity is approved. The opening deposit
 * must reach the product's opening deposit in force on the bank's date (422
 * opening_deposit_too_low). From one of the customer's own accounts it moves as an own transfer in
 * the transaction that inserts the account, so the account exists funded or not at all; from a
 * verified account at another bank it is a deposit, pending at the rail as every deposit is
 * (opening-deposit.ts), and the account opens at once. The Idempotency-Key answers a rerun with
 * the same account.
 */
export async function openAccount(
  dependencies: AccountManagementDependencies,
  requester: AccountRequester,
  request: OpeningRequest,
  idempotencyKey: string,
): Promise<StoredResponse> {
  const { db } = dependencies;
  const { customerId } = requester;
  if (!(await customerExists(db, customerId))) throw new AppError('not_found', 'No such customer');
  const hash = requestHash(requester.reason === undefined ? 'accounts' : 'staff-accounts', { ...request, reason: requester.reason });
  const earlier = await lookupIdempotencyKey(db, customerId, idempotencyKey, hash);
  if (earlier.state === 'answered') return earlier.response;
  if (earlier.state === 'unanswered') return finishUnanswered(dependencies, requester, earlier.paymentId, request);

  if (!(await identityApproved(db, customerId))) throw new AppError('forbidden', 'Accounts can be opened only once the identity has been approved.');
  if (requester.reason === undefined) await assertNotFrozen(db, customerId);
  const product = await productOnBankDate(dependencies, request.productId);
  const amountCents = BigInt(request.openingDepositCents);
  const source = await sourceOf(dependencies, customerId, request, amountCents);
  if (amountCents < BigInt(product.openingDepositCents)) {
    throw new AppError('opening_deposit_too_low', `${product.name} opens with a deposit of at least ${formatMoney(BigInt(product.openingDepositCents))}.`, {
      fields: { openingDepositCents: `at least ${formatMoney(BigInt(product.openingDepositCents))}` },
    });
  }

  const accountId = randomUUID();
  const ledgerAccountId = randomUUID();
  // The ledger account first (the ledger runs its own transaction); if the opening fails below it stays empty and unused.
  const [created] = await createAccounts(db, [
    {
      id: ledgerAccountId,
      ledger: ledgers.usd,
      code: product.kind === 'checking' ? accountCodes.customerChecking : accountCodes.customerSavings,
      flags: accountFlags.debitsMustNotExceedCredits,
    },
  ]);
  if (created?.result !== 'ok') throw new Error(`the ledger refused a new customer account: ${created?.result ?? 'no result'}`);

  const opened = await retryOnWriteConflict(() =>
    db.transaction(async (tx) => {
      if (!(await claimIdempotencyKey(tx, customerId, idempotencyKey, hash, accountId))) return undefined;
      if (!(await lockCustomer(tx, customerId))) throw new Error(`customer ${customerId} vanished`);
      const number = await insertAccount(tx, { id: accountId, customerId, product, ledgerAccountId });
      if (source.kind === 'account' && amountCents > 0n) {
        const moved = await moveMoney(
          tx,
          {
            id: derivedUuid('account-opening', accountId),
            kind: 'own',
            customerId,
            fromAccountId: source.account.id,
            toAccountId: accountId,
            amountCents,
            counterpartyName: product.name,
            message: `Opening deposit to ${product.name}`,
          },
          dependencies.clock,
        );
        // Rolls back the account and the key's claim with it: the same key may be tried again.
        if (moved.outcome === 'refused')
          throw new AppError('insufficient_funds', 'Insufficient funds: the opening deposit is more than the available balance of this account.');
      }
      await recordAudit(
        tx,
        auditEntryOf(requester.actor, {
          action: 'account.opened',
          subject: accountId,
          outcome: 'success',
          details: {
            productId: product.id,
            number,
            openingDepositCents: amountCents.toString(),
            source: source.kind === 'account' ? source.account.id : (source.fundingSourceId ?? null),
            ...reasonDetails(requester),
          },
        }),
      );
      if (source.kind === 'bank' && amountCents > 0n) return 'deposit_to_make' as const;
      const response = { status: 201, body: { account: await presentAccountById(tx, customerId, accountId) } satisfies ManagedAccountResponse };
      await storeIdempotentResponse(tx, accountId, response);
      return response;
    }),
  );
  if (!opened) {
    const again = await lookupIdempotencyKey(db, customerId, idempotencyKey, hash);
    if (again.state === 'answered') return again.response;
    throw new AppError('conflict', alreadyOpening);
  }
  publishAccountsChanged(dependencies, customerId);
  if (opened !== 'deposit_to_make') return opened;
  return depositOpeningFromBank(dependencies, requester, await openedAccount(db, customerId, accountId), request);
}

type Source = { kind: 'account'; account: ManagedAccountRow } | { kind: 'bank'; fundingSourceId: string | undefined };

/** Where the opening deposit comes from, checked: the customer's own open account owing nothing, or a verified account at another bank. */
async function sourceOf(dependencies: AccountManagementDependencies, customerId: string, request: OpeningRequest, amountCents: bigint): Promise<Source> {
  const { db } = dependencies;
  if (request.fromAccountId !== undefined) {
    const account = await findCustomerAccount(db, customerId, request.fromAccountId);
    if (!account || account.status === 'closed') throw new AppError('not_found', noSuchAccount);
    const owed = await owedCents(db, account);
    if (owed > 0n && amountCents > 0n) {
      throw new AppError(
        'account_overdrawn',
        `This account is ${formatMoney(-owed)} after a deposit was returned. Pay in at least ${formatMoney(owed)} before you send money from it.`,
      );
    }
    return { kind: 'account', account };
  }
  if (request.fundingSourceId !== undefined && !(await verifiedFundingSource(db, customerId, request.fundingSourceId))) {
    throw new AppError('no_funding_source', fundingSourceMessages.noFundingSource);
  }
  return { kind: 'bank', fundingSourceId: request.fundingSourceId };
}

/** Inserts the account under a fresh number (retried on the rare clash); answers the number. */
async function insertAccount(tx: Queryable, account: { id: string; customerId: string; product: Product; ledgerAccountId: string }): Promise<string> {
  for (let attempt = 1; attempt <= accountNumberAttempts; attempt += 1) {
    const number = newAccountNumber();
    const inserted = await insertCustomerAccount(tx, {
      id: account.id,
      customerId: account.customerId,
      type: account.product.kind,
      number,
      name: account.product.name,
      ledgerAccountId: account.ledgerAccountId,
      productId: account.product.id,
    });
    if (inserted) return number;
  }
  throw new Error('no free account number after several attempts');
}

async function openedAccount(db: Queryable, customerId: string, accountId: string): Promise<ManagedAccountRow> {
  const account = await findCustomerAccount(db, customerId, accountId);
  if (!account) throw new Error(`account ${accountId} vanished after it opened`);
  return account;
}

/**
 * A key claimed by an opening that has no answer yet: the account opened and its deposit from
 * another bank was not yet asked for (the process stopped in between). The deposit is asked for
 * now, under the same derived key, so it is made once whatever happens.
 */
async function finishUnanswered(
  dependencies: AccountManagementDependencies,
  requester: AccountRequester,
  accountId: string,
  request: OpeningRequest,
): Promise<StoredResponse> {
  const account = await findCustomerAccount(dependencies.db, requester.customerId, accountId);
  if (!account || request.fundingSourceId === undefined) throw new AppError('conflict', alreadyOpening);
  return depositOpeningFromBank(dependencies, requester, account, request);
}
