import { z } from 'zod';
import { accountTypeSchema } from '@strongroom/contracts/accounts.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import {
  accountNumberField,
  externalTransferRequestSchema,
  internalTransferRequestSchema,
  paymentMessageField,
  personNameField,
  routeNumberField,
} from '@strongroom/contracts/payments.ts';
import { amountTextField } from './amount-field.ts';
import { requiredField } from './required-field.ts';

/**
 * The 'Transfer to other bank' form. It has three shapes: a recipient at another bank (kind
 * `external`), one at this bank (kind `internal`), and a saved favourite (seed: holder name,
 * account type, amount and message required). Each is checked by the contract's own fields.
 */

const fromAccountId = externalTransferRequestSchema.shape.fromAccountId;

const otherBankSchema = z.object({
  fromAccountId,
  toAccountNumber: requiredField(accountNumberField),
  nameOfBank: externalTransferRequestSchema.shape.nameOfBank,
  accountName: personNameField,
  nameOfCountry: externalTransferRequestSchema.shape.nameOfCountry,
  routeNumber: requiredField(routeNumberField),
  amount: amountTextField,
  message: paymentMessageField,
  addToFavorites: z.boolean(),
});

const thisBankSchema = z.object({
  fromAccountId,
  toAccountNumber: requiredField(internalTransferRequestSchema.shape.toAccountNumber),
  accountName: personNameField,
  amount: amountTextField,
  message: paymentMessageField,
  addToFavorites: z.boolean(),
});

const favouriteSchema = z.object({
  fromAccountId,
  beneficiaryId: z.string().min(1, 'Choose a favorite'),
  accountName: personNameField,
  accountType: z.enum(accountTypeSchema.options, { error: validationMessages.required }),
  amount: amountTextField,
  message: paymentMessageField,
});

export type OtherBankChecked =
  | ({ mode: 'otherBank' } & z.output<typeof otherBankSchema>)
  | ({ mode: 'thisBank' } & z.output<typeof thisBankSchema>)
  | ({ mode: 'favourite' } & z.output<typeof favouriteSchema>);

function forwardIssues(issues: readonly z.core.$ZodIssue[], context: z.RefinementCtx) {
  for (const issue of issues) context.addIssue({ code: 'custom', message: issue.message, path: [...issue.path] });
}

export const otherBankFormSchema = z
  .object({
    fromAccountId: z.string(),
    favourite: z.boolean(),
    bank: z.enum(['other', 'this']),
    beneficiaryId: z.string(),
    toAccountNumber: z.string(),
    nameOfBank: z.string(),
    accountName: z.string(),
    nameOfCountry: z.string(),
    routeNumber: z.string(),
    accountType: z.string(),
    amount: z.string(),
    message: z.string(),
    addToFavorites: z.boolean(),
  })
  .transform((values, context): OtherBankChecked => {
    if (values.favourite) {
      const result = favouriteSchema.safeParse(values);
      if (result.success) return { mode: 'favourite', ...result.data };
      forwardIssues(result.error.issues, context);
    } else if (values.bank === 'this') {
      const result = thisBankSchema.safeParse(values);
      if (result.success) return { mode: 'thisBank', ...result.data };
      forwardIssues(result.error.issues, context);
    } else {
      const result = otherBankSchema.safeParse(values);
      if (result.success) return { mode: 'otherBank', ...result.data };
      forwardIssues(result.error.issues, context);
    }
    return z.NEVER;
  });

/** What the form holds; `favourite` is the seed's 'Favorite list' toggle. */
export type OtherBankFormValues = z.input<typeof otherBankFormSchema>;

/** The recipient's fields: emptied when the mode changes, so a payment never goes to leftovers of another. */
export const emptyRecipient = {
  beneficiaryId: '',
  toAccountNumber: '',
  nameOfBank: '',
  accountName: '',
  nameOfCountry: '',
  routeNumber: '',
  accountType: '',
} as const satisfies Partial<OtherBankFormValues>;
