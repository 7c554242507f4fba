import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MoneyAmount } from './money-amount.tsx';
import { Table } from './table.tsx';

interface Row {
  id: string;
  description: string;
  amountCents: number;
}

const rows: Row[] = [
  { id: 't1', description: 'Salary', amountCents: 250_000 },
  { id: 't2', description: 'Rent', amountCents: -120_000 },
];

describe('Table', () => {
  it('is named by its caption and right-aligns money in tabular figures, signed and coloured', () => {
    render(
      <Table
        caption="Recent transactions"
        columns={[
          { key: 'description', header: 'Description', cell: (row: Row) => row.description },
          { key: 'amount', header: 'Amount', numeric: true, cell: (row: Row) => <MoneyAmount cents={row.amountCents} signed /> },
        ]}
        rows={rows}
        rowKey={(row) => row.id}
      />,
    );
    const table = screen.getByRole('table', { name: 'Recent transactions' });
    expect(screen.getByRole('region', { name: 'Recent transactions' }).tabIndex).toBe(0);
    expect(within(table).getByRole('columnheader', { name: 'Amount' }).className).toBe('table__numeric');
    const moneyOut = within(table).getByText('-$1,200.00');
    expect(moneyOut.className).toContain('money-out');
    expect(moneyOut.closest('td')?.className).toBe('table__numeric');
    expect(within(table).getByText('+$2,500.00').className).toContain('money-in');
  });

  it('says so when there are no rows', () => {
    render(<Table caption="History" columns={[]} rows={[]} rowKey={() => ''} empty="No transactions yet" />);
    expect(screen.getByText('No transactions yet')).toBeTruthy();
  });
});
