import type { FdxAccess, ConnectedAppsDependencies } from '../connected-apps/service.ts';
import { accountsWithEarnings } from '../accounts/service.ts';
import { findCustomerById } from '../customers/service.ts';
import { fdxAmount } from './amounts.ts';
import { accountNotFound } from './errors.ts';
import { accountPageLimits, pageLinks, pageOf, parseLimit } from './paging.ts';
import { listConsentedAccounts, type ConsentedAccountRow } from './repository.ts';
import type { DepositAccount, DepositAccountDescriptor } from './schemas.ts';

export const fdxBasePath = '/fdx/v6';

/** An account the access's consent covers, still open; anything else is 701, exactly like a missing account. */
export async function requireConsentedAccount(
  dependencies: Pick<ConnectedAppsDependencies, 'db'>,
  access: FdxAccess,
  accountId: string,
): Promise<ConsentedAccountRow> {
  // Compared as text first: an id the consent does not name (a malformed one too) never reaches SQL.
  if (!access.accountIds.includes(accountId)) throw accountNotFound();
  const [account] = await listConsentedAccounts(dependencies.db, access.customerId, [accountId]);
  if (!account) throw accountNotFound();
  return account;
}

async function identityApproved(dependencies: Pick<ConnectedAppsDependencies, 'db'>, customerId: string): Promise<boolean> {
  return (await findCustomerById(dependencies.db, customerId))?.identity_status === 'approved';
}

/**
 * FDX's account descriptor. The bank's screens show an account active once it is open and its
 * owner's identity approved; until then FDX's RESTRICTED (open, not usable yet) says the same.
 */
export function describeAccount(account: ConsentedAccountRow, approved: boolean): DepositAccountDescriptor {
  return {
    accountCategory: 'DEPOSIT_ACCOUNT',
    accountId: account.id,
    accountType: account.type === 'checking' ? 'CHECKING' : 'SAVINGS',
    accountNumberDisplay: account.number.slice(-4),
    productName: account.product_name,
    nickname: account.name,
    status: account.status === 'active' && approved ? 'OPEN' : 'RESTRICTED',
    currency: { currencyCode: 'USD' },
  };
}

/** `GET /accounts`: the consented accounts that are still open, with any data scope. */
export async function listFdxAccounts(dependencies: Pick<ConnectedAppsDependencies, 'db'>, access: FdxAccess, query: { offset?: string; limit?: string }) {
  const limit = parseLimit(query.limit, accountPageLimits);
  const [accounts, approved] = await Promise.all([
    listConsentedAccounts(dependencies.db, access.customerId, access.accountIds),
    identityApproved(dependencies, access.customerId),
  ]);
  const page = pageOf(accounts, query.offset, limit);
  return {
    ...pageLinks(`${fdxBasePath}/accounts`, { limit: String(limit) }, page.nextOffset, page.totalElements),
    accounts: page.items.map((account) => describeAccount(account, approved)),
  };
}

/** Basis points as FDX's percent (425 bps: 4.25), by the same exact formatting as amounts. */
function percentOfBps(bps: number): number {
  return fdxAmount(bps);
}

/**
 * `GET /accounts/{accountId}` (fdx:accountdetailed:read): the descriptor with its balances from the
 * ledger, as the customer's own Accounts page shows them (accounts module), now.
 */
export async function fdxAccountDetails(
  dependencies: Pick<ConnectedAppsDependencies, 'db' | 'config' | 'clock'>,
  access: FdxAccess,
  accountId: string,
): Promise<DepositAccount> {
  const account = await requireConsentedAccount(dependencies, access, accountId);
  const approved = await identityApproved(dependencies, access.customerId);
  const balanceAsOf = dependencies.clock.now();
  const withEarnings = await accountsWithEarnings(dependencies.db, dependencies.config, access.customerId, approved, dependencies.clock);
  const figures = withEarnings.find((candidate) => candidate.id === account.id);
  // Both reads list the customer's open accounts: one closed in between is gone, like a missing one.
  if (!figures) throw accountNotFound();
  return {
    ...describeAccount(account, approved),
    balanceType: 'ASSET',
    balanceAsOf: balanceAsOf.toISOString(),
    currentBalance: fdxAmount(figures.balanceCents),
    availableBalance: fdxAmount(figures.availableCents),
    interestRate: percentOfBps(figures.interestRateBps),
    // The products' rates change when the bank decides (deposit_product_terms): a variable rate.
    interestRateType: 'VARIABLE',
    annualPercentageYield: percentOfBps(figures.apyBps),
    interestYtd: fdxAmount(figures.interestThisYearCents),
  };
}
