import type { Card } from '@strongroom/contracts/cards.ts';
import type { Loan } from '@strongroom/contracts/loans.ts';
import { MoneyAmount } from '../../../components/ui/money-amount.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import { statusWords } from '../status-words.ts';

const cardColumns: readonly TableColumn<Card>[] = [
  {
    key: 'card',
    header: 'Card',
    cell: (row) => `${row.type === 'credit' ? 'Credit' : 'Debit'} ${row.network === 'visa' ? 'Visa' : 'Mastercard'} •••• ${row.last4 || '----'}`,
  },
  { key: 'status', header: 'Status', cell: (row) => statusWords[row.status] },
  { key: 'limit', header: 'Limit', numeric: true, cell: (row) => <MoneyAmount cents={row.creditLimitCents ?? row.monthlyLimitCents} /> },
  { key: 'owed', header: 'Owed', numeric: true, cell: (row) => (row.type === 'credit' ? <MoneyAmount cents={row.balanceOwedCents ?? 0} /> : '—') },
];

const loanColumns: readonly TableColumn<Loan>[] = [
  { key: 'status', header: 'Status', cell: (row) => statusWords[row.status] },
  { key: 'principal', header: 'Principal', numeric: true, cell: (row) => <MoneyAmount cents={row.amountCents ?? row.requestedAmountCents} /> },
  { key: 'outstanding', header: 'Outstanding', numeric: true, cell: (row) => (row.balanceCents === null ? '—' : <MoneyAmount cents={row.balanceCents} />) },
  {
    key: 'next',
    header: 'Next instalment',
    cell: (row) =>
      row.nextDueDate && row.nextPaymentCents !== null ? (
        <>
          {row.nextDueDate}: <MoneyAmount cents={row.nextPaymentCents} />
        </>
      ) : (
        '—'
      ),
  },
];

/** The customer's cards (last four digits only; a credit card's limit and what it owes) and loans, on their page. */
export function CustomerProducts({ cards, loans }: { cards: readonly Card[]; loans: readonly Loan[] }) {
  return (
    <>
      <Table caption="Cards" columns={cardColumns} rows={cards} rowKey={(row) => row.id} empty="No cards." />
      <Table caption="Loans" columns={loanColumns} rows={loans} rowKey={(row) => row.id} empty="No loans." />
    </>
  );
}
