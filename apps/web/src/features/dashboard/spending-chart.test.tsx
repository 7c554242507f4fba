import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SpendingChart } from './spending-chart.tsx';

describe('SpendingChart', () => {
  it('shows loan repayments and credit card payments as categories of their own, each in its own colour', () => {
    render(
      <SpendingChart
        monthLabel="May 2026"
        spending={[
          { category: 'Card payments', amountCents: 5_000 },
          { category: 'Loan repayments', amountCents: 3_000 },
          { category: 'Credit card payments', amountCents: 2_000 },
        ]}
      />,
    );
    const chart = screen.getByRole('img', {
      name: 'Spending in May 2026: Card payments $50.00 (50%), Loan repayments $30.00 (30%), Credit card payments $20.00 (20%)',
    });
    const legend = chart.closest('figure')?.querySelector('figcaption');
    if (!legend) throw new Error('the chart has no legend');
    const rows = within(legend).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual(['Card payments$50.0050%', 'Loan repayments$30.0030%', 'Credit card payments$20.0020%']);
    const classes = rows.map((row) => row.className);
    expect(classes).toEqual(['spending-chart--cards', 'spending-chart--loans', 'spending-chart--credit-cards']);
    const slices = [...chart.querySelectorAll('.spending-chart__slice')].map((slice) => slice.getAttribute('class'));
    expect(slices).toEqual(classes.map((name) => `spending-chart__slice ${name}`));
  });
});
