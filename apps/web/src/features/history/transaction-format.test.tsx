import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TransactionAmount } from '../../components/transactions/transaction-format.tsx';

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
