import type { QueryKey } from '@tanstack/react-query';
import type { LiveEventTopic } from '@strongroom/contracts/notifications.ts';

/**
 * Every TanStack Query key of the web app, and what goes stale when something happens. A key that
 * starts with another's is covered by it: invalidating `transactions` refreshes every list and
 * detail under it.
 */
export const queryKeys = {
  me: ['me'],
  accounts: ['accounts'],
  /** The deposit products with the terms in force (`GET /products`). */
  products: ['products'],
  statementMonths: (accountId: string) => ['accounts', accountId, 'statement-months'],
  dashboard: ['dashboard'],
  beneficiaries: ['beneficiaries'],
  /** Bill Pay's directory, by category (`GET /billers?category=`), and the customer's bill payees. */
  billers: (category: string) => ['billers', category],
  billPayees: ['bill-payees'],
  notifications: ['notifications'],
  fundingSources: ['funding-sources'],
  transactions: ['transactions'],
  transactionList: (filters: object) => ['transactions', 'list', filters],
  transactionDetail: (id: string | null) => ['transactions', 'detail', id],
  transfers: ['transfers'],
  loans: ['loans'],
  loan: (id: string) => ['loans', 'detail', id],
  transfer: (id: string | undefined) => ['transfers', id],
  heldTransfers: ['transfers', { status: 'in_review' }],
  payeeCheck: (accountNumber: string | undefined, accountName: string | undefined) => ['payee-check', accountNumber, accountName],
  receiptVerification: (reference: string) => ['receipt-verification', reference],
  signupStatus: ['auth', 'signup-status'],
  verifyEmail: (token: string) => ['auth', 'verify-email', token],
  passwordResetCheck: (token: string) => ['auth', 'password-reset-check', token],
  outbox: (to: string) => ['dev', 'outbox', to],
  cards: ['cards'],
  card: (id: string) => ['cards', 'one', id],
  cardTransactions: (id: string) => ['cards', 'one', id, 'transactions'],
  cardReveals: (id: string) => ['cards', 'one', id, 'reveals'],
  preferences: ['preferences'],
  referral: ['referral'],
  referrals: ['referrals'],
  secureMessages: ['secure-messages'],
  secureMessageList: ['secure-messages', 'list'],
  secureMessageThread: (id: string) => ['secure-messages', 'thread', id],
  securityEvents: ['security-events'],
  /** Settings > Connected apps: the consents in force (`GET /me/connected-apps`). */
  connectedApps: ['connected-apps'],
  passkeys: ['passkeys'],
  sessions: ['security', 'sessions'],
  totp: ['security', 'totp'],
} as const satisfies Record<string, QueryKey | ((...parts: never[]) => QueryKey)>;

/** What any movement of money changes: balances, the month's figures and the history. */
const staleWhenMoneyMoves: readonly QueryKey[] = [queryKeys.accounts, queryKeys.dashboard, queryKeys.transactions];

/** What each live event from the server makes stale; money moved also changes the transfers' statuses (a held payment released). */
export const staleQueriesByLiveEvent: Readonly<Record<LiveEventTopic, readonly QueryKey[]>> = {
  // Accounts open when staff approve an identity: the customer's status (`me`) changes with them.
  // A referral bonus is money in: the Invite page's list shows it paid at once.
  accounts: [...staleWhenMoneyMoves, queryKeys.transfers, queryKeys.me, queryKeys.cards, queryKeys.loans, queryKeys.referrals],
  // A card's or a loan's decision reaches the customer as a notification: the cards and loans show it at once.
  // Support's answer to a secure message is a notification too: the open thread shows it at once.
  notifications: [queryKeys.notifications, queryKeys.cards, queryKeys.loans, queryKeys.dashboard, queryKeys.secureMessages],
};

/**
 * What a payment the customer just made makes stale, without waiting for the live events (which a
 * test or an old browser may not have): money moved, its notification, and a payee it may have saved.
 * Not the transfers: the result popup follows the new payment's status on its own schedule (get-transfer.ts).
 */
export const staleQueriesAfterPayment: readonly QueryKey[] = [...staleWhenMoneyMoves, queryKeys.notifications, queryKeys.beneficiaries];
