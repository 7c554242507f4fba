import { z } from 'zod';
import { emailField, multiLineTextField, plainString, singleLineTextField } from './fields.ts';
import { validationMessages } from './messages.ts';
import { identityMessages, phoneCodeRequestSchema, phoneSignupRequestSchema } from './onboarding.ts';
import { decisionReasonField } from './staff.ts';
import { isUsStateCode } from './us-states.ts';

/**
 * Self-service contact details (issue 39 item 7, docs/decisions/059-self-service-contact-details.md).
 * A signed-in customer changes their email (a link to the new address), their phone (a code to the
 * new number) and their postal address, each behind a step-up answered with a factor they already
 * have; staff correct them with a reason. Routes:
 * - `GET /me/contact` -> `ContactDetails`
 * - `POST /me/email-change` `{ email }` (step-up) -> `{ sentTo, expiresAt }`; the link goes to the new address
 * - `POST /me/email-change/confirm` `{ token }` -> `{ email }` (signed in as the customer who asked)
 * - `POST /me/phone-change` `{ countryCode, phoneNumber }` (step-up) -> `{ sentTo, expiresAt }`; the code goes to the new number
 * - `POST /me/phone-change/confirm` `{ code }` -> `{ phone }`
 * - `PUT /me/address` (step-up) -> `{ address }`
 * - `PUT /staff/customers/{id}/contact` `{ email?, phone?, address?, reason }` (`customers.correct`)
 */

export const contactDetailsMessages = {
  emailTaken: 'This email address is already used by another customer. Use an address of your own.',
  sameEmail: 'This is already your email address.',
  samePhone: 'This is already your phone number.',
  linkInvalid: 'This link has expired, was already used, or was sent for another sign-in. Ask for a new one in Settings > Contact details.',
  codeWrong: 'That code is not right. Check the text message and try again.',
  codeExpired: 'This code has expired or was tried too many times. Ask for a new code.',
  noPhoneChange: 'Enter your new phone number first.',
  phoneTaken: identityMessages.phoneTaken,
  nothingToCorrect: 'change at least one of the email, the phone or the address',
} as const;

/** How long a link to a new address works, and a code to a new number. */
export const emailChangeValidHours = 24;
export const phoneChangeValidMinutes = 10;
/** Wrong codes for one phone change before it must be asked for again. */
export const phoneChangeMaxAttempts = 5;

/**
 * A US postal address: the same fields and rules as the identity step of sign-up (decision 055),
 * the street on one or two lines.
 */
export const postalAddressSchema = z.object({
  country: z.string().regex(/^[A-Z]{2}$/, 'choose a country'),
  // JSON carries a textarea's line breaks as the browser's own value does, as line feeds: a carriage
  // return here is hidden text (the identity step's multipart form may send CRLF; this route does not).
  address: z
    .string()
    .regex(/^[^\r]*$/, validationMessages.hiddenCharacters)
    .pipe(multiLineTextField(300, 2)),
  city: singleLineTextField(100),
  state: plainString().trim().refine(isUsStateCode, identityMessages.stateInvalid),
  zipCode: singleLineTextField(10).regex(/^\d{5}(-\d{4})?$/, identityMessages.zipCodeInvalid),
});
export type PostalAddress = z.infer<typeof postalAddressSchema>;
export type PostalAddressInput = z.input<typeof postalAddressSchema>;

export const contactPhoneSchema = z.object({
  /** E.164, e.g. "+12025550101". */
  number: z.string(),
  country: z.string().nullable(),
});
export type ContactPhone = z.infer<typeof contactPhoneSchema>;

/** `GET /me/contact`: what the customer's contact details are, and any change waiting for its link or code. */
export const contactDetailsSchema = z.object({
  email: z.string(),
  phone: contactPhoneSchema.nullable(),
  address: postalAddressSchema.nullable(),
  pendingEmail: z.object({ email: z.string(), expiresAt: z.iso.datetime() }).nullable(),
  /** The new number masked ("•••• 0101"), until its code is confirmed. */
  pendingPhone: z.object({ sentTo: z.string(), expiresAt: z.iso.datetime() }).nullable(),
});
export type ContactDetails = z.infer<typeof contactDetailsSchema>;

export const emailChangeRequestSchema = z.object({ email: emailField });
export type EmailChangeRequest = z.input<typeof emailChangeRequestSchema>;

/** The token of the link, as the verification page reads it from its path. */
export const emailChangeConfirmRequestSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, contactDetailsMessages.linkInvalid) });
export type EmailChangeConfirmRequest = z.infer<typeof emailChangeConfirmRequestSchema>;

export const changeStartedResponseSchema = z.object({
  /** Where the link or code went: the new address, or the new number masked. */
  sentTo: z.string(),
  expiresAt: z.iso.datetime(),
});
export type ChangeStartedResponse = z.infer<typeof changeStartedResponseSchema>;

export const emailChangedResponseSchema = z.object({ email: z.string() });
export type EmailChangedResponse = z.infer<typeof emailChangedResponseSchema>;

/** Sign-up's phone step: an ISO country and the national number, checked with libphonenumber-js on the server. */
export const phoneChangeRequestSchema = phoneSignupRequestSchema;
export type PhoneChangeRequest = z.infer<typeof phoneChangeRequestSchema>;
export const phoneChangeConfirmRequestSchema = phoneCodeRequestSchema;
export type PhoneChangeConfirmRequest = z.infer<typeof phoneChangeConfirmRequestSchema>;

export const phoneChangedResponseSchema = z.object({ phone: contactPhoneSchema });
export type PhoneChangedResponse = z.infer<typeof phoneChangedResponseSchema>;

export const addressSavedResponseSchema = z.object({ address: postalAddressSchema });
export type AddressSavedResponse = z.infer<typeof addressSavedResponseSchema>;

/** `PUT /staff/customers/{id}/contact`: what staff correct, at least one of the three, and why. */
export const contactCorrectionRequestSchema = z
  .object({
    email: emailField.optional(),
    phone: phoneSignupRequestSchema.optional(),
    address: postalAddressSchema.optional(),
    reason: decisionReasonField,
  })
  .refine((body) => body.email !== undefined || body.phone !== undefined || body.address !== undefined, {
    path: ['email'],
    message: contactDetailsMessages.nothingToCorrect,
  });
export type ContactCorrectionRequest = z.input<typeof contactCorrectionRequestSchema>;

export const contactCorrectionResponseSchema = z.object({
  email: z.string(),
  phone: contactPhoneSchema.nullable(),
  address: postalAddressSchema.nullable(),
  /** Which of email, phone and address changed. */
  changed: z.array(z.enum(['email', 'phone', 'address'])),
});
export type ContactCorrectionResponse = z.infer<typeof contactCorrectionResponseSchema>;
