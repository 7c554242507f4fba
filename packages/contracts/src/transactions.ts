import { z } from 'zod';
import { centsSchema } from './accounts.ts';
import { plainString } from './fields.ts';
import { paymentKindSchema, paymentStatusSchema } from './payments.ts';

/**
 * One line of a customer's history: one side of one payment, on one of their accounts. An own
 * transfer shows twice (out of one account, into the other).
 */
/**
 * The seed's categories, with its lower-case 'withdraw' written 'Withdrawal' like the others (issue 18).
 * A saved link or script that still asks for `category=withdraw` is read as 'Withdrawal'.
 */
export const transactionCategorySchema = z.enum(['Transfer', 'Credit', 'Deposit', 'Withdrawal', 'Debit', 'Funding', 'Interest', 'Fee']);
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
  /**
   * Who the line was with, as its heading names them ("To Grace Landlord", "From Ada Lovelace",
   * "Credit card payment"); null when the description names them already (a card purchase's
   * merchant) or the other party is the bank. Shown before the description (history-line.ts, `lineHeading`).
   */
  party: z.string().nullable().optional(),
  category: transactionCategorySchema,
  createdAt: z.iso.datetime(),
});
export type Transaction = z.infer<typeof transactionSchema>;

export const transactionPageSize = { default: 20, max: 100 } as const;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'use the form YYYY-MM-DD');

/**
 * `GET /transactions?accountId=&from=&to=&category=&q=&cursor=&limit=` -> newest first. `from` and
 * `to` are inclusive calendar dates in the bank's time zone; `q` searches descriptions (case
 * insensitive); the cursor is opaque and only valid with the same filters.
 */
export const transactionListQuerySchema = z.object({
  accountId: z.uuid().optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  category: z.preprocess((value) => (value === 'withdraw' ? 'Withdrawal' : value), transactionCategorySchema.optional()),
  q: plainString().trim().max(100).optional(),
  cursor: plainString().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(transactionPageSize.max).default(transactionPageSize.default),
});
export type TransactionListQuery = z.input<typeof transactionListQuerySchema>;
export const transactionListSchema = z.object({ items: z.array(transactionSchema), nextCursor: z.string().nullable() });
export type TransactionList = z.infer<typeof transactionListSchema>;

/** `/transactions/{id}` and its receipt: a line id is a payment id and a side; anything longer is not one. */
export const lineIdParamsSchema = z.object({ id: z.string().max(64) });

/**
 * `GET /transactions/{id}` (id = a line's id) -> the Details dialog: the seed's transfer detail
 * (amount, dateOfTransfer, accountNumber, accountName, routeNumber, reason, medium) or deposit
 * detail (depositId, dateOfDeposit, amount, status), plus the receipt's reference.
 */
export const transactionDetailSchema = z.object({
  transaction: transactionSchema,
  /** The customer's own account the line is on. */
  account: z.object({ id: z.string(), type: z.string(), number: z.string() }),
  counterparty: z.object({
    name: z.string(),
    accountNumber: z.string().nullable(),
    routeNumber: z.string().nullable(),
    bankName: z.string().nullable(),
  }),
  reason: z.string(),
  /** How the money moved: 'Own account', 'Within the bank', 'ACH', 'Wire', 'Card', 'Deposit (ACH)', 'Opening deposit'. */
  medium: z.string(),
  /** Why it was rejected or returned; null otherwise. */
  statusReason: z.string().nullable(),
  /** Printed on the receipt and behind its QR code: `/receipts/verify/{reference}`. */
  receiptReference: z.string(),
});
export type TransactionDetail = z.infer<typeof transactionDetailSchema>;

/**
 * `GET /receipts/verify/{reference}` (public, no sign-in): confirms a receipt is genuine and shows
 * only what is printed on it already, with accounts masked.
 */
export const receiptVerificationSchema = z.object({
  reference: z.string(),
  genuine: z.literal(true),
  amountCents: centsSchema,
  status: paymentStatusSchema,
  date: z.iso.datetime(),
  kind: paymentKindSchema,
  /** Masked, such as ••••1234. */
  fromAccount: z.string().nullable(),
  toAccount: z.string().nullable(),
});
export type ReceiptVerification = z.infer<typeof receiptVerificationSchema>;

export const statementFormatSchema = z.enum(['pdf', 'csv', 'ofx']);

/** The longest statement period, inclusive: a year (a leap year has 366 days), never a lifetime. */
export const statementMaxDays = 366;

/** How many months back the statement picker offers by name; older periods are a date range away. */
export const statementMonthsOffered = 24;

/**
 * `GET /accounts/{id}/statement/months` -> the months the statement picker offers, YYYY-MM, newest
 * first: this month back to the month the account opened, in the bank's time zone, and at most
 * `statementMonthsOffered` of them. Never a month before the account existed.
 */
export const statementMonthsSchema = z.object({ months: z.array(z.string().regex(/^\d{4}-\d{2}$/)) });
export type StatementMonths = z.infer<typeof statementMonthsSchema>;

/** `GET /accounts/{id}/statement?from=&to=&format=` (docs/product.md section 5): completed entries only. */
export const statementQuerySchema = z.object({
  from: isoDate,
  to: isoDate,
  format: statementFormatSchema,
});
