import { z } from 'zod';
import { emailField, textField } from './fields.ts';
import { validationMessages } from './messages.ts';

/**
 * `POST /api/v1/contact`: a visitor's message to the bank (docs/product.md section 9 (the seed's sections 2 and 5), docs/product.md
 * D14). Every field is required with the seed's own message; the limits keep one message to a
 * size a person can read and a database row can hold.
 */
export const contactFieldLimits = {
  nameMaxLength: 100,
  emailMaxLength: 254,
  phoneMaxLength: 32,
  subjectMaxLength: 150,
  messageMaxLength: 5_000,
} as const;

export const contactMessageRequestSchema = z.object({
  name: textField(contactFieldLimits.nameMaxLength, validationMessages.contactName),
  // The contact form's own "empty" message first, then the shared email rules (pattern, 254 chars).
  email: textField(contactFieldLimits.emailMaxLength, validationMessages.contactEmail).pipe(emailField),
  // Checked for a digit only once it is not empty, so an empty field gets one message, not two.
  phone: textField(contactFieldLimits.phoneMaxLength, validationMessages.contactPhone).pipe(z.string().regex(/\d/, validationMessages.numberInvalid)),
  subject: textField(contactFieldLimits.subjectMaxLength, validationMessages.contactSubject),
  message: textField(contactFieldLimits.messageMaxLength, validationMessages.contactMessage),
});
export type ContactMessageRequest = z.infer<typeof contactMessageRequestSchema>;

export const contactMessageResponseSchema = z.object({ message: z.string() });
export type ContactMessageResponse = z.infer<typeof contactMessageResponseSchema>;
