import { describe, expect, it } from 'vitest';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { formatAprPercent, formatRatioBps, monthlyPaymentCents, parseAprPercentToBps, parseTermMonths } from './loan-terms.ts';

describe('parseAprPercentToBps', () => {
  it.each([
    ['12', 1_200],
    ['12.5', 1_250],
    ['12.50', 1_250],
    ['12.05', 1_205],
    ['0', 0],
    ['0.01', 1],
    ['36', 3_600],
    ['36.00', 3_600],
    [' 7.25 % ', 725],
    ['8.', 800],
    // A float would make 0.29 * 100 = 28.999999999999996: the digits make 29.
    ['0.29', 29],
    ['4.35', 435],
  ])('reads "%s" as %i basis points', (text, bps) => {
    expect(parseAprPercentToBps(text)).toEqual({ ok: true, value: bps });
  });

  it.each([
    ['', validationMessages.required],
    ['  ', validationMessages.required],
    ['abc', validationMessages.numberInvalid],
    ['-1', validationMessages.numberInvalid],
    ['1e2', validationMessages.numberInvalid],
    ['12,5', validationMessages.numberInvalid],
    ['.5', validationMessages.numberInvalid],
    ['12.345', 'the APR has at most two decimals (a basis point)'],
    ['36.01', 'the APR is 0% to 36%'],
    ['100', 'the APR is 0% to 36%'],
  ])('refuses "%s": %s', (text, message) => {
    expect(parseAprPercentToBps(text)).toEqual({ ok: false, message });
  });
});

describe('parseTermMonths', () => {
  it('takes 1 to 84 whole months', () => {
    expect(parseTermMonths('1')).toEqual({ ok: true, value: 1 });
    expect(parseTermMonths('84')).toEqual({ ok: true, value: 84 });
    expect(parseTermMonths('0')).toEqual({ ok: false, message: 'the term is 1 to 84 months' });
    expect(parseTermMonths('85')).toEqual({ ok: false, message: 'the term is 1 to 84 months' });
    expect(parseTermMonths('6.5')).toEqual({ ok: false, message: validationMessages.numberInvalid });
    expect(parseTermMonths('')).toEqual({ ok: false, message: validationMessages.required });
  });
});

describe('monthlyPaymentCents', () => {
  it('reproduces the published case: $100.00 at 12% over 6 months is $17.25', () => {
    expect(monthlyPaymentCents(10_000, 1_200, 6)).toBe(1_725);
  });

  it('divides evenly at 0% (the remainder goes to the last instalment)', () => {
    expect(monthlyPaymentCents(10_000, 0, 3)).toBe(3_333);
  });

  it('is the whole amount plus one month of interest over one month', () => {
    expect(monthlyPaymentCents(100_000, 1_200, 1)).toBe(101_000);
  });

  it('stays exact over 84 months at the largest amount and APR', () => {
    // 10,000,000 cents at 36% over 84 months: 10,000,000 · 0.03 / (1 − 1.03^−84) = 327,331.33… cents.
    expect(monthlyPaymentCents(10_000_000, 3_600, 84)).toBe(327_331);
  });
});

describe('formatting', () => {
  it('writes basis points as percentages', () => {
    expect(formatAprPercent(1_250)).toBe('12.50%');
    expect(formatAprPercent(5)).toBe('0.05%');
    expect(formatRatioBps(3_512)).toBe('35.1%');
    expect(formatRatioBps(0)).toBe('0.0%');
  });
});
