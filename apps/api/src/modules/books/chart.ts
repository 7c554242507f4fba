import { accountCodes, operatorAccounts, type AccountCode } from '../../ledger/codes.ts';

/**
 * The chart of accounts (docs/books.md, "The chart of accounts"): every ledger account code is
 * booked to one general-ledger account, so the books are the ledger's balances grouped. Customer
 * deposits are split by deposit product (one general-ledger account per product, numbered from the
 * product's kind and position); everything else maps by its code alone. chart.test.ts fails when a
 * ledger account code has no mapping.
 */

export type GlAccountType = 'asset' | 'liability' | 'equity' | 'income' | 'expense';

export interface GlAccount {
  /** The general-ledger account number, four digits: 1xxx assets, 2xxx liabilities, 3xxx equity, 4xxx income, 5xxx expenses. */
  account: string;
  name: string;
  type: GlAccountType;
  /**
   * A contra account reduces its section (its normal side is the opposite of its type's): undrawn
   * card credit lines are credit balances presented under assets, against what is lent.
   */
  contra?: boolean;
}

/** Debit-normal types: a debit grows their balance. A contra account is the other way round. */
export function isDebitNormal(gl: Pick<GlAccount, 'type' | 'contra'>): boolean {
  const debitType = gl.type === 'asset' || gl.type === 'expense';
  return gl.contra ? !debitType : debitType;
}

/** The fixed general-ledger accounts, in the order reports print them. */
export const glAccounts = {
  settlementAch: { account: '1010', name: 'Settlement account: ACH (Federal Reserve)', type: 'asset' },
  settlementWire: { account: '1020', name: 'Settlement account: wires (correspondent bank)', type: 'asset' },
  settlementCard: { account: '1030', name: 'Settlement account: card network', type: 'asset' },
  loansReceivable: { account: '1100', name: 'Loans and card credit lines receivable', type: 'asset' },
  undrawnCardLines: { account: '1110', name: 'Undrawn card credit lines', type: 'asset', contra: true },
  overdrawnAccounts: { account: '1200', name: 'Overdrawn deposit accounts receivable', type: 'asset' },
  disputesSuspense: { account: '1300', name: 'Provisional dispute credits receivable (disputes suspense)', type: 'asset' },
  // 21xx: customer deposits, one account per product (depositGlAccount).
  unassignedDeposits: { account: '2190', name: 'Customer deposits: account without a product', type: 'liability' },
  bankCapital: { account: '3000', name: 'Capital', type: 'equity' },
  retainedEarnings: { account: '3100', name: 'Retained earnings (prior years, closed at each year end)', type: 'equity' },
  currentYearEarnings: { account: '3200', name: 'Net income, current year', type: 'equity' },
  interestIncome: { account: '4000', name: 'Interest income on loans', type: 'income' },
  feesIncome: { account: '4100', name: 'Fee income (less fees refunded)', type: 'income' },
  interestExpense: { account: '5000', name: 'Interest expense on deposits', type: 'expense' },
  marketingExpense: { account: '5100', name: 'Marketing: referral bonuses', type: 'expense' },
  accountVerificationExpense: { account: '5200', name: 'Account verification: micro-deposits', type: 'expense' },
  disputeLosses: { account: '5300', name: 'Dispute losses', type: 'expense' },
  reconciliationDifferences: { account: '5400', name: 'Reconciliation differences', type: 'expense' },
} as const satisfies Record<string, GlAccount>;

export type FixedGlAccountKey = keyof typeof glAccounts;

/** A deposit product as the chart needs it (deposit_products). */
export interface DepositProductRow {
  id: string;
  code: string;
  kind: 'checking' | 'savings';
  name: string;
  position: number;
}

/** Customer deposits of one product: 211x checking, 212x savings, x its position (1-9; 0 beyond). */
export function depositGlAccount(product: DepositProductRow): GlAccount {
  const series = product.kind === 'checking' ? '211' : '212';
  const digit = product.position >= 1 && product.position <= 9 ? String(product.position) : '0';
  return { account: `${series}${digit}`, name: `Customer deposits: ${product.name}`, type: 'liability' };
}

/**
 * Where a ledger account of each code is booked. `deposits` means: by the customer account's
 * product (depositGlAccount), or 2190 when no customer account points at it. Exhaustive over
 * ledger/codes.ts accountCodes (the type says so; chart.test.ts checks every code in the database).
 */
export const glAccountOfCode: Readonly<Record<AccountCode, FixedGlAccountKey | 'deposits'>> = {
  [accountCodes.customerChecking]: 'deposits',
  [accountCodes.customerSavings]: 'deposits',
  // Code 3 (one ledger account per loan) was reserved and is not used: loans are lent from loans receivable.
  [accountCodes.loan]: 'loansReceivable',
  // A credit card's account holds its unused line: a credit balance against what loans receivable lent it.
  [accountCodes.card]: 'undrawnCardLines',
  [accountCodes.customerOwed]: 'overdrawnAccounts',
  [accountCodes.bankCapital]: 'bankCapital',
  [accountCodes.settlementAch]: 'settlementAch',
  [accountCodes.settlementWire]: 'settlementWire',
  [accountCodes.settlementCard]: 'settlementCard',
  [accountCodes.feesIncome]: 'feesIncome',
  [accountCodes.interestIncome]: 'interestIncome',
  [accountCodes.marketingExpense]: 'marketingExpense',
  [accountCodes.interestExpense]: 'interestExpense',
  [accountCodes.accountVerificationExpense]: 'accountVerificationExpense',
  [accountCodes.disputeLosses]: 'disputeLosses',
  [accountCodes.reconciliationDifferences]: 'reconciliationDifferences',
  [accountCodes.loansReceivable]: 'loansReceivable',
  [accountCodes.disputesSuspense]: 'disputesSuspense',
};

/** Whether a ledger account code has a place in the chart (a code added to the ledger without one fails chart.test.ts). */
export function isMappedCode(code: number): code is AccountCode {
  return Object.hasOwn(glAccountOfCode, code);
}

/**
 * The bank's own accounts finance staff may name in an adjusting entry (docs/books.md, "Adjusting
 * entries"): every operator account. Customers' accounts change only through their own features.
 */
export type AdjustableAccount = keyof typeof operatorAccounts;
export const adjustableAccounts = Object.keys(operatorAccounts) as AdjustableAccount[];

/** The virtual equity lines a balance sheet adds (income and expenses closed into equity at each year end, and this year's so far). */
export const virtualEquity = [glAccounts.retainedEarnings, glAccounts.currentYearEarnings] as const;
