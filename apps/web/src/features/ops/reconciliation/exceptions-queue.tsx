import { useState } from 'react';
import { CheckCircle2 } from 'lucide-react';
import type { ReconciliationException } from '@strongroom/contracts/books.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { Button } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { MoneyAmount } from '../../../components/ui/money-amount.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import { formatBankDate } from '../disputes/dispute-words.ts';
import { QueueContent } from '../queue-content.tsx';
import { useExceptions, type ExceptionStatus } from './reconciliation-api.ts';
import { directionWords, exceptionKindShortWords, exceptionStateWords } from './reconciliation-words.ts';
import { ExceptionDetails } from './exception-cells.tsx';
import { ResolveExceptionDialog } from './resolve-exception-dialog.tsx';

const statusOptions = [
  { value: 'open', label: 'Open' },
  { value: 'resolved', label: 'Resolved' },
];

/** The exceptions queue (open first): every movement the bank and the ledger do not agree on, until staff resolve it with a reason. */
export function ExceptionsQueue() {
  const [status, setStatus] = useState<ExceptionStatus>('open');
  const [resolving, setResolving] = useState<ReconciliationException | null>(null);
  const exceptions = useExceptions(status);
  const items = exceptions.data?.pages.flatMap((page) => page.items) ?? [];
  const columns: TableColumn<ReconciliationException>[] = [
    {
      key: 'kind',
      header: 'Exception',
      cell: (row) => (
        <>
          {exceptionKindShortWords[row.kind]}
          <span className="ops-secondary">{exceptionStateWords(row)}</span>
        </>
      ),
    },
    { key: 'day', header: 'Day', cell: (row) => <span className="reconciliation__day">{formatBankDate(row.day)}</span> },
    { key: 'account', header: 'Account', cell: (row) => row.settlementAccountName },
    { key: 'direction', header: 'Direction', cell: (row) => directionWords[row.direction] },
    { key: 'amount', header: 'Amount', numeric: true, cell: (row) => <MoneyAmount cents={row.amountCents} /> },
    { key: 'details', header: 'Details', cell: (row) => <ExceptionDetails exception={row} /> },
    {
      key: 'resolve',
      header: <span className="visually-hidden">Action</span>,
      cell: (row) =>
        row.status === 'open' && !row.adjustmentId ? (
          <Button
            size="sm"
            variant="secondary"
            onClick={() => setResolving(row)}
            aria-label={`Resolve the ${formatMoney(row.amountCents)} exception of ${formatBankDate(row.day)}`}
          >
            Resolve
          </Button>
        ) : null,
    },
  ];
  return (
    <section aria-labelledby="exceptions-title">
      <div className="ops-section-heading">
        <h2 id="exceptions-title">Exceptions</h2>
        <SelectField
          label="Show"
          options={statusOptions}
          value={status}
          onChange={(event) => setStatus(event.target.value === 'resolved' ? 'resolved' : 'open')}
        />
      </div>
      <QueueContent
        query={exceptions}
        failedTitle="The exceptions could not be loaded"
        isEmpty={items.length === 0}
        empty={
          <EmptyState icon={<CheckCircle2 aria-hidden="true" />} title={status === 'open' ? 'No open exceptions' : 'No resolved exceptions'}>
            {status === 'open' ? 'Every movement the bank reported matches the ledger.' : 'Exceptions appear here once they are resolved.'}
          </EmptyState>
        }
      >
        {() => (
          <Table
            caption={status === 'open' ? 'Open exceptions, oldest first' : 'Resolved exceptions'}
            captionHidden
            columns={columns}
            rows={items}
            rowKey={(row) => row.id}
          />
        )}
      </QueueContent>
      {resolving ? <ResolveExceptionDialog exception={resolving} open={status === 'open' ? items : []} onClose={() => setResolving(null)} /> : null}
    </section>
  );
}
