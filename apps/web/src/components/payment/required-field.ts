import { z } from 'zod';
import { validationMessages } from '@strongroom/contracts/messages.ts';

/**
 * A contract field that checks a format ('account number is not valid') asked for first as a
 * required field: an empty box says 'field should not be empty', as the seed's forms do.
 */
export function requiredField<Output>(field: z.ZodType<Output, string>) {
  return z.string().trim().min(1, validationMessages.required).pipe(field);
}
