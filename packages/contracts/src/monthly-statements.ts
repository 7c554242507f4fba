import { z } from 'zod';
import { statementFormatSchema } from './transactions.ts';

/**
 * One account's statement for one cycle (a calendar month in the bank's time zone), written by the
 * end-of-day job at the cycle's end (issue 32 item 6). Money in integer cents; the APY earned in
 * basis points (Regulation DD, Appendix A, Part II): 123 is 1.23%.
 */
export const monthlyStatementSchema = z.object({
  id: z.uuid(),
  /** The first and the last day of the period, YYYY-MM-DD. */
  periodStart: z.iso.date(),
  periodEnd: z.iso.date(),
  openingBalanceCents: z.number().int(),
  closingBalanceCents: z.number().int(),
  interestCents: z.number().int().min(0),
  feesCents: z.number().int().min(0),
  apyEarnedBps: z.number().int().min(0),
  /** What happened to the monthly maintenance fee, and which waiver was met ("... waived: the balance stayed at or above $5,000.00 every day."); null without a fee. */
  feeNote: z.string().nullable(),
});
export type MonthlyStatement = z.infer<typeof monthlyStatementSchema>;

/** `GET /accounts/{id}/statements` -> the account's monthly statements, newest first. */
export const monthlyStatementListSchema = z.object({ items: z.array(monthlyStatementSchema) });
export type MonthlyStatementList = z.infer<typeof monthlyStatementListSchema>;

/** `GET /accounts/{id}/statements/{statementId}?format=pdf|csv|ofx` -> the file. */
export const monthlyStatementQuerySchema = z.object({ format: statementFormatSchema });
export type MonthlyStatementFormat = z.infer<typeof statementFormatSchema>;

/** What History says when an account has no monthly statement yet. */
export const noMonthlyStatementsText = 'No monthly statements yet: the first arrives after the end of this month';

/** An APY in basis points as Regulation DD prints it: a percentage with two decimals (123 -> "1.23%"). */
export function percentOfBps(bps: number): string {
  const whole = Math.trunc(bps / 100);
  const hundredths = String(bps % 100).padStart(2, '0');
  return `${whole}.${hundredths}%`;
}
