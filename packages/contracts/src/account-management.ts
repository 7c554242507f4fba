import { z } from 'zod';
import { accountTypeSchema, centsSchema } from './accounts.ts';
import { maxPaymentCents } from './money-input.ts';
import { validationMessages } from './messages.ts';
import { decisionReasonField } from './staff.ts';

/**
 * Opening, closing and changing deposit accounts (docs/product.md section 7, issue 32 item 2): the
 * customer's own requests and the staff's, which add a reason. Shared by the routes and the forms.
 */
export const accountManagementMessages = {
  acceptDisclosure: 'accept the disclosure to open the account',
  disclosureGiven: 'confirm the customer was given the disclosure and accepted it',
  chooseSource: 'choose the account or the linked bank the opening deposit comes from',
  oneSource: 'choose one of your accounts or one linked bank, not both',
  openingDepositInvalid: 'enter the opening deposit in whole cents, zero or more',
  chooseProduct: 'choose an account type',
  chooseDestination: 'choose the account the balance goes to',
} as const;

export const openingDepositCentsSchema = z
  .number({ error: accountManagementMessages.openingDepositInvalid })
  .int(accountManagementMessages.openingDepositInvalid)
  .min(0, accountManagementMessages.openingDepositInvalid)
  .max(maxPaymentCents, validationMessages.amountTooLarge);

const sourceFields = {
  productId: z.uuid({ error: accountManagementMessages.chooseProduct }),
  /** One of the customer's own open accounts: the deposit moves at once, as an own transfer. */
  fromAccountId: z.uuid({ error: accountManagementMessages.chooseSource }).optional(),
  /** A verified account at another bank: the deposit is an ACH pull, pending until it clears. */
  fundingSourceId: z.uuid({ error: accountManagementMessages.chooseSource }).optional(),
  openingDepositCents: openingDepositCentsSchema,
};

/** Exactly one source when money moves; none is needed for an opening deposit of zero. */
function checkSource(
  body: { fromAccountId?: string | undefined; fundingSourceId?: string | undefined; openingDepositCents: number },
  context: z.RefinementCtx,
) {
  if (body.fromAccountId && body.fundingSourceId) {
    context.addIssue({ code: 'custom', path: ['fromAccountId'], message: accountManagementMessages.oneSource });
  } else if (!body.fromAccountId && !body.fundingSourceId && body.openingDepositCents > 0) {
    context.addIssue({ code: 'custom', path: ['fromAccountId'], message: accountManagementMessages.chooseSource });
  }
}

/** `POST /accounts` (Idempotency-Key): the Truth in Savings disclosure must have been accepted. */
export const openAccountRequestSchema = z
  .object({
    ...sourceFields,
    acceptDisclosure: z.literal(true, { error: accountManagementMessages.acceptDisclosure }),
  })
  .superRefine(checkSource);
export type OpenAccountRequest = z.input<typeof openAccountRequestSchema>;

/** `POST /staff/customers/{id}/accounts`: the customer was given the disclosure in person and accepted it. */
export const staffOpenAccountRequestSchema = z
  .object({
    ...sourceFields,
    disclosureGiven: z.literal(true, { error: accountManagementMessages.disclosureGiven }),
    reason: decisionReasonField,
  })
  .superRefine(checkSource);
export type StaffOpenAccountRequest = z.input<typeof staffOpenAccountRequestSchema>;

/** `POST /accounts/{id}/close`: the whole balance (with the interest accrued and not yet paid) goes to `toAccountId`. */
export const closeAccountRequestSchema = z.object({ toAccountId: z.uuid({ error: accountManagementMessages.chooseDestination }) });
export type CloseAccountRequest = z.input<typeof closeAccountRequestSchema>;
export const staffCloseAccountRequestSchema = closeAccountRequestSchema.extend({ reason: decisionReasonField });
export type StaffCloseAccountRequest = z.input<typeof staffCloseAccountRequestSchema>;

/** `PUT /accounts/{id}/product`: another checking tier for a checking account. */
export const changeProductRequestSchema = z.object({ productId: z.uuid({ error: accountManagementMessages.chooseProduct }) });
export type ChangeProductRequest = z.input<typeof changeProductRequestSchema>;
export const staffChangeProductRequestSchema = changeProductRequestSchema.extend({ reason: decisionReasonField });
export type StaffChangeProductRequest = z.input<typeof staffChangeProductRequestSchema>;

/** An account as these requests answer it: balances from the ledger, `closed` once closed. */
export const managedAccountSchema = z.object({
  id: z.string(),
  type: accountTypeSchema,
  number: z.string(),
  name: z.string(),
  productId: z.string(),
  productName: z.string(),
  status: z.enum(['open', 'closed']),
  balanceCents: centsSchema,
  availableCents: centsSchema,
  openedAt: z.iso.datetime(),
  closedAt: z.iso.datetime().nullable(),
});
export type ManagedAccount = z.infer<typeof managedAccountSchema>;

export const managedAccountResponseSchema = z.object({ account: managedAccountSchema });
export type ManagedAccountResponse = z.infer<typeof managedAccountResponseSchema>;
