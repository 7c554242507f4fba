import { z } from 'zod';
import { bankTypeSchema, createBeneficiaryRequestSchema } from '@strongroom/contracts/beneficiaries.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { accountNumberField, routeNumberField } from '@strongroom/contracts/payments.ts';

/** An empty field says 'field should not be empty' first (seed section 5); its format is checked after. */
const requiredText = z.string().trim().min(1, validationMessages.required);

/** The request schema with the seed's "required" message on every field, the bank type included. */
export const addBeneficiaryFormSchema = createBeneficiaryRequestSchema.extend({
  accountNumber: requiredText.pipe(accountNumberField),
  routeNumber: requiredText.pipe(routeNumberField),
  bankType: z.enum(bankTypeSchema.options, { error: validationMessages.required }),
});

export type AddBeneficiaryFormInput = z.input<typeof addBeneficiaryFormSchema>;
export type AddBeneficiaryFormOutput = z.output<typeof addBeneficiaryFormSchema>;
