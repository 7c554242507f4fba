import { z } from 'zod';
import { businessConstants } from './constants.ts';
import { plainString, textField } from './fields.ts';
import { validationMessages } from './messages.ts';

/** `/phonesignup`: an ISO 3166 country (its calling code is shown) and the national number. */
export const phoneSignupRequestSchema = z.object({
  countryCode: z.string().regex(/^[A-Z]{2}$/, 'choose a country'),
  phoneNumber: plainString().trim().min(1, validationMessages.required).max(32, validationMessages.tooLong).regex(/\d/, validationMessages.numberInvalid),
});
export type PhoneSignupRequest = z.infer<typeof phoneSignupRequestSchema>;

export const phoneCodeRequestSchema = z.object({
  code: z.string().regex(new RegExp(`^\\d{${businessConstants.phoneCodeDigits}}$`), 'enter the 4-digit code'),
});

/** `/registeration`: the text fields; the document image travels beside them as multipart. */
export const identityFieldsSchema = z.object({
  idNumber: plainString()
    .trim()
    .min(1, validationMessages.required)
    .max(32, validationMessages.tooLong)
    .regex(/^[A-Za-z0-9 -]+$/, 'use letters, digits, spaces and dashes only'),
  country: z.string().regex(/^[A-Z]{2}$/, 'choose a country'),
  state: textField(100),
  address: textField(300),
});
export type IdentityFields = z.infer<typeof identityFieldsSchema>;

export const onboardingMessages = {
  codeSent: 'We sent a 4-digit code by SMS. It works for 10 minutes.',
  codeWrong: 'That code is not right. Check the SMS and try again.',
  codeExpired: 'This code has expired or was tried too many times. Ask for a new code.',
  phoneInvalid: 'This is not a valid phone number for the chosen country',
  imageMissing: 'Choose an image to upload',
  imageTooLarge: 'The image must be 5 MB or smaller',
  identitySubmitted: 'Thank you. We are checking your document.',
  photoSaved: 'Your profile photo is saved.',
} as const;
