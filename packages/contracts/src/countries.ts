import countries from 'i18n-iso-countries';
import english from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import { textField } from './fields.ts';

/**
 * Countries where a form still asks for one (an outside account typed by hand, a payee at another
 * bank): ISO 3166-1, named in English by i18n-iso-countries, the library the server already checks
 * identity countries with. The web offers these names in a list and the server accepts a name the
 * list knows (its official name or a common one, any case: "United States", "USA", "UK"), so
 * "Narnia" is refused on both sides with the same message (decision 060).
 */
countries.registerLocale(english);

export const countryMessages = {
  notListed: 'choose a country from the list',
} as const;

const countryCodes = Object.keys(countries.getAlpha2Codes());
const commonNames = countryCodes.map((code) => countries.getName(code, 'en', { select: 'alias' }));

/**
 * "United States" rather than "United States of America": the short common name where one exists,
 * is not a bare abbreviation ("UK") and names one country only (both Congos are "Congo").
 */
function displayName(code: string): string {
  const common = countries.getName(code, 'en', { select: 'alias' });
  const official = countries.getName(code, 'en', { select: 'official' }) ?? code;
  const unique = commonNames.filter((name) => name === common).length === 1;
  return common && common.length > 3 && unique ? common : official;
}

/** Every ISO 3166-1 country by its English name, in alphabetical order: the choices of a country list. */
export const countryNames: readonly string[] = countryCodes.map(displayName).sort((a, b) => a.localeCompare(b, 'en'));

/** True for a name (or alias, or ISO code) of an ISO 3166-1 country; false for "Narnia". */
export function isListedCountry(name: string): boolean {
  return countries.getAlpha2Code(name.trim(), 'en') !== undefined;
}

/** A country field of a request: text as before, one the list knows. */
export const countryField = textField(80).refine(isListedCountry, countryMessages.notListed);
