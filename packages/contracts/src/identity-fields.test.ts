import { describe, expect, it } from 'vitest';
import { validationMessages } from './messages.ts';
import { identityFieldsSchema, identityMessages, latestAdultBirthDate } from './onboarding.ts';
import { usStates } from './us-states.ts';

/** A complete identity step, as a customer in Springfield would fill it in. */
const valid = {
  idType: 'ssn',
  idNumber: '123-45-6789',
  dateOfBirth: '1985-06-15',
  country: 'US',
  address: '1 Main Street',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
};

function fieldErrors(input: Record<string, unknown>): Record<string, string | undefined> {
  const result = identityFieldsSchema.safeParse(input);
  if (result.success) return {};
  const errors: Record<string, string | undefined> = {};
  for (const issue of result.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return errors;
}

/** 'YYYY-MM-DD' of the day `years` years before today (UTC), moved by `days`. */
function yearsAgo(years: number, days = 0): string {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() - years);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

describe('identity fields: what a US customer identification program needs', () => {
  it('takes a complete identity step', () => {
    expect(fieldErrors(valid)).toEqual({});
  });

  it('takes a two-line street sent by a textarea with CRLF, and keeps it with a plain line feed', () => {
    const parsed = identityFieldsSchema.parse({ ...valid, address: '1 Main Street\r\nApartment 4B' });
    expect(parsed.address).toBe('1 Main Street\nApartment 4B');
    expect(identityFieldsSchema.parse({ ...valid, address: '1 Main Street\nApartment 4B' }).address).toBe('1 Main Street\nApartment 4B');
  });

  it('refuses a third line, and a bidi override or a NUL inside a two-line street', () => {
    expect(fieldErrors({ ...valid, address: '1 Main Street\r\nApartment 4B\r\nBack door' })).toEqual({ address: identityMessages.streetTooManyLines });
    expect(fieldErrors({ ...valid, address: '1 Main Street\r\nApt \u202E4B' })).toEqual({ address: validationMessages.hiddenCharacters });
    expect(fieldErrors({ ...valid, address: '1 Main Street\r\nApt\u0000 4B' })).toEqual({ address: validationMessages.hiddenCharacters });
  });

  it('refuses a line break in the single-line fields', () => {
    expect(fieldErrors({ ...valid, city: 'Spring\r\nfield', idNumber: '123-45-\n6789', zipCode: '62701\n' })).toEqual({
      city: identityMessages.oneLine,
      idNumber: identityMessages.oneLine,
      zipCode: identityMessages.oneLine,
    });
  });

  it('takes a state only from the list of states, DC and the territories, by its two-letter code', () => {
    expect(usStates.map((state) => state.code)).toEqual(expect.arrayContaining(['AL', 'CA', 'DC', 'NY', 'WY', 'PR', 'GU', 'VI']));
    expect(usStates.filter((state) => !state.territory)).toHaveLength(51);
    expect(fieldErrors({ ...valid, state: 'DC' })).toEqual({});
    expect(fieldErrors({ ...valid, state: '🏳️' })).toEqual({ state: identityMessages.stateInvalid });
    expect(fieldErrors({ ...valid, state: 'Illinois' })).toEqual({ state: identityMessages.stateInvalid });
    expect(fieldErrors({ ...valid, state: 'XX' })).toEqual({ state: identityMessages.stateInvalid });
    expect(fieldErrors({ ...valid, state: '' })).toEqual({ state: identityMessages.stateInvalid });
  });

  it('takes a 5-digit ZIP code or ZIP+4, and nothing else', () => {
    expect(fieldErrors({ ...valid, zipCode: '62701-1234' })).toEqual({});
    for (const zipCode of ['6270', '627011', '62701-12', '62701 1234', 'ABCDE']) {
      expect(fieldErrors({ ...valid, zipCode }), zipCode).toEqual({ zipCode: identityMessages.zipCodeInvalid });
    }
  });

  it('needs a city', () => {
    expect(fieldErrors({ ...valid, city: '  ' })).toEqual({ city: validationMessages.required });
  });

  it('takes a customer of 18 today and refuses one a day short of 18', () => {
    expect(fieldErrors({ ...valid, dateOfBirth: yearsAgo(18) })).toEqual({});
    expect(fieldErrors({ ...valid, dateOfBirth: yearsAgo(18, 1) })).toEqual({ dateOfBirth: identityMessages.underAge });
    expect(fieldErrors({ ...valid, dateOfBirth: yearsAgo(10) })).toEqual({ dateOfBirth: identityMessages.underAge });
  });

  it('refuses a birth date in the future, before 1900, or not a date at all', () => {
    expect(fieldErrors({ ...valid, dateOfBirth: yearsAgo(-1) })).toEqual({ dateOfBirth: identityMessages.birthDateInFuture });
    expect(fieldErrors({ ...valid, dateOfBirth: '1899-12-31' })).toEqual({ dateOfBirth: identityMessages.birthDateTooEarly });
    expect(fieldErrors({ ...valid, dateOfBirth: '1900-01-01' })).toEqual({});
    for (const dateOfBirth of ['1985-02-30', '15/06/1985', '1985-6-15', '']) {
      expect(fieldErrors({ ...valid, dateOfBirth }), dateOfBirth).toEqual({ dateOfBirth: identityMessages.birthDateInvalid });
    }
  });

  it('counts a 29 February birthday as 18 on 1 March of a common year', () => {
    expect(latestAdultBirthDate(new Date('2026-02-28T12:00:00Z'))).toBe('2008-02-28');
    expect(latestAdultBirthDate(new Date('2026-03-01T12:00:00Z'))).toBe('2008-03-01');
    expect('2008-02-29' <= latestAdultBirthDate(new Date('2026-02-28T12:00:00Z'))).toBe(false);
  });

  it('takes a social security number with or without dashes, and refuses one that is never issued', () => {
    expect(fieldErrors({ ...valid, idNumber: '123456789' })).toEqual({});
    expect(fieldErrors({ ...valid, idNumber: '665-01-0001' })).toEqual({});
    for (const idNumber of ['000-12-3456', '666-12-3456', '900-12-3456', '999-12-3456', '123-00-4567', '123-45-0000', '12-345-6789', '1234567890', 'abc']) {
      expect(fieldErrors({ ...valid, idNumber }), idNumber).toEqual({ idNumber: identityMessages.ssnInvalid });
    }
  });

  it('takes a driver’s license number of 4 to 20 letters, digits and dashes with a digit in it', () => {
    const license = { ...valid, idType: 'drivers_license' };
    for (const idNumber of ['D1234567', 'a123-4567-8901', '1234', 'S530-1234-5678-90']) {
      expect(fieldErrors({ ...license, idNumber }), idNumber).toEqual({});
    }
    for (const idNumber of ['abc', 'ABCDEFG', 'D12', 'D1234567890123456789X', 'D123 4567']) {
      expect(fieldErrors({ ...license, idNumber }), idNumber).toEqual({ idNumber: identityMessages.driversLicenseInvalid });
    }
  });

  it('takes a US passport number of 9 letters and digits', () => {
    const passport = { ...valid, idType: 'passport' };
    expect(fieldErrors({ ...passport, idNumber: '123456789' })).toEqual({});
    expect(fieldErrors({ ...passport, idNumber: 'A12345678' })).toEqual({});
    for (const idNumber of ['abc', '12345678', 'A123456789', 'A1234-678', 'ABCDEFGHI']) {
      expect(fieldErrors({ ...passport, idNumber }), idNumber).toEqual({ idNumber: identityMessages.passportInvalid });
    }
  });

  it('asks for the kind of document, and still checks the other fields while it is missing', () => {
    expect(fieldErrors({ ...valid, idType: '', state: 'XX' })).toEqual({ idType: identityMessages.idTypeRequired, state: identityMessages.stateInvalid });
    expect(fieldErrors({ ...valid, idType: 'library_card' })).toEqual({ idType: identityMessages.idTypeRequired });
  });

  it('checks the ID number against its kind even while another field is wrong', () => {
    expect(fieldErrors({ ...valid, idNumber: 'abc', state: '🏳️' })).toEqual({ idNumber: identityMessages.ssnInvalid, state: identityMessages.stateInvalid });
  });
});
