/**
 * The ledger's vocabulary: which currency (ledger), what kind of account (account code), why money
 * moved (transfer code), and the bank's own operator accounts. Numbers are stored; names are for
 * people. A number, once used, is never reused for another meaning.
 */

/** A ledger is a currency at a scale; transfers only move money between accounts of one ledger. */
export const ledgers = {
  /** US dollars in cents (ISO 4217 numeric code 840, scale 2). */
  usd: 840,
} as const;

export const accountCodes = {
  customerChecking: 1,
  customerSavings: 2,
  loan: 3,
  card: 4,
  /** What a customer account owes the bank after a returned deposit took it below zero. */
  customerOwed: 5,
  bankCapital: 100,
  settlementAch: 110,
  settlementWire: 111,
  settlementCard: 112,
  feesIncome: 120,
  /** Interest the bank earns on its loans (credit-normal income; created by migration 0017). */
  interestIncome: 121,
  marketingExpense: 130,
  interestExpense: 131,
  /** Micro-deposits sent to prove a customer's account at another bank. */
  accountVerificationExpense: 132,
  /** What the bank bears of disputes it resolved for the customer with no one to charge back (issue 34; migration 0049). */
  disputeLosses: 133,
  /** What the bank's reconciliation with its settlement bank found and booked (issue 35; migration 0050). */
  reconciliationDifferences: 134,
  loansReceivable: 140,
  /** Provisional credit given on disputes, until the network pays it back, the bank bears it or the customer returns it (issue 34; migration 0049). */
  disputesSuspense: 150,
} as const;
export type AccountCode = (typeof accountCodes)[keyof typeof accountCodes];

export const transferCodes = {
  deposit: 1,
  withdrawal: 2,
  ownTransfer: 3,
  internalTransfer: 4,
  externalTransfer: 5,
  cardPush: 6,
  cardPurchase: 7,
  loanDisbursement: 8,
  loanRepayment: 9,
  fee: 10,
  referralBonus: 11,
  interest: 12,
  accountFunding: 13,
  /** A micro-deposit to an account a customer links (account verification expense -> ACH settlement). */
  microDeposit: 14,
  /** Another bank returned a deposit after it had cleared: the money goes back (what the account owes -> ACH settlement). */
  depositReturn: 15,
  /** Money that came in pays what the account owes (customer account -> what it owes). */
  owedRepayment: 16,
  /** A credit card's line of credit, granted at approval (loans receivable -> the card's account); 17-19 left to loans. */
  cardCreditLine: 20,
  /** Money paid towards what a credit card owes (checking -> the card's account). */
  cardRepayment: 21,
  /** A closed credit card held more than it owed: that credit balance goes back to the customer (the card's account -> checking). */
  cardCreditRefund: 22,
  /** A bill paid to a biller of Bill Pay's directory (customer account -> ACH settlement; issue 33). */
  billPayment: 23,
  /** A dispute's credit into the customer's account, provisional or final (disputes suspense -> customer account; issue 34). */
  disputeCredit: 24,
  /** A denied dispute's provisional credit taken back (customer account -> disputes suspense). */
  disputeReversal: 25,
  /** A card charge resolved for the customer: the network pays the money back (card settlement -> disputes suspense). */
  disputeChargeback: 26,
  /** A dispute resolved for the customer with nobody to charge back: the bank bears it (dispute losses -> disputes suspense). */
  disputeLoss: 27,
  /** What a reversed provisional credit took beyond what the account had: owed to the bank (what it owes -> customer account). */
  disputeReversalOwed: 28,
  /** A finance staff member's adjusting entry between two of the bank's own accounts, with a reason (issue 35). */
  adjustment: 29,
} as const;
export type TransferCode = (typeof transferCodes)[keyof typeof transferCodes];

/**
 * The bank's own accounts, created by migration 0002 with these fixed ids so that every feature and
 * every environment names them the same way. The ids are valid version-4 uuids that no random
 * generator will produce in practice.
 */
export const operatorAccounts = {
  bankCapital: '00000000-0000-4000-8000-000000000001',
  settlementAch: '00000000-0000-4000-8000-000000000002',
  settlementWire: '00000000-0000-4000-8000-000000000003',
  settlementCard: '00000000-0000-4000-8000-000000000004',
  feesIncome: '00000000-0000-4000-8000-000000000005',
  marketingExpense: '00000000-0000-4000-8000-000000000006',
  loansReceivable: '00000000-0000-4000-8000-000000000007',
  interestExpense: '00000000-0000-4000-8000-000000000008',
  accountVerificationExpense: '00000000-0000-4000-8000-000000000009',
  /** Migration 0017 (loans): the id ends in its account code, 121. */
  interestIncome: '00000000-0000-4000-8000-000000000121',
  /** Migration 0049 (disputes), each id ending in its account code. */
  disputeLosses: '00000000-0000-4000-8000-000000000133',
  disputesSuspense: '00000000-0000-4000-8000-000000000150',
  /** Migration 0050 (the books). */
  reconciliationDifferences: '00000000-0000-4000-8000-000000000134',
} as const;

/** The account code each operator account was created with (migration 0002 must agree). */
export const operatorAccountCodes: Record<keyof typeof operatorAccounts, AccountCode> = {
  bankCapital: accountCodes.bankCapital,
  settlementAch: accountCodes.settlementAch,
  settlementWire: accountCodes.settlementWire,
  settlementCard: accountCodes.settlementCard,
  feesIncome: accountCodes.feesIncome,
  marketingExpense: accountCodes.marketingExpense,
  loansReceivable: accountCodes.loansReceivable,
  interestExpense: accountCodes.interestExpense,
  accountVerificationExpense: accountCodes.accountVerificationExpense,
  interestIncome: accountCodes.interestIncome,
  disputeLosses: accountCodes.disputeLosses,
  disputesSuspense: accountCodes.disputesSuspense,
  reconciliationDifferences: accountCodes.reconciliationDifferences,
};

/**
 * Which side grows an account's balance. Liabilities, equity and income are credit-normal (a
 * customer's deposit is money the bank owes); assets and expenses are debit-normal (a loan is money
 * owed to the bank, a settlement account is money the bank holds at a payment rail).
 */
export type NormalSide = 'credit' | 'debit';

const debitNormalCodes: ReadonlySet<number> = new Set([
  accountCodes.loan,
  accountCodes.customerOwed,
  accountCodes.settlementAch,
  accountCodes.settlementWire,
  accountCodes.settlementCard,
  accountCodes.marketingExpense,
  accountCodes.interestExpense,
  accountCodes.accountVerificationExpense,
  accountCodes.disputeLosses,
  accountCodes.reconciliationDifferences,
  accountCodes.loansReceivable,
  // Money the bank advanced on disputes, owed back to it by the network, its losses or the customer.
  accountCodes.disputesSuspense,
]);

export function normalSideOfCode(code: number): NormalSide {
  return debitNormalCodes.has(code) ? 'debit' : 'credit';
}
