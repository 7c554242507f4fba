import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import type { SelectOption } from '../components/ui/select-field.tsx';

/**
 * Countries for the phone and identity forms: ISO 3166 alpha-2 codes from libphonenumber-js (the
 * library the server checks phone numbers with), named in English by the browser's own
 * Intl.DisplayNames, so no list of about 240 names ships with the app.
 */
const regionNames = new Intl.DisplayNames('en', { type: 'region' });

/** Ascension Island and Tristan da Cunha have calling codes but no ISO 3166-1 code of their own. */
const notIsoCountries: ReadonlySet<string> = new Set(['AC', 'TA']);

function nameOf(code: CountryCode): string {
  return regionNames.of(code) ?? code;
}

function byLabel(a: SelectOption, b: SelectOption): number {
  return a.label.localeCompare(b.label, 'en');
}

export const defaultCountryCode = 'US';

/** 'United States (+1)', for the phone number's country. */
export const phoneCountryOptions: readonly SelectOption[] = getCountries()
  .map((code) => ({ value: code, label: `${nameOf(code)} (+${getCountryCallingCode(code)})` }))
  .sort(byLabel);

/** 'United States', for the identity document's country. */
export const countryOptions: readonly SelectOption[] = getCountries()
  .filter((code) => !notIsoCountries.has(code))
  .map((code) => ({ value: code, label: nameOf(code) }))
  .sort(byLabel);

function isCountryCode(code: string): code is CountryCode {
  return getCountries().some((known) => known === code);
}

/**
 * The number in international form (+12025550147) when it is a valid number of that country, by the
 * same test the server applies; undefined otherwise.
 */
export function internationalPhoneNumber(countryCode: string, phoneNumber: string): string | undefined {
  if (!isCountryCode(countryCode)) return undefined;
  const parsed = parsePhoneNumberFromString(phoneNumber, countryCode);
  return parsed?.isValid() && parsed.country === countryCode ? parsed.number : undefined;
}

/** +12025550147 -> '+1 202 555 0147', for showing the number back to its owner. */
export function formatPhoneNumber(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}
