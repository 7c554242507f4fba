import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { calendarDate, TransactionAmount, TransactionDate } from '../../components/transactions/transaction-format.tsx';
import { BankIdentityContext } from '../../lib/bank-identity.ts';

describe('a history line’s amount', () => {
  it('is in the colour of money out when money left', () => {
    render(<TransactionAmount transaction={{ amountCents: -4_250, category: 'Transfer', status: 'completed' }} />);
    expect(screen.getByText('-$42.50').className).toContain('money-out');
  });

  it('is struck through and muted when the line moved nothing (a declined card purchase)', () => {
    render(<TransactionAmount transaction={{ amountCents: -4_250, category: 'Debit', status: 'rejected' }} />);
    const amount = screen.getByText('-$42.50');
    expect(amount.tagName).toBe('S');
    expect(amount.className).toContain('money-none');
    expect(amount.className).not.toContain('money-out');
  });
});

describe("a money line's date", () => {
  it("is the day on the bank's calendar, whatever the browser's zone", () => {
    // 02:30 UTC on 1 December is still 30 November in New York (docs/product.md, "Dates").
    expect(calendarDate('2026-12-01T02:30:00.000Z', 'America/New_York')).toBe('2026-11-30');
    expect(calendarDate('2026-12-01T02:30:00.000Z', 'UTC')).toBe('2026-12-01');
    expect(calendarDate('2026-11-30T23:30:00.000Z', 'Asia/Tokyo')).toBe('2026-12-01');
    // A summer evening: New York is four hours behind UTC, not five.
    expect(calendarDate('2027-07-04T03:59:59.000Z', 'America/New_York')).toBe('2027-07-03');
    expect(calendarDate('2027-07-04T04:00:00.000Z', 'America/New_York')).toBe('2027-07-04');
    expect(() => calendarDate('yesterday', 'UTC')).toThrow(RangeError);
  });

  it("is shown on the bank's calendar, and keeps the instant for machines", () => {
    render(
      <BankIdentityContext value={{ name: 'Bank', mode: 'production', timeZone: 'America/Los_Angeles' }}>
        <TransactionDate createdAt="2026-12-01T06:00:00.000Z" />
      </BankIdentityContext>,
    );
    const date = screen.getByText('2026-11-30');
    expect(date.tagName).toBe('TIME');
    expect(date.getAttribute('datetime')).toBe('2026-12-01T06:00:00.000Z');
  });
});
