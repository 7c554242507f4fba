import { z } from 'zod';
import { plainString } from '@strongroom/contracts/fields.ts';

/**
 * The resource API's answers in FDX 6's shapes and field names (FDX API 6: AccountDescriptor,
 * DepositAccount, DepositTransaction, Statement, AccountContact, PaginatedArray, Error;
 * docs/connected-apps.md, "Resource API"). FDX 6 sets an account's or a transaction's kind in its
 * `accountCategory` field, where FDX 5 wrapped it in an object (`{ depositAccount: {...} }`). Every
 * route answers through these schemas, so a field not declared here can never leave the bank.
 */

export const fdxErrorSchema = z.object({ code: z.number().int(), message: z.string(), debugMessage: z.string().optional() });

const hateoasLinkSchema = z.object({
  href: z.string(),
  rel: z.string().optional(),
  action: z.enum(['GET']).optional(),
  types: z.array(z.string()).optional(),
});

/** PaginatedArray: `page.nextOffset` and `links.next.href` are present only while another page follows. */
const pagedSchema = {
  page: z.object({ nextOffset: z.string().optional(), totalElements: z.number().int().optional() }),
  links: z.object({ next: hateoasLinkSchema.optional() }),
};

export const accountStatusSchema = z.enum(['OPEN', 'RESTRICTED', 'CLOSED']);

export const depositAccountDescriptorSchema = z.object({
  accountCategory: z.literal('DEPOSIT_ACCOUNT'),
  accountId: z.string(),
  accountType: z.enum(['CHECKING', 'SAVINGS']),
  /** The last four digits of the account number: the customer's handle, never the number itself. */
  accountNumberDisplay: z.string(),
  productName: z.string(),
  nickname: z.string(),
  status: accountStatusSchema,
  currency: z.object({ currencyCode: z.literal('USD') }),
});
export type DepositAccountDescriptor = z.infer<typeof depositAccountDescriptorSchema>;

export const accountListSchema = z.object({ ...pagedSchema, accounts: z.array(depositAccountDescriptorSchema) });

export const depositAccountSchema = depositAccountDescriptorSchema.extend({
  balanceType: z.literal('ASSET'),
  balanceAsOf: z.iso.datetime(),
  currentBalance: z.number(),
  availableBalance: z.number(),
  /** Percent, e.g. 4.25 for 4.25%. */
  interestRate: z.number(),
  interestRateType: z.literal('VARIABLE'),
  annualPercentageYield: z.number(),
  interestYtd: z.number(),
});
export type DepositAccount = z.infer<typeof depositAccountSchema>;

export const depositTransactionTypes = ['ADJUSTMENT', 'BILLPAYMENT', 'DEPOSIT', 'FEE', 'INTEREST', 'POSCREDIT', 'POSDEBIT', 'TRANSFER', 'WITHDRAWAL'] as const;

export const depositTransactionSchema = z.object({
  accountCategory: z.literal('DEPOSIT_ACCOUNT'),
  accountId: z.string(),
  transactionId: z.string(),
  postedTimestamp: z.iso.datetime().optional(),
  transactionTimestamp: z.iso.datetime(),
  description: z.string(),
  debitCreditMemo: z.enum(['DEBIT', 'CREDIT']),
  status: z.enum(['PENDING', 'POSTED']),
  /** Absolute: `debitCreditMemo` says which way the money went. */
  amount: z.number().nonnegative(),
  transactionType: z.enum(depositTransactionTypes),
  payee: z.string().max(255).optional(),
  category: z.string().optional(),
});
export type DepositTransaction = z.infer<typeof depositTransactionSchema>;

export const transactionListSchema = z.object({ ...pagedSchema, transactions: z.array(depositTransactionSchema) });

export const statementSchema = z.object({
  accountId: z.string(),
  statementId: z.string(),
  statementDate: z.iso.date(),
  description: z.string(),
  links: z.array(hateoasLinkSchema),
  status: z.literal('AVAILABLE'),
});
export type FdxStatement = z.infer<typeof statementSchema>;

export const statementListSchema = z.object({ ...pagedSchema, statements: z.array(statementSchema) });

export const accountContactSchema = z.object({
  holders: z.array(
    z.object({
      relationship: z.literal('SOLE_OWNER'),
      name: z.object({ first: z.string(), last: z.string() }),
    }),
  ),
  emails: z.array(z.string()),
  addresses: z.array(
    z.object({
      line1: z.string(),
      line2: z.string().optional(),
      city: z.string(),
      region: z.string(),
      postalCode: z.string(),
      country: z.string(),
    }),
  ),
  telephones: z.array(z.object({ type: z.literal('PERSONAL'), country: z.string(), number: z.string() })),
});
export type AccountContact = z.infer<typeof accountContactSchema>;

/** `offset` and `limit` (FDX paging: the offset is opaque), `startTime` and `endTime` (FDX DateStrings, YYYY-MM-DD). */
export const pageQuerySchema = z.object({
  offset: plainString().max(200).optional(),
  limit: plainString().max(10).optional(),
});
export const dateRangeQuerySchema = pageQuerySchema.extend({
  startTime: plainString().max(40).optional(),
  endTime: plainString().max(40).optional(),
});
export const accountParamsSchema = z.object({ accountId: plainString().max(256) });
export const statementParamsSchema = accountParamsSchema.extend({ statementId: plainString().max(256) });
