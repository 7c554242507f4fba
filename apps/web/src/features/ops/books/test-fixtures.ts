import type { Adjustment, BalanceSheet, BooksDaysResponse, IncomeStatement, TrialBalance } from '@strongroom/contracts/books.ts';
import type { FakeAnswer } from '../../../test/render-app.tsx';

export const ok = (body: unknown): FakeAnswer => ({ status: 200, body });

/** The books closed through Nov 27, 2026; Nov 28 is the open day. */
export function booksDays(overrides: Partial<BooksDaysResponse> = {}): BooksDaysResponse {
  return {
    closedThrough: '2026-11-27',
    openDay: '2026-11-28',
    days: [{ day: '2026-11-27', closedAt: '2026-11-28T05:00:00.000Z', closedBy: 'end-of-day', debitsCents: 1_250_000, creditsCents: 1_250_000 }],
    ...overrides,
  };
}

export function trialBalance(overrides: Partial<TrialBalance> = {}): TrialBalance {
  return {
    report: 'trial-balance',
    asOf: '2026-11-27',
    closed: true,
    lines: [
      { account: '1010', name: 'Settlement account: ACH (Federal Reserve)', type: 'asset', debitCents: 1_000_000, creditCents: 0 },
      { account: '2111', name: 'Customer deposits: Everyday Checking', type: 'liability', debitCents: 0, creditCents: 995_000 },
      { account: '4100', name: 'Fee income (less fees refunded)', type: 'income', debitCents: 0, creditCents: 5_000 },
    ],
    totals: { debitCents: 1_000_000, creditCents: 1_000_000 },
    balanced: true,
    ...overrides,
  };
}

export function balanceSheet(overrides: Partial<BalanceSheet> = {}): BalanceSheet {
  const assets = [{ account: '1010', name: 'Settlement account: ACH (Federal Reserve)', type: 'asset' as const, balanceCents: 1_000_000 }];
  const liabilities = [{ account: '2111', name: 'Customer deposits: Everyday Checking', type: 'liability' as const, balanceCents: 995_000 }];
  const equity = [
    { account: '3000', name: 'Capital', type: 'equity' as const, balanceCents: 0 },
    { account: '3200', name: 'Net income, current year', type: 'equity' as const, balanceCents: 5_000 },
  ];
  return {
    report: 'balance-sheet',
    asOf: '2026-11-27',
    closed: true,
    lines: [...assets, ...liabilities, ...equity],
    assets: { lines: assets, totalCents: 1_000_000 },
    liabilities: { lines: liabilities, totalCents: 995_000 },
    equity: { lines: equity, totalCents: 5_000 },
    totals: { assetsCents: 1_000_000, liabilitiesCents: 995_000, equityCents: 5_000, liabilitiesAndEquityCents: 1_000_000 },
    balanced: true,
    customerDeposits: { balanceSheetCents: 995_000, customerAccountsCents: 995_000, tied: true },
    ...overrides,
  };
}

export function incomeStatement(overrides: Partial<IncomeStatement> = {}): IncomeStatement {
  const income = [{ account: '4100', name: 'Fee income (less fees refunded)', type: 'income' as const, balanceCents: 7_500 }];
  const expenses = [{ account: '5000', name: 'Interest expense on deposits', type: 'expense' as const, balanceCents: 2_500 }];
  return {
    report: 'income-statement',
    from: '2026-11-01',
    to: '2026-11-27',
    closed: true,
    lines: [...income, ...expenses],
    income: { lines: income, totalCents: 7_500 },
    expenses: { lines: expenses, totalCents: 2_500 },
    totals: { incomeCents: 7_500, expensesCents: 2_500, netIncomeCents: 5_000 },
    ...overrides,
  };
}

export const booksAccounts = {
  chart: [],
  adjustable: [
    { key: 'settlementAch', name: 'Settlement account: ACH', glAccount: '1010' },
    { key: 'reconciliationDifferences', name: 'Reconciliation differences', glAccount: '5400' },
    { key: 'feesIncome', name: 'Fees income', glAccount: '4100' },
  ],
};

export function adjustment(overrides: Partial<Adjustment> = {}): Adjustment {
  return {
    id: '00000000-0000-4000-8000-0000000ad001',
    debitAccount: 'settlementAch',
    creditAccount: 'reconciliationDifferences',
    amountCents: 1_234,
    postedOn: '2026-11-28',
    reason: 'Bank fee missing from the ledger',
    status: 'posted',
    requestedBy: '00000000-0000-4000-8000-00000000f001',
    requestedByEmail: 'finance.one@bank.test',
    decidedBy: null,
    decidedByEmail: null,
    decisionReason: null,
    exceptionId: null,
    createdAt: '2026-11-28T10:00:00.000Z',
    decidedAt: null,
    ...overrides,
  };
}
