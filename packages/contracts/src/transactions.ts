import { z } from 'zod';
import { centsSchema } from './accounts.ts';
import { paymentKindSchema, paymentStatusSchema } from './payments.ts';

/**
 * One line of a customer's history: one side of one payment, on one of their accounts. An own
 * transfer shows twice (out of one account, into the other).
 */
export const transactionCategorySchema = z.enum(['Transfer', 'Credit', 'Deposit', 'withdraw', 'Debit', 'Funding']);
export type TransactionCategory = z.infer<typeof transactionCategorySchema>;

export const transactionSchema = z.object({
  /** Unique per line: the transfer id and the side. */
  id: z.string(),
  /** The `transfer.id` that the request which created it answered. */
  transferId: z.string(),
  accountId: z.string(),
  kind: paymentKindSchema,
  status: paymentStatusSchema,
  /** Signed: money out is negative. */
  amountCents: centsSchema,
  description: z.string(),
  category: transactionCategorySchema,
  createdAt: z.iso.datetime(),
});
export type Transaction = z.infer<typeof transactionSchema>;

export const transactionPageSize = { default: 20, max: 100 } as const;

/** `GET /transactions?accountId=&cursor=&limit=` -> newest first. */
export const transactionListQuerySchema = z.object({
  accountId: z.uuid().optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(transactionPageSize.max).default(transactionPageSize.default),
});
export const transactionListSchema = z.object({ items: z.array(transactionSchema), nextCursor: z.string().nullable() });
export type TransactionList = z.infer<typeof transactionListSchema>;
