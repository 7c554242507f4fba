import { z } from 'zod';
import cardValidator from 'card-validator';
import { centsSchema } from './accounts.ts';
import { countryField } from './countries.ts';
import { plainString, textField } from './fields.ts';
import { validationMessages } from './messages.ts';
import { isValidRoutingNumber, maxPaymentCents } from './money-input.ts';

/**
 * Money movement on the wire (docs/product.md section 5): transfers, deposits and withdrawals, and the
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
/**
 * A SWIFT/BIC code: bank (4 letters), country (2 letters), place (2) and an optional branch (3).
 * No US routing number (9 digits) looks like one.
 */
export function looksLikeSwiftCode(value: string): boolean {
  return /^[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/i.test(value.replace(/\s/g, ''));
}

/** A US routing number (ABA check digit); a SWIFT code gets its own message: this bank pays inside the US only. */
export const routeNumberField = z
  .string()
  .trim()
  .min(1, validationMessages.required)
  .refine((value) => !looksLikeSwiftCode(value), { message: validationMessages.routeNumberIsSwift, abort: true })
  .refine(isValidRoutingNumber, validationMessages.routeNumberInvalid);

/** Length by the detected card type (15 Amex, 14 Diners, up to 19 Visa/Mastercard) and the Luhn check. */
export const cardNumberField = z
  .string()
  .transform((value) => value.replace(/[\s-]/g, ''))
  .refine((digits) => /^\d{12,19}$/.test(digits) && cardValidator.number(digits).isValid, validationMessages.cardNumberInvalid);

/** A payment's message: the recipient sees it, so it is short. */
export const paymentMessageMaxLength = 140;
export const paymentMessageField = textField(paymentMessageMaxLength);
export const personNameField = textField(100);

export const transferKindSchema = z.enum(['own', 'internal', 'external', 'card', 'bill']);
export type TransferKind = z.infer<typeof transferKindSchema>;

/** Every kind of payment a customer sees; `funding` is an opening deposit made by the bank (ops, sandbox). */
/** `loan_disbursement` is an approved loan paid into checking; `loan_repayment` an instalment or an early repayment out of it. */
/** `referral_bonus` is the bank's $10.00 to a customer whose friend's identity was approved (issue 15). */
/** `interest` is a cycle's interest paid into a deposit account; `fee` a monthly maintenance fee; `fee_refund` a fee staff gave back (issue 32). */
/** `bill` is a bill payment to a biller of Bill Pay's directory, through the ACH rail (issue 33). */
/** `dispute_credit` is a dispute's credit (provisional, or final when the bank decides for the customer); `dispute_reversal` a provisional credit taken back after a denial (issue 34). */
export const paymentKindSchema = z.enum([
  'own',
  'internal',
  'external',
  'card',
  'bill',
  'deposit',
  'withdrawal',
  'funding',
  'loan_disbursement',
  'loan_repayment',
  'referral_bonus',
  'interest',
  'fee',
  'fee_refund',
  'dispute_credit',
  'dispute_reversal',
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

/** Between the customer's own accounts nobody else reads the message: it may be left empty (still at most 140 characters). */
export const optionalPaymentMessageField = plainString().trim().max(paymentMessageMaxLength, validationMessages.tooLong).default('');

export const ownTransferRequestSchema = z.object({
  kind: z.literal('own'),
  ...transferBase,
  message: optionalPaymentMessageField,
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
  nameOfCountry: countryField,
  addToFavorites: z.boolean().default(false),
});

export const cardTransferRequestSchema = z.object({
  kind: z.literal('card'),
  ...transferBase,
  cardNumber: cardNumberField,
  accountName: personNameField,
});

/**
 * A bill to one of the customer's bill payees (`POST /bill-payees`): the biller and the customer's
 * account number there come from the payee. The message is optional (a memo the biller may see).
 */
export const billTransferRequestSchema = z.object({
  kind: z.literal('bill'),
  ...transferBase,
  message: optionalPaymentMessageField,
  billPayeeId: z.uuid({ error: validationMessages.required }),
});

/** `POST /transfers` with header Idempotency-Key. */
export const createTransferRequestSchema = z.discriminatedUnion('kind', [
  ownTransferRequestSchema,
  internalTransferRequestSchema,
  externalTransferRequestSchema,
  cardTransferRequestSchema,
  billTransferRequestSchema,
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

/** The seed's seven fields that describe an outside account typed by hand. */
export const typedWithdrawalAccountFields = {
  country: countryField,
  nameOfBank: textField(100),
  accountName: personNameField,
  accountNumber: accountNumberField,
  stateName: textField(80),
  bankAddress: textField(200),
  routeNumber: routeNumberField,
};
const typedWithdrawalFieldNames = Object.keys(typedWithdrawalAccountFields) as (keyof typeof typedWithdrawalAccountFields)[];

export const withdrawalMessages = {
  sourceOrTyped: 'choose one of your linked banks or type an account, not both',
} as const;

/**
 * `POST /withdrawals` with header Idempotency-Key: to one of the customer's verified linked banks
 * (`fundingSourceId`, the accounts deposits come from), or to an account typed by hand with the
 * seed's fields, all required then (decision 060). A linked bank that is not this customer's, or not
 * verified, is refused with 409 `no_funding_source`, as a deposit is.
 */
export const createWithdrawalRequestSchema = z
  .object({
    fromAccountId: z.uuid({ error: validationMessages.required }),
    amountCents: paymentAmountCentsSchema,
    fundingSourceId: z.uuid({ error: validationMessages.required }).optional(),
    country: typedWithdrawalAccountFields.country.optional(),
    nameOfBank: typedWithdrawalAccountFields.nameOfBank.optional(),
    accountName: typedWithdrawalAccountFields.accountName.optional(),
    accountNumber: typedWithdrawalAccountFields.accountNumber.optional(),
    stateName: typedWithdrawalAccountFields.stateName.optional(),
    bankAddress: typedWithdrawalAccountFields.bankAddress.optional(),
    routeNumber: typedWithdrawalAccountFields.routeNumber.optional(),
  })
  .superRefine((body, context) => {
    const typed = typedWithdrawalFieldNames.filter((name) => body[name] !== undefined);
    if (body.fundingSourceId !== undefined) {
      if (typed.length > 0) context.addIssue({ code: 'custom', path: ['fundingSourceId'], message: withdrawalMessages.sourceOrTyped });
      return;
    }
    for (const name of typedWithdrawalFieldNames) {
      if (body[name] === undefined) context.addIssue({ code: 'custom', path: [name], message: validationMessages.required });
    }
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
