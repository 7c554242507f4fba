import { z } from 'zod';
import { businessConstants } from './constants.ts';
import { lineMessages, multiLineTextField, plainString, singleLineTextField } from './fields.ts';
import { validationMessages } from './messages.ts';
import { isUsStateCode } from './us-states.ts';

/** `/phonesignup`: an ISO 3166 country (its calling code is shown) and the national number. */
export const phoneSignupRequestSchema = z.object({
  countryCode: z.string().regex(/^[A-Z]{2}$/, 'choose a country'),
  phoneNumber: plainString().trim().min(1, validationMessages.required).max(32, validationMessages.tooLong).regex(/\d/, validationMessages.numberInvalid),
});
export type PhoneSignupRequest = z.infer<typeof phoneSignupRequestSchema>;

export const phoneCodeRequestSchema = z.object({
  code: z.string().regex(new RegExp(`^\\d{${businessConstants.phoneCodeDigits}}$`), 'enter the 4-digit code'),
});

/**
 * What the identity step says about each field (docs/decisions/055-customer-identification-fields.md).
 * Worded for the person typing: what to enter, with an example where one helps.
 */
export const identityMessages = {
  idTypeRequired: 'choose the kind of ID',
  ssnInvalid: 'enter a 9-digit Social Security number, like 123-45-6789',
  driversLicenseInvalid: 'enter the license number as printed: 4 to 20 letters, digits or dashes, with at least one digit',
  passportInvalid: 'enter the 9 letters and digits of your U.S. passport number',
  birthDateInvalid: 'enter your date of birth',
  birthDateTooEarly: 'check the year of your date of birth',
  birthDateInFuture: 'a date of birth cannot be in the future',
  underAge: 'you must be 18 or over to open an account',
  stateInvalid: 'choose a state from the list',
  zipCodeInvalid: 'enter a 5-digit ZIP code, or ZIP+4 like 62701-1234',
  streetTooManyLines: lineMessages.tooManyLines(2),
  oneLine: lineMessages.oneLine,
  /** At the phone step: step-up codes of two customers never go to one phone (decision 055). */
  phoneTaken: 'This phone number is already verified by another customer. Security codes go to one customer’s phone only, so please use a number of your own.',
} as const;

/** The kinds of ID the bank takes, each checked by its own pattern below. */
export const idTypes = ['ssn', 'drivers_license', 'passport'] as const;
export type IdType = (typeof idTypes)[number];
export const idTypeLabels: Readonly<Record<IdType, string>> = {
  ssn: 'Social Security number',
  drivers_license: 'Driver’s license',
  passport: 'U.S. passport',
};

/** Birth dates before this are a typing slip (1090 for 1990), not a customer. */
export const earliestBirthDate = '1900-01-01';
export const minimumCustomerAgeYears = 18;

/**
 * The latest birth date of a customer who is 18 on `today` (UTC), as 'YYYY-MM-DD'. Compared as text
 * with the birth date, someone born on 29 February is 18 on 1 March of a common year.
 */
export function latestAdultBirthDate(today: Date = new Date()): string {
  const year = String(today.getUTCFullYear() - minimumCustomerAgeYears).padStart(4, '0');
  return `${year}${today.toISOString().slice(4, 10)}`;
}

function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/**
 * A Social Security number as the SSA issues them: 9 digits, a dash or space optional between the
 * groups; never area 000, 666 or 900-999, group 00 or serial 0000.
 */
function isSocialSecurityNumber(text: string): boolean {
  const match = /^(\d{3})[- ]?(\d{2})[- ]?(\d{4})$/.exec(text);
  if (!match) return false;
  const [, area = '', group = '', serial = ''] = match;
  return area !== '000' && area !== '666' && !area.startsWith('9') && group !== '00' && serial !== '0000';
}

/** States print licence numbers differently; letters, digits and dashes, and at least one digit, cover them all. */
function isDriversLicenseNumber(text: string): boolean {
  return /^[A-Z0-9-]{4,20}$/i.test(text) && /\d/.test(text);
}

/** A U.S. passport book or card number: 9 characters, letters and digits, at least one digit. */
function isPassportNumber(text: string): boolean {
  return /^[A-Z0-9]{9}$/i.test(text) && /\d/.test(text);
}

const idNumberChecks: Readonly<Record<IdType, { fits: (text: string) => boolean; message: string }>> = {
  ssn: { fits: isSocialSecurityNumber, message: identityMessages.ssnInvalid },
  drivers_license: { fits: isDriversLicenseNumber, message: identityMessages.driversLicenseInvalid },
  passport: { fits: isPassportNumber, message: identityMessages.passportInvalid },
};

/** What is wrong with a date of birth, if anything: one message, the first that applies. */
function birthDateProblem(text: string, today: Date = new Date()): string | undefined {
  if (!isCalendarDate(text)) return identityMessages.birthDateInvalid;
  if (text < earliestBirthDate) return identityMessages.birthDateTooEarly;
  if (text > today.toISOString().slice(0, 10)) return identityMessages.birthDateInFuture;
  if (text > latestAdultBirthDate(today)) return identityMessages.underAge;
  return undefined;
}

// One refinement with one message rather than a chain: a chain's aborting step would stop the
// form-level check of the ID number below.
const dateOfBirthField = z.string().refine((text) => birthDateProblem(text) === undefined, {
  error: (issue) => birthDateProblem(typeof issue.input === 'string' ? issue.input : ''),
});

/**
 * `/registeration`: the text fields; the document image travels beside them as multipart. What a US
 * bank's customer identification program needs (decision 055): the kind and number of an ID, the
 * date of birth, and a US residential address (street of one or two lines, city, state, ZIP code).
 */
export const identityFieldsSchema = z
  .object({
    idType: z.enum(idTypes, { error: identityMessages.idTypeRequired }),
    idNumber: singleLineTextField(32),
    dateOfBirth: dateOfBirthField,
    country: z.string().regex(/^[A-Z]{2}$/, 'choose a country'),
    address: multiLineTextField(300, 2),
    city: singleLineTextField(100),
    state: plainString().trim().refine(isUsStateCode, identityMessages.stateInvalid),
    zipCode: singleLineTextField(10).regex(/^\d{5}(-\d{4})?$/, identityMessages.zipCodeInvalid),
  })
  .refine((fields) => idNumberChecks[fields.idType].fits(fields.idNumber), {
    path: ['idNumber'],
    error: (issue) => {
      const input = issue.input as { idType?: IdType } | undefined;
      return idNumberChecks[input?.idType ?? 'ssn'].message;
    },
    // Check the number against its kind even while another field (the state, say) is still wrong.
    when: (payload) => !payload.issues.some((issue) => issue.path?.[0] === 'idType' || issue.path?.[0] === 'idNumber'),
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
