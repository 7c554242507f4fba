import { z } from 'zod';
import { emailField, textField } from './fields.ts';
import { decisionReasonField } from './staff.ts';

/**
 * `GET|PUT /api/v1/staff/settings`: the bank's contact details that `/contact` and the footer show
 * (docs/product.md section 6). The same schema checks the console's form and the server's body.
 */
export const bankSettingsLimits = {
  addressMinLength: 5,
  addressMaxLength: 300,
  phoneMaxLength: 32,
  /** E.164 allows at most 15 digits; no real number, even a short national one, has fewer than 7. */
  phoneMinDigits: 7,
  phoneMaxDigits: 15,
} as const;

export const bankSettingsMessages = {
  addressShort: `the address needs at least ${bankSettingsLimits.addressMinLength} characters`,
  phoneInvalid: 'enter a phone number: digits, spaces, dashes, dots, parentheses and a leading +',
  phoneDigits: `a phone number has ${bankSettingsLimits.phoneMinDigits} to ${bankSettingsLimits.phoneMaxDigits} digits`,
} as const;

const phoneCharacters = /^\+?[\d\s().-]+$/;

function digitCount(text: string): number {
  return text.replace(/\D/g, '').length;
}

export const bankPhoneField = textField(bankSettingsLimits.phoneMaxLength)
  .pipe(z.string().regex(phoneCharacters, bankSettingsMessages.phoneInvalid))
  .refine(
    (phone) => digitCount(phone) >= bankSettingsLimits.phoneMinDigits && digitCount(phone) <= bankSettingsLimits.phoneMaxDigits,
    bankSettingsMessages.phoneDigits,
  );

/**
 * A figure the home page shows under "A bank built with its community" (docs/decisions/054): only
 * what the bank itself sets here, never an invented one. None set, no section.
 */
export const homeCounterLimits = { maxCounters: 3, labelMaxLength: 40, maxValue: 999_999_999_999 } as const;

export const homeCounterMessages = {
  tooMany: `at most ${homeCounterLimits.maxCounters} figures`,
  whole: 'a whole number, 0 or more',
  tooLarge: `at most ${homeCounterLimits.maxValue.toLocaleString('en-US')}`,
} as const;

export const homeCounterSchema = z.object({
  label: textField(homeCounterLimits.labelMaxLength),
  value: z
    .number({ error: homeCounterMessages.whole })
    .int(homeCounterMessages.whole)
    .min(0, homeCounterMessages.whole)
    .max(homeCounterLimits.maxValue, homeCounterMessages.tooLarge),
  /** "12,000+" says "at least"; without it the figure is exact. */
  atLeast: z.boolean(),
});
export type HomeCounter = z.infer<typeof homeCounterSchema>;

export const homeCountersSchema = z.array(homeCounterSchema).max(homeCounterLimits.maxCounters, homeCounterMessages.tooMany);

export const bankSettingsSchema = z.object({
  address: textField(bankSettingsLimits.addressMaxLength).pipe(z.string().min(bankSettingsLimits.addressMinLength, bankSettingsMessages.addressShort)),
  phone: bankPhoneField,
  supportEmail: emailField,
  homeCounters: homeCountersSchema,
});
export type BankSettings = z.infer<typeof bankSettingsSchema>;

/**
 * The body of `PUT /staff/settings`: the three contact fields, the home page's figures (left as they
 * are when absent, so a client of the contract's three fields changes none), and a reason for the
 * audit log when the admin gives one.
 */
export const bankSettingsUpdateSchema = bankSettingsSchema.extend({ homeCounters: homeCountersSchema.optional(), reason: decisionReasonField.optional() });
export type BankSettingsUpdate = z.input<typeof bankSettingsUpdateSchema>;

/** `GET|PUT /staff/settings` answer the three fields at the top level, as the contract writes them, and when they last changed. */
export const bankSettingsResponseSchema = bankSettingsSchema.extend({ updatedAt: z.string() });
export type BankSettingsResponse = z.infer<typeof bankSettingsResponseSchema>;
