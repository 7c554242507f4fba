import { z } from 'zod';
import { createAdjustmentRequestSchema } from '@strongroom/contracts/books.ts';
import { decisionReasonField } from '@strongroom/contracts/staff.ts';
import { amountTextField } from '../../../components/payment/amount-field.ts';

/**
 * The adjusting entry as finance staff type it: the amount in dollars (integer cents out, by string
 * arithmetic), an optional booked-on day, and the contract's own messages for the rest.
 */
const bothAccountsChosen = z.object({ debitAccount: z.string().min(1), creditAccount: z.string().min(1) });

export const adjustmentFormSchema = z
  .object({
    debitAccount: createAdjustmentRequestSchema.shape.debitAccount,
    creditAccount: createAdjustmentRequestSchema.shape.creditAccount,
    amount: amountTextField,
    postedOn: z.union([z.literal(''), z.iso.date({ error: 'enter a date, or leave it empty for the open day' })]),
    reason: decisionReasonField,
  })
  .refine((form) => form.debitAccount !== form.creditAccount, {
    path: ['creditAccount'],
    error: 'choose an account other than the one debited',
    // Said as soon as both accounts are chosen, whatever the other fields hold.
    when: (payload) => bothAccountsChosen.safeParse(payload.value).success,
  });

export type AdjustmentFormInput = z.input<typeof adjustmentFormSchema>;
export type AdjustmentFormValues = z.output<typeof adjustmentFormSchema>;

/** The form's field names, for placing the server's field messages (amountCents is typed as amount). */
export const adjustmentFieldNames = ['debitAccount', 'creditAccount', 'amount', 'postedOn', 'reason'] as const;

/** An account an adjusting entry may name (GET /staff/books/accounts `adjustable`). */
export interface AdjustableOption {
  key: string;
  name: string;
  glAccount: string;
}
