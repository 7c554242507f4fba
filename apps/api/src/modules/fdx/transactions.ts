import type { PaymentKind } from '@strongroom/contracts/payments.ts';
import type { Transaction } from '@strongroom/contracts/transactions.ts';
import { AppError } from '../../platform/errors.ts';
import type { ConnectedAppsDependencies, FdxAccess } from '../connected-apps/service.ts';
import { listTransactions } from '../history/service.ts';
import { fdxBasePath, requireConsentedAccount } from './accounts.ts';
import { fdxAmount } from './amounts.ts';
import { invalidParameter } from './errors.ts';
import { pageLinks, parseDateRange, parseLimit, type PageLimits } from './paging.ts';
import type { DepositTransaction, depositTransactionTypes } from './schemas.ts';

/** The history's own page sizes (contracts' transactionPageSize): a page is one read of the history. */
export const transactionPageLimits: PageLimits = { default: 50, max: 100 };

type DepositTransactionType = (typeof depositTransactionTypes)[number];

/** FDX's DepositTransactionType of each kind of payment, by the side the account is on. */
function transactionTypeOf(kind: PaymentKind, credit: boolean): DepositTransactionType {
  switch (kind) {
    case 'own':
    case 'internal':
    case 'external':
    case 'loan_repayment':
      return 'TRANSFER';
    case 'card':
      return credit ? 'POSCREDIT' : 'POSDEBIT';
    case 'bill':
      return 'BILLPAYMENT';
    case 'deposit':
    case 'funding':
    case 'loan_disbursement':
    case 'referral_bonus':
      return 'DEPOSIT';
    case 'withdrawal':
      return 'WITHDRAWAL';
    case 'interest':
      return 'INTEREST';
    case 'fee':
      return 'FEE';
    case 'fee_refund':
    case 'dispute_credit':
    case 'dispute_reversal':
      return 'ADJUSTMENT';
  }
}

/**
 * One line of the customer's history as an FDX DepositTransaction. The history keeps one instant
 * per payment, when it was made: it is the transaction's timestamp, and its posting's once it
 * completed (FDX leaves `postedTimestamp` out while a transaction is pending). A payment held for
 * review is pending too: its money is reserved and may still come back.
 */
export function presentTransaction(line: Transaction): DepositTransaction {
  const credit = line.amountCents > 0;
  const posted = line.status === 'completed';
  return {
    accountCategory: 'DEPOSIT_ACCOUNT',
    accountId: line.accountId,
    transactionId: line.id,
    ...(posted ? { postedTimestamp: line.createdAt } : {}),
    transactionTimestamp: line.createdAt,
    description: line.description,
    debitCreditMemo: credit ? 'CREDIT' : 'DEBIT',
    status: posted ? 'POSTED' : 'PENDING',
    amount: fdxAmount(line.amountCents < 0 ? -line.amountCents : line.amountCents),
    transactionType: transactionTypeOf(line.kind, credit),
    ...(line.party ? { payee: line.party.slice(0, 255) } : {}),
    category: line.category,
  };
}

/** Lines that never moved money (refused by staff, returned by the rail) are not transactions FDX has a status for. */
function movedMoney(line: Transaction): boolean {
  return line.status === 'completed' || line.status === 'pending' || line.status === 'in_review';
}

/**
 * `GET /accounts/{accountId}/transactions?startTime&endTime&offset&limit`
 * (fdx:transactions:read): the account's history, newest first, between two inclusive dates in
 * the bank's time zone. The offset is the history's own keyset cursor, opaque to the app: every
 * line comes exactly once across the pages, in a stable order, even while new payments arrive. A
 * page may hold fewer than `limit` transactions when lines that moved no money were left out.
 */
export async function listFdxTransactions(
  dependencies: Pick<ConnectedAppsDependencies, 'db' | 'config'>,
  access: FdxAccess,
  accountId: string,
  query: { startTime?: string; endTime?: string; offset?: string; limit?: string },
) {
  await requireConsentedAccount(dependencies, access, accountId);
  const range = parseDateRange(query.startTime, query.endTime);
  const limit = parseLimit(query.limit, transactionPageLimits);
  let list;
  try {
    list = await listTransactions(dependencies.db, access.customerId, { accountId, ...range, cursor: query.offset, limit }, dependencies.config.bankTimeZone);
  } catch (error) {
    // The history refuses a cursor it did not make with a validation error: FDX's answer is a 400.
    if (error instanceof AppError && error.code === 'validation_failed') throw invalidParameter('offset', 'offset must be a page offset this API gave');
    throw error;
  }
  const path = `${fdxBasePath}/accounts/${encodeURIComponent(accountId)}/transactions`;
  return {
    ...pageLinks(path, { startTime: query.startTime, endTime: query.endTime, limit: String(limit) }, list.nextCursor ?? undefined),
    transactions: list.items.filter(movedMoney).map(presentTransaction),
  };
}
