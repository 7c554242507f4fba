import { z } from 'zod';

/** Money crosses the wire as integer cents in JSON numbers: exact up to 2^53 cents. */
export const centsSchema = z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

export const accountTypeSchema = z.enum(['checking', 'savings']);

/** `GET /api/v1/accounts` (docs/product.md section 5). Balances are derived from the ledger (D8). */
export const accountSchema = z.object({
  id: z.string(),
  type: accountTypeSchema,
  number: z.string(),
  name: z.string(),
  /** Below zero only when a deposit another bank returned after it cleared had already been spent. */
  balanceCents: centsSchema,
  availableCents: centsSchema,
  status: z.enum(['active', 'inactive']),
  /** Deposits from other banks on their way in: not in the balance, not available until they clear. */
  pendingDepositsCents: centsSchema,
  /** When the last of those is expected to be available; null when none is pending or no date is known. */
  pendingDepositsAvailableAt: z.iso.datetime().nullable(),
});
export type Account = z.infer<typeof accountSchema>;

export const accountListSchema = z.array(accountSchema);
