import { describe, expect, it } from 'vitest';
import { greetingForHour } from './constants.ts';
import { errorCodes } from './errors.ts';
import { errorStatusByCode } from './http.ts';
import { emailField, numberTextField, textField } from './fields.ts';
import { validationMessages } from './messages.ts';
import { matchesRoutePath } from './web-routes.ts';

describe('greetingForHour', () => {
  it('follows the seed: 04-11 morning, 12-16 afternoon, 17-20 evening, 21-03 night', () => {
    const greetings = Array.from({ length: 24 }, (_, hour) => greetingForHour(hour));
    expect(greetings.slice(4, 12).every((greeting) => greeting === 'Good morning')).toBe(true);
    expect(greetings.slice(12, 17).every((greeting) => greeting === 'Good afternoon')).toBe(true);
    expect(greetings.slice(17, 21).every((greeting) => greeting === 'Good evening')).toBe(true);
    expect([...greetings.slice(21), ...greetings.slice(0, 4)].every((greeting) => greeting === 'Good night')).toBe(true);
  });

  it('refuses an hour that does not exist', () => {
    expect(() => greetingForHour(24)).toThrow(RangeError);
    expect(() => greetingForHour(-1)).toThrow(RangeError);
  });
});

describe('shared field schemas', () => {
  it('gives the seed messages for an empty and a malformed email', () => {
    expect(emailField.safeParse('').error?.issues[0]?.message).toBe('field should not be empty');
    expect(emailField.safeParse('not-an-email').error?.issues[0]?.message).toBe('email is not valid');
    expect(emailField.parse('  ada@example.com ')).toBe('ada@example.com');
  });

  it('requires a digit in a number field', () => {
    expect(numberTextField.safeParse('abc').error?.issues[0]?.message).toBe('number is not valid');
    expect(numberTextField.safeParse('').error?.issues[0]?.message).toBe('field should not be empty');
    expect(numberTextField.parse('202 555 0101')).toBe('202 555 0101');
  });

  it('refuses control characters other than tab and newline, and the text-direction overrides, with one message', () => {
    const field = textField(100);
    const hiddenMessage = 'remove the hidden control or text-direction characters';
    expect(validationMessages.hiddenCharacters).toBe(hiddenMessage);
    for (const hidden of ['\u0000', '\u0007', '\r', '\u001B', '\u007F', '\u0085', '\u009F', '\u202A', '\u202E', '\u2066', '\u2069']) {
      expect(field.safeParse(`Ada${hidden}Lovelace`).error?.issues[0]?.message, JSON.stringify(hidden)).toBe(hiddenMessage);
    }
    expect(emailField.safeParse('ada\u0000@example.com').error?.issues[0]?.message).toBe(hiddenMessage);
    expect(field.parse('Line one\n\tLine two')).toBe('Line one\n\tLine two');
    expect(field.parse('نورا الحسن')).toBe('نورا الحسن');
    expect(field.parse('Zoë \u200D O’Brien')).toBe('Zoë \u200D O’Brien');
  });

  it('refuses the zero-width space, word joiner, invisible operators, direction marks and byte order mark, but keeps the joiners scripts and emoji need', () => {
    const field = textField(100);
    for (const hidden of ['\u200B', '\u2060', '\u2061', '\u2064', '\uFEFF', '\u200E', '\u200F', '\u061C']) {
      expect(field.safeParse(`Ada${hidden}Lovelace`).error?.issues[0]?.message, JSON.stringify(hidden)).toBe(validationMessages.hiddenCharacters);
      expect(field.safeParse(`${hidden}Ada Lovelace`).success, `leading ${JSON.stringify(hidden)}`).toBe(false);
    }
    // Persian spells "I want" with a zero-width non-joiner; Devanagari asks for a half form with the joiner, and an emoji family is joined by it.
    expect(field.parse('می\u200Cخواهم')).toBe('می\u200Cخواهم');
    expect(field.parse('क्\u200Dष')).toBe('क्\u200Dष');
    expect(field.parse('👩\u200D👩\u200D👧')).toBe('👩\u200D👩\u200D👧');
    expect(field.parse('שלום עולם')).toBe('שלום עולם');
  });
});

describe('error codes', () => {
  it('give every code an HTTP status and keep the contract statuses', () => {
    expect(Object.keys(errorStatusByCode).sort()).toEqual([...errorCodes].sort());
    expect(errorStatusByCode).toMatchObject({
      validation_failed: 400,
      unauthenticated: 401,
      step_up_required: 403,
      forbidden: 403,
      not_found: 404,
      insufficient_funds: 422,
      rate_limited: 429,
    });
  });
});

describe('matchesRoutePath', () => {
  it('matches exact paths, one-segment parameters and prefixes', () => {
    expect(matchesRoutePath('/', '/')).toBe(true);
    expect(matchesRoutePath('/', '/x')).toBe(false);
    expect(matchesRoutePath('/savings', '/savings/')).toBe(true);
    expect(matchesRoutePath('/verify/:email', '/verify/a@b.co')).toBe(true);
    expect(matchesRoutePath('/verify/:email', '/verify/')).toBe(false);
    expect(matchesRoutePath('/ops/*', '/ops/transfers/1')).toBe(true);
    expect(matchesRoutePath('/ops/*', '/opsx')).toBe(false);
  });
});

describe('signup schema', () => {
  it('reports mismatched passwords alongside an unticked terms box', async () => {
    const { signupRequestSchema } = await import('./auth.ts');
    const result = signupRequestSchema.safeParse({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      password: 'analytical engine',
      confirmPassword: 'difference engine',
      acceptTerms: false,
    });
    const paths = result.error?.issues.map((issue) => issue.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['acceptTerms', 'confirmPassword']));
  });
});
