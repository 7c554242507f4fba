import { z } from 'zod';
import cardValidator from 'card-validator';
import { centsSchema } from './accounts.ts';
import { textField } from './fields.ts';
import { validationMessages } from './messages.ts';
import { isValidRoutingNumber, maxPaymentCents } from './money-input.ts';

/**
 * Money movement on the wire (PRODUCT.md section 5): transfers, deposits and withdrawals, and the
 * one shape they all answer with. Amounts are integer cents; the web converts what a person typed
 * with parseDollarsToCents (money-input.ts) and sends the same numbers the server checks here.
 */

export const paymentAmountCentsSchema = z
  .number({ error: validationMessages.amountInvalid })
  .refine(Number.isInteger, validationMessages.amountFractionalCent)
  .refine((cents) => cents > 0, validationMessages.amountNotPositive)
  .refine((cents) => cents <= maxPaymentCents, validationMessages.amountTooLarge);

/** This bank's account numbers: ten digits (see the accounts module). Other banks': 4 to 17 digits. */
export const accountNumberField = z
  .string()
  .trim()
  .min(1, validationMessages.required)
  .regex(/^\d{4,17}$/, validationMessages.accountNumberInvalid);
export const routeNumberField = z.string().trim().min(1, validationMessages.required).refine(isValidRoutingNumber, validationMessages.routeNumberInvalid);

/** Length by the detected card type (15 Amex, 14 Diners, up to 19 Visa/Mastercard) and the Luhn check. */
export const cardNumberField = z
  .string()
  .transform((value) => value.replace(/[\s-]/g, ''))
  .refine((digits) => /^\d{12,19}$/.test(digits) && cardValidator.number(digits).isValid, validationMessages.cardNumberInvalid);

/** A payment's message: the recipient sees it, so it is short. */
export const paymentMessageMaxLength = 140;
export const paymentMessageField = textField(paymentMessageMaxLength);
export const personNameField = textField(100);

export const transferKindSchema = z.enum(['own', 'internal', 'external', 'card']);
export type TransferKind = z.infer<typeof transferKindSchema>;

/** Every kind of payment a customer sees; `funding` is an opening deposit made by the bank (ops, sandbox). */
/** `loan_disbursement` is an approved loan paid into checking; `loan_repayment` an instalment or an early repayment out of it. */
/** `referral_bonus` is the bank's $10.00 to a customer whose friend's identity was approved (issue 15). */
export const paymentKindSchema = z.enum([
  'own',
  'internal',
  'external',
  'card',
  'deposit',
  'withdrawal',
  'funding',
  'loan_disbursement',
  'loan_repayment',
  'referral_bonus',
]);
export type PaymentKind = z.infer<typeof paymentKindSchema>;

/** completed; pending (settling at a rail); in_review (held, D1); rejected (by staff); returned (by the rail). */
export const paymentStatusSchema = z.enum(['completed', 'pending', 'in_review', 'rejected', 'returned']);
export type PaymentStatus = z.infer<typeof paymentStatusSchema>;

const transferBase = {
  fromAccountId: z.uuid({ error: validationMessages.required }),
  amountCents: paymentAmountCentsSchema,
  message: paymentMessageField,
};

export const ownTransferRequestSchema = z.object({
  kind: z.literal('own'),
  ...transferBase,
  toAccountId: z.uuid({ error: validationMessages.required }),
});

export const internalTransferRequestSchema = z.object({
  kind: z.literal('internal'),
  ...transferBase,
  toAccountNumber: accountNumberField,
  accountName: personNameField,
  addToFavorites: z.boolean().default(false),
});

export const externalTransferRequestSchema = z.object({
  kind: z.literal('external'),
  ...transferBase,
  toAccountNumber: accountNumberField,
  accountName: personNameField,
  routeNumber: routeNumberField,
  nameOfBank: textField(100),
  nameOfCountry: textField(80),
  addToFavorites: z.boolean().default(false),
});

export const cardTransferRequestSchema = z.object({
  kind: z.literal('card'),
  ...transferBase,
  cardNumber: cardNumberField,
  accountName: personNameField,
});

/** `POST /transfers` with header Idempotency-Key. */
export const createTransferRequestSchema = z.discriminatedUnion('kind', [
  ownTransferRequestSchema,
  internalTransferRequestSchema,
  externalTransferRequestSchema,
  cardTransferRequestSchema,
]);
export type CreateTransferRequest = z.input<typeof createTransferRequestSchema>;

/** `POST /deposits` with header Idempotency-Key. */
export const createDepositRequestSchema = z.object({
  accountId: z.uuid({ error: validationMessages.required }),
  /**
   * The verified account at another bank the money is pulled from (an ACH debit). Left out, the
   * deposit is refused with 409 `no_funding_source`, as is one that is not this customer's.
   */
  fundingSourceId: z.uuid({ error: validationMessages.required }).optional(),
  amountCents: paymentAmountCentsSchema,
  reason: textField(140),
});
export type CreateDepositRequest = z.input<typeof createDepositRequestSchema>;

/** `POST /withdrawals` with header Idempotency-Key: the seed's nine required fields. */
export const createWithdrawalRequestSchema = z.object({
  fromAccountId: z.uuid({ error: validationMessages.required }),
  amountCents: paymentAmountCentsSchema,
  country: textField(80),
  nameOfBank: textField(100),
  accountName: personNameField,
  accountNumber: accountNumberField,
  stateName: textField(80),
  bankAddress: textField(200),
  routeNumber: routeNumberField,
});
export type CreateWithdrawalRequest = z.input<typeof createWithdrawalRequestSchema>;

/** Who is on the other side of a payment, as far as the customer who sees it may know. */
export const counterpartySchema = z.object({
  name: z.string(),
  /** In full for an account the customer typed or owns; masked (••••1234) for a card. */
  accountNumber: z.string().nullable(),
  bankName: z.string().nullable(),
  routeNumber: z.string().nullable(),
  country: z.string().nullable(),
});

export const paymentSchema = z.object({
  id: z.string(),
  kind: paymentKindSchema,
  status: paymentStatusSchema,
  amountCents: centsSchema,
  fromAccountId: z.string().nullable(),
  toAccountId: z.string().nullable(),
  counterparty: counterpartySchema,
  message: z.string(),
  /** Why it was rejected or returned; null otherwise. */
  statusReason: z.string().nullable(),
  /** For a pending payment: when the rail is expected to settle it. */
  expectedSettlementAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type Payment = z.infer<typeof paymentSchema>;

/** `GET /transfers?status=in_review|pending` -> the customer's payments in that state, newest first. */
export const paymentListSchema = z.object({ items: z.array(paymentSchema) });

/** What `POST /transfers`, `/deposits` and `/withdrawals` answer (201, and the same again on a replay). */
export const paymentResponseSchema = z.object({ transfer: paymentSchema });
export type PaymentResponse = z.infer<typeof paymentResponseSchema>;

/**
 * `POST /transfers/payee-check`: before an internal transfer, does the name match the account
 * number (Confirmation of Payee)? A close match tells the name on the account, as UK banks do, so
 * the customer can correct a typo; no match tells nothing more, not even whether the number
 * exists: a number that no open account has answers `no_match` too.
 */
export const payeeCheckRequestSchema = z.object({
  accountNumber: accountNumberField,
  accountName: personNameField,
});
export const payeeCheckResponseSchema = z.object({
  result: z.enum(['match', 'close_match', 'no_match']),
  accountName: z.string().optional(),
});
export type PayeeCheckResponse = z.infer<typeof payeeCheckResponseSchema>;

/** The header every money-moving POST carries; the web makes one per submission and reuses it on retry. */
export const idempotencyKeyHeader = 'idempotency-key';
export const idempotencyKeySchema = z.string().regex(/^[A-Za-z0-9_-]{8,100}$/, 'Idempotency-Key must be 8-100 letters, digits, - or _');
/** The header that names a completed step-up challenge when a request is repeated. */
export const stepUpHeader = 'x-step-up';
