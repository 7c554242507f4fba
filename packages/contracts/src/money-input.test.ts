import { describe, expect, it } from 'vitest';
import { isValidRoutingNumber, maxPaymentCents, parseDollarsToCents } from './money-input.ts';

describe('parseDollarsToCents', () => {
  it('reads dollars and cents without floating point', () => {
    expect(parseDollarsToCents('12.5')).toEqual({ ok: true, cents: 1250 });
    expect(parseDollarsToCents('$1,234.56')).toEqual({ ok: true, cents: 123456 });
    expect(parseDollarsToCents('0.29')).toEqual({ ok: true, cents: 29 });
    expect(parseDollarsToCents('1000000')).toEqual({ ok: true, cents: maxPaymentCents });
  });

  it('reads cents written without dollars, as people type them', () => {
    expect(parseDollarsToCents('.50')).toEqual({ ok: true, cents: 50 });
    expect(parseDollarsToCents('$.5')).toEqual({ ok: true, cents: 50 });
    expect(parseDollarsToCents('12.')).toEqual({ ok: true, cents: 1200 });
    expect(parseDollarsToCents('.')).toEqual({ ok: false, reason: 'invalid' });
    expect(parseDollarsToCents('$')).toEqual({ ok: false, reason: 'invalid' });
    expect(parseDollarsToCents('')).toEqual({ ok: false, reason: 'invalid' });
    expect(parseDollarsToCents('.001')).toEqual({ ok: false, reason: 'fractional_cent' });
  });

  it('refuses negative, zero, fractional-cent, non-numeric and absurdly large amounts', () => {
    expect(parseDollarsToCents('-5')).toEqual({ ok: false, reason: 'invalid' });
    expect(parseDollarsToCents('0.00')).toEqual({ ok: false, reason: 'not_positive' });
    expect(parseDollarsToCents('1.005')).toEqual({ ok: false, reason: 'fractional_cent' });
    expect(parseDollarsToCents('ten')).toEqual({ ok: false, reason: 'invalid' });
    expect(parseDollarsToCents('1e5')).toEqual({ ok: false, reason: 'invalid' });
    expect(parseDollarsToCents('1000000.01')).toEqual({ ok: false, reason: 'too_large' });
    expect(parseDollarsToCents('9'.repeat(40))).toEqual({ ok: false, reason: 'too_large' });
  });
});

describe('isValidRoutingNumber', () => {
  it('accepts a number whose ABA checksum holds and refuses one digit changed', () => {
    expect(isValidRoutingNumber('123456780')).toBe(true);
    expect(isValidRoutingNumber('011000015')).toBe(true);
    expect(isValidRoutingNumber('123456789')).toBe(false);
    expect(isValidRoutingNumber('12345678')).toBe(false);
  });
});
