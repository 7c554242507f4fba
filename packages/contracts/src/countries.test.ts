import { describe, expect, it } from 'vitest';
import { nameOnCardField } from './cards.ts';
import { countryField, countryMessages, countryNames, isListedCountry } from './countries.ts';
import { validationMessages } from './messages.ts';
import { routeNumberField } from './payments.ts';

describe('the fields that know what the bank knows (decision 060)', () => {
  it('lists every ISO 3166-1 country once, by a name the field takes back', () => {
    expect(countryNames).toHaveLength(250);
    expect(new Set(countryNames).size).toBe(countryNames.length);
    expect(countryNames).toContain('United States');
    expect(countryNames.filter((name) => !isListedCountry(name))).toEqual([]);
  });

  it('refuses "Narnia" and takes a listed country in any case or by its common name', () => {
    expect(countryField.safeParse('Narnia').error?.issues[0]?.message).toBe(countryMessages.notListed);
    for (const name of ['United States', 'united kingdom', 'USA', ' France ']) expect(countryField.safeParse(name).success, name).toBe(true);
  });

  it('tells a SWIFT/BIC code that international transfers are not offered, and a wrong routing number that it is not valid', () => {
    expect(routeNumberField.safeParse('DEUTDEFF500').error?.issues.map((issue) => issue.message)).toEqual([validationMessages.routeNumberIsSwift]);
    expect(routeNumberField.safeParse('BARC GB 22').error?.issues[0]?.message).toBe(validationMessages.routeNumberIsSwift);
    expect(routeNumberField.safeParse('011000016').error?.issues[0]?.message).toBe(validationMessages.routeNumberInvalid);
    expect(routeNumberField.safeParse('011000015').success).toBe(true);
  });

  it('prints the name on a card in capitals without accents, and refuses digits, emoji and other signs', () => {
    expect(nameOnCardField.parse(' zoë  Núñez-ruiz ')).toBe('ZOE NUNEZ-RUIZ');
    for (const name of ['R2 D2', 'Ana 😀', "O'Brien", 'A--B', '-ANA']) expect(nameOnCardField.safeParse(name).success, name).toBe(false);
  });
});
