import { merchantCategory, type Card, type CardTransaction, type DeclineReason, type StaffCard } from '@strongroom/contracts/cards.ts';
import { balanceOf, lookupAccounts } from '../../ledger/accounts.ts';
import { centsToJson } from '../../platform/money.ts';
import { accountsWithBalances } from '../accounts/service.ts';
import type { AuthorizationRow } from './authorization-repository.ts';
import type { CardDependencies } from './card-dependencies.ts';
import { formatExpiry, type Expiry } from './card-numbers.ts';
import type { CardRow } from './card-repository.ts';
import { spentThisMonth } from './authorization-repository.ts';
import { owedOf } from './credit-line.ts';
import type { StaffCardRow } from './staff-repository.ts';

/** What the card network hears back from an authorisation. */
export interface AuthorizationAnswer {
  id: string;
  status: 'approved' | 'declined';
  declineReason?: DeclineReason;
}

export function expiryOf(row: CardRow): Expiry | undefined {
  return row.expiry_month && row.expiry_year ? { month: row.expiry_month, year: row.expiry_year } : undefined;
}

/** Balances come from the ledger (D8): a debit card shows its checking account's available balance, a credit card its available credit. */
export async function presentCards(dependencies: CardDependencies, customerId: string, rows: readonly CardRow[]): Promise<Card[]> {
  const { db } = dependencies;
  if (rows.length === 0) return [];
  const accounts = new Map((await accountsWithBalances(db, customerId, true)).map((account) => [account.id, account.availableCents]));
  const ledgerIds = rows.flatMap((row) => (row.ledger_account_id ? [row.ledger_account_id] : []));
  const ledgerAccounts = new Map((await lookupAccounts(db, ledgerIds)).map((account) => [account.id, account]));
  const spent = await spentThisMonth(
    db,
    rows.map((row) => row.id),
    dependencies.config.bankTimeZone,
  );
  return rows.map((row) => {
    const expiry = expiryOf(row);
    const card: Card = {
      id: row.id,
      type: row.type,
      network: row.network,
      nameOnCard: row.name_on_card,
      last4: row.last4 ?? '',
      expiry: expiry ? formatExpiry(expiry) : '',
      status: row.status,
      balanceCents: 0,
      perTransactionLimitCents: centsToJson(BigInt(row.per_transaction_limit_cents)),
      monthlyLimitCents: centsToJson(BigInt(row.monthly_limit_cents)),
      spentThisMonthCents: centsToJson(spent.get(row.id) ?? 0n),
      rejectionReason: row.status === 'rejected' ? row.decision_reason : null,
      createdAt: row.created_at.toISOString(),
    };
    if (row.type === 'debit') {
      card.balanceCents = centsToJson(accounts.get(row.linked_account_id) ?? 0n);
    } else {
      const ledgerAccount = row.ledger_account_id ? ledgerAccounts.get(row.ledger_account_id) : undefined;
      const limit = row.credit_limit_cents === null ? null : BigInt(row.credit_limit_cents);
      if (ledgerAccount && limit !== null) {
        const balance = balanceOf(ledgerAccount);
        card.balanceCents = centsToJson(balance.availableCents);
        card.creditLimitCents = centsToJson(limit);
        card.balanceOwedCents = centsToJson(owedOf(limit, balance.balanceCents));
      }
    }
    return card;
  });
}

export async function presentCard(dependencies: CardDependencies, row: CardRow): Promise<Card> {
  const [card] = await presentCards(dependencies, row.customer_id, [row]);
  if (!card) throw new Error('a card was not presented');
  return card;
}

export function presentTransaction(row: AuthorizationRow): CardTransaction {
  return {
    id: row.id,
    merchantName: row.merchant_name,
    mcc: row.mcc,
    category: merchantCategory(row.mcc),
    amountCents: centsToJson(BigInt(row.amount_cents)),
    clearedCents: row.cleared_cents === null ? null : centsToJson(BigInt(row.cleared_cents)),
    status: row.status,
    declineReason: row.decline_reason,
    createdAt: row.created_at.toISOString(),
    releasesAt: row.status === 'pending' ? (row.releases_at?.toISOString() ?? null) : null,
  };
}

export function answerOf(row: AuthorizationRow): AuthorizationAnswer {
  return row.status === 'declined' && row.decline_reason
    ? { id: row.id, status: 'declined', declineReason: row.decline_reason }
    : { id: row.id, status: 'approved' };
}

/** A card request as the back office sees it, with the customer's standing beside it. */
export async function presentStaffCard(dependencies: CardDependencies, row: StaffCardRow): Promise<StaffCard> {
  const accounts = await accountsWithBalances(dependencies.db, row.customer_id, true);
  const available = (type: 'checking' | 'savings') => {
    const account = accounts.find((item) => item.type === type);
    return account ? centsToJson(account.availableCents) : null;
  };
  return {
    id: row.id,
    customerId: row.customer_id,
    customerName: `${row.first_name} ${row.last_name}`,
    customerEmail: row.email,
    type: row.type,
    network: row.network,
    nameOnCard: row.name_on_card,
    last4: row.last4,
    status: row.status,
    standing: {
      identityStatus: row.identity_status ?? 'none',
      checkingAvailableCents: available('checking'),
      savingsAvailableCents: available('savings'),
      customerSince: row.customer_since.toISOString(),
      frozen: row.frozen,
      openCards: row.open_cards,
    },
    creditLimitCents: row.credit_limit_cents === null ? null : centsToJson(BigInt(row.credit_limit_cents)),
    reason: row.decision_reason,
    requestedAt: row.created_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
    decidedBy: row.decided_by,
  };
}
