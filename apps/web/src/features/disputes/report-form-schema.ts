import { z } from 'zod';
import { disputeDescriptionField, disputeReasonSchema, type DisputeReason } from '@strongroom/contracts/disputes.ts';

/**
 * The report form: the contract's own fields and messages (a missing reason, a description under 10
 * characters). No reason is chosen for the customer, so the form starts with none.
 */
export const reportFormSchema = z.object({
  reason: z.custom<DisputeReason | undefined>().pipe(disputeReasonSchema),
  description: disputeDescriptionField,
  replaceCard: z.boolean(),
});

export type ReportFormValues = z.input<typeof reportFormSchema>;
export type ReportChecked = z.output<typeof reportFormSchema>;

export const reportFormDefaults: ReportFormValues = { reason: undefined, description: '', replaceCard: true };
