import { lineHeading } from '@strongroom/contracts/history-line.ts';
import type { Transaction } from '@strongroom/contracts/transactions.ts';
import { FactList, FactRow } from '../../components/ui/fact-list.tsx';
import { MoneyAmount } from '../../components/ui/money-amount.tsx';
import { TransactionDate, TransactionStatus } from '../../components/transactions/transaction-format.tsx';

/** The transaction a report is about, as History shows it. */
export function TransactionSummary({ transaction }: { transaction: Transaction }) {
  return (
    <FactList className="dispute-transaction">
      <FactRow term="Transaction">{lineHeading(transaction.party, transaction.description)}</FactRow>
      <FactRow term="Amount">
        <MoneyAmount cents={transaction.amountCents} signed />
      </FactRow>
      <FactRow term="Date">
        <TransactionDate createdAt={transaction.createdAt} />
      </FactRow>
      <FactRow term="Status">
        <TransactionStatus status={transaction.status} />
      </FactRow>
    </FactList>
  );
}
