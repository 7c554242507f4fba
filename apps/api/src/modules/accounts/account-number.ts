import { randomInt } from 'node:crypto';

/**
 * Account numbers: ten digits, the last a Luhn check digit over the first nine, so a mistyped
 * digit or a swapped pair is caught before money moves. The first digit is never zero.
 */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    const digit = Number(digits[digits.length - 1 - index]);
    const doubled = index % 2 === 0 ? digit * 2 : digit;
    sum += doubled > 9 ? doubled - 9 : doubled;
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidAccountNumber(number: string): boolean {
  return /^[1-9]\d{9}$/.test(number) && luhnCheckDigit(number.slice(0, 9)) === Number(number[9]);
}

export function newAccountNumber(): string {
  const body = `${randomInt(1, 10)}${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
  return `${body}${luhnCheckDigit(body)}`;
}
