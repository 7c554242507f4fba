import { z } from 'zod';
import { centsSchema } from './accounts.ts';
import { multiLineTextField, plainString, singleLineTextField } from './fields.ts';
import { validationMessages } from './messages.ts';
import { decisionReasonField } from './staff.ts';

/**
 * The bank's own books (issue 35; docs/books.md; PRODUCT.md section 7, "The bank's books"): the
 * general ledger's reports, closed business days, adjusting entries and the reconciliation of the
 * settlement bank's statements. Dates are the bank's business dates (YYYY-MM-DD). Every figure is
 * integer cents.
 */

export const glAccountTypes = ['asset', 'liability', 'equity', 'income', 'expense'] as const;
export const glAccountTypeSchema = z.enum(glAccountTypes);
export type GlAccountTypeName = z.infer<typeof glAccountTypeSchema>;

/** One general-ledger account of a report. A trial balance fills debitCents and creditCents (the net balance on its side, 0 on the other); the statements fill balanceCents (on the account's normal side; a contra account's is shown negative in its section). */
export const reportLineSchema = z.object({
  account: z.string(),
  name: z.string(),
  type: glAccountTypeSchema,
  debitCents: centsSchema.optional(),
  creditCents: centsSchema.optional(),
  balanceCents: centsSchema.optional(),
});
export type ReportLine = z.infer<typeof reportLineSchema>;

const isoDay = z.iso.date();

/** `GET /staff/reports/trial-balance?asOf=D`; `npm run ops -- trial-balance --as-of D`. */
export const trialBalanceSchema = z.object({
  report: z.literal('trial-balance'),
  asOf: isoDay,
  /** Whether asOf is a closed day (its figures never change); an open day's are provisional. */
  closed: z.boolean(),
  lines: z.array(reportLineSchema),
  totals: z.object({ debitCents: centsSchema, creditCents: centsSchema }),
  balanced: z.boolean(),
});
export type TrialBalance = z.infer<typeof trialBalanceSchema>;

export const reportSectionSchema = z.object({ lines: z.array(reportLineSchema), totalCents: centsSchema });

/** `GET /staff/reports/balance-sheet?asOf=D`; `npm run ops -- balance-sheet --as-of D`. */
export const balanceSheetSchema = z.object({
  report: z.literal('balance-sheet'),
  asOf: isoDay,
  closed: z.boolean(),
  /** Every line of the three sections, in order (balanceCents on each). */
  lines: z.array(reportLineSchema),
  assets: reportSectionSchema,
  liabilities: reportSectionSchema,
  equity: reportSectionSchema,
  totals: z.object({ assetsCents: centsSchema, liabilitiesCents: centsSchema, equityCents: centsSchema, liabilitiesAndEquityCents: centsSchema }),
  /** Assets = liabilities + equity. */
  balanced: z.boolean(),
  /** Customer deposits on the balance sheet against the sum of every customer account's balance as of that day, each computed its own way. */
  customerDeposits: z.object({ balanceSheetCents: centsSchema, customerAccountsCents: centsSchema, tied: z.boolean() }),
});
export type BalanceSheet = z.infer<typeof balanceSheetSchema>;

/** `GET /staff/reports/income-statement?from=D&to=D`; `npm run ops -- income-statement --from D --to D`. */
export const incomeStatementSchema = z.object({
  report: z.literal('income-statement'),
  from: isoDay,
  to: isoDay,
  /** Whether `to` is a closed day. */
  closed: z.boolean(),
  /** Income then expense lines, balanceCents = what the range added on the account's normal side. */
  lines: z.array(reportLineSchema),
  income: reportSectionSchema,
  expenses: reportSectionSchema,
  totals: z.object({ incomeCents: centsSchema, expensesCents: centsSchema, netIncomeCents: centsSchema }),
});
export type IncomeStatement = z.infer<typeof incomeStatementSchema>;

export const reportNames = ['trial-balance', 'balance-sheet', 'income-statement'] as const;
export type ReportName = (typeof reportNames)[number];
export const reportFormats = ['json', 'csv', 'pdf'] as const;

export const asOfQuerySchema = z.object({
  asOf: isoDay.optional(),
  format: z.enum(reportFormats).default('json'),
});
export const rangeQuerySchema = z.object({
  from: isoDay,
  to: isoDay,
  format: z.enum(reportFormats).default('json'),
});

/** `GET /staff/books/days`: the last closed day, the open day, and the days closed (newest first). */
export const closedDaySchema = z.object({
  day: isoDay,
  closedAt: z.iso.datetime(),
  closedBy: z.string(),
  debitsCents: centsSchema,
  creditsCents: centsSchema,
});
export const booksDaysResponseSchema = z.object({
  closedThrough: isoDay.nullable(),
  /** The earliest day a posting may still be booked on. */
  openDay: isoDay,
  days: z.array(closedDaySchema),
});
export type BooksDaysResponse = z.infer<typeof booksDaysResponseSchema>;

/** The bank's own accounts an adjusting entry may name (ledger/codes.ts operatorAccounts keys), with their general-ledger account. */
export const adjustableAccountSchema = z.object({ key: z.string(), name: z.string(), glAccount: z.string() });
/** `GET /staff/books/accounts`: the chart, and the accounts an adjusting entry may use. */
export const booksAccountsResponseSchema = z.object({
  chart: z.array(z.object({ account: z.string(), name: z.string(), type: glAccountTypeSchema, contra: z.boolean() })),
  adjustable: z.array(adjustableAccountSchema),
});
export type BooksAccountsResponse = z.infer<typeof booksAccountsResponseSchema>;

/** An adjusting entry of this amount or more waits for a second finance member's approval ($1,000.00). */
export const adjustmentFourEyesCents = 100_000;

/** `POST /staff/books/adjustments`: 201 posted, 202 awaiting a second approval; 422 business_day_closed for a closed postedOn. */
export const createAdjustmentRequestSchema = z.object({
  debitAccount: singleLineTextField(60, 'choose the account to debit'),
  creditAccount: singleLineTextField(60, 'choose the account to credit'),
  amountCents: z
    .number({ error: 'enter an amount' })
    .int('enter an amount in whole cents')
    .positive('enter an amount above zero')
    .max(100_000_000_000, 'enter at most $1,000,000,000.00'),
  reason: decisionReasonField,
  /** The open day it is booked on; absent: the open day when it posts. */
  postedOn: isoDay.optional(),
});
export type CreateAdjustmentRequest = z.input<typeof createAdjustmentRequestSchema>;

export const adjustmentStatuses = ['awaiting_approval', 'posted', 'rejected'] as const;
export const adjustmentSchema = z.object({
  id: z.string(),
  debitAccount: z.string(),
  creditAccount: z.string(),
  amountCents: centsSchema,
  /** The day it was booked on (posted), or asked for (null: the open day). */
  postedOn: isoDay.nullable(),
  reason: z.string(),
  status: z.enum(adjustmentStatuses),
  requestedBy: z.string(),
  /** The staff member's email, for the screens (requestedBy stays their id). */
  requestedByEmail: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decidedByEmail: z.string().nullable(),
  decisionReason: z.string().nullable(),
  exceptionId: z.string().nullable(),
  createdAt: z.iso.datetime(),
  decidedAt: z.iso.datetime().nullable(),
});
export type Adjustment = z.infer<typeof adjustmentSchema>;
export const adjustmentResponseSchema = z.object({ adjustment: adjustmentSchema });
export const adjustmentListResponseSchema = z.object({ items: z.array(adjustmentSchema), nextCursor: z.string().nullable() });

/** `POST /staff/books/adjustments/{id}/decision` `{ decision, reason }`: the same member who asked gets 403 four_eyes_required. */
export const adjustmentDecisionRequestSchema = z.object({
  decision: z.enum(['approve', 'reject'], { error: 'choose approve or reject' }),
  reason: decisionReasonField,
});

/** Reconciliation (issue 35 item 4). */
export const settlementAccountKeys = ['settlementAch', 'settlementWire', 'settlementCard'] as const;
export const settlementAccountKeySchema = z.enum(settlementAccountKeys);

/** `POST /staff/reconciliation/statements` `{ fileName, content, reason }` (the BAI2 text): 201, 409 already_imported, 400 with the line at fault. */
export const maxStatementChars = 2_000_000;
/** A BAI2 record is at most 80 characters in the files banks send; a 2 MB file of shorter records stays under this. */
export const maxStatementLines = 200_000;
/**
 * The file's text with its line breaks as line feeds (the console turns a file's CRLF into LF before
 * sending it, as JSON carries a textarea's breaks): a carriage return, like any other control
 * character, is refused as in every text field.
 */
export const importStatementRequestSchema = z.object({
  fileName: singleLineTextField(200, 'choose a file'),
  content: z
    .string()
    .regex(/^[^\r]*$/, validationMessages.hiddenCharacters)
    .pipe(multiLineTextField(maxStatementChars, maxStatementLines, 'the file is empty')),
  /** Why it is imported (an import matches, raises and resolves exceptions): kept in the audit log, as every staff action's. */
  reason: decisionReasonField,
});
/** A list's cursor, as the list gave it (opaque text without hidden characters). */
export const listCursorField = plainString().max(500, 'the cursor is not one this list gave').optional();
export const bankStatementSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  sender: z.string(),
  asOfDate: isoDay,
  lineCount: z.number().int(),
  matchedCount: z.number().int(),
  exceptionCount: z.number().int(),
  /** A staff member's id, or the system that imported it ('rail-simulator', 'ops-cli'). */
  importedBy: z.string(),
  /** The staff member's email; null when a system imported it. */
  importedByEmail: z.string().nullable(),
  importedAt: z.iso.datetime(),
});
export type BankStatement = z.infer<typeof bankStatementSchema>;
export const bankStatementResponseSchema = z.object({ statement: bankStatementSchema });
export const bankStatementListResponseSchema = z.object({ items: z.array(bankStatementSchema) });

export const exceptionKinds = ['unmatched_statement_line', 'unmatched_ledger_entry', 'amount_mismatch'] as const;
export const reconciliationExceptionSchema = z.object({
  id: z.string(),
  kind: z.enum(exceptionKinds),
  day: isoDay,
  settlementAccount: settlementAccountKeySchema,
  settlementAccountName: z.string(),
  /** From the bank account's side: credit = money in, debit = money out. */
  direction: z.enum(['credit', 'debit']),
  amountCents: centsSchema,
  statementLine: z
    .object({
      typeCode: z.string(),
      amountCents: centsSchema,
      bankReference: z.string().nullable(),
      customerReference: z.string().nullable(),
      text: z.string().nullable(),
    })
    .nullable(),
  ledgerTransfer: z.object({ id: z.string(), code: z.number().int(), description: z.string(), amountCents: centsSchema, postedOn: isoDay }).nullable(),
  status: z.enum(['open', 'resolved']),
  resolution: z.enum(['matched', 'adjusted']).nullable(),
  resolutionReason: z.string().nullable(),
  /** The staff member who resolved it, by id; null when a later statement matched it (the import). */
  resolvedBy: z.string().nullable(),
  resolvedByEmail: z.string().nullable(),
  resolvedAt: z.iso.datetime().nullable(),
  matchedExceptionId: z.string().nullable(),
  /** The adjusting entry asked for (it may await a second approval; the exception resolves when it posts). */
  adjustmentId: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type ReconciliationException = z.infer<typeof reconciliationExceptionSchema>;
export const exceptionListResponseSchema = z.object({ items: z.array(reconciliationExceptionSchema), nextCursor: z.string().nullable() });
export const exceptionResponseSchema = z.object({ exception: reconciliationExceptionSchema });

/**
 * `POST /staff/reconciliation/exceptions/{id}/resolve`: matched by hand with the other side's open
 * exception (a statement line with a ledger entry, same account, direction and amount), or adjusted
 * (an adjusting entry that brings the ledger's settlement account to what the bank says). 200
 * resolved; 202 when the adjustment awaits a second approval; 409 already_resolved.
 */
export const resolveExceptionRequestSchema = z.discriminatedUnion(
  'resolution',
  [
    z.object({ resolution: z.literal('matched'), matchWith: z.uuid({ error: 'choose the other side of the match' }), reason: decisionReasonField }),
    z.object({ resolution: z.literal('adjusted'), reason: decisionReasonField }),
  ],
  { error: 'choose matched or adjusted' },
);
export type ResolveExceptionRequest = z.input<typeof resolveExceptionRequestSchema>;
