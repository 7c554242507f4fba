import { z } from 'zod';
import { centsSchema } from './accounts.ts';
import { transactionSchema } from './transactions.ts';

/**
 * Where money went this month (D13): completed payments out of the customer's accounts, by category.
 * Paying a credit card of this bank and repaying a loan pay a debt the customer already counted
 * when they spent or borrowed, so they are kept apart from spending with a card.
 */
export const spendingCategorySchema = z.enum(['Transfers', 'Card payments', 'Withdrawals', 'Other', 'Loan repayments', 'Credit card payments', 'Fees']);
export type SpendingCategory = z.infer<typeof spendingCategorySchema>;

/**
 * `GET /dashboard` -> figures for the current month in the bank's time zone, all from the ledger
 * (D8). Transfers between the customer's own accounts are neither money in nor money out.
 */
export const dashboardSummarySchema = z.object({
  /** The month the figures cover, YYYY-MM. */
  month: z.string().regex(/^\d{4}-\d{2}$/),
  moneyInCents: centsSchema,
  moneyOutCents: centsSchema,
  spendingByCategory: z.array(z.object({ category: spendingCategorySchema, amountCents: centsSchema })),
  cardCount: z.number().int().min(0),
  loanCount: z.number().int().min(0),
  recentTransactions: z.array(transactionSchema),
  /**
   * Interest earned in the bank's current month and year, all accounts: interest paid into them in
   * the period, plus what accrued in it and is not paid yet (whole cents, account by account).
   */
  interestEarnedCents: centsSchema,
  interestEarnedYearCents: centsSchema,
  /** Fees charged in the bank's current month and year, less the fees refunded in the same period (below zero when a refund outweighs them). */
  feesPaidCents: centsSchema,
  feesPaidYearCents: centsSchema,
});
export type DashboardSummary = z.infer<typeof dashboardSummarySchema>;
