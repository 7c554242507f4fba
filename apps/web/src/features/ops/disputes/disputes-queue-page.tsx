import { useState } from 'react';
import { Link } from 'react-router';
import { Scale } from 'lucide-react';
import { disputeStatuses, type DisputeStatus, type StaffDispute } from '@strongroom/contracts/disputes.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { MoneyAmount } from '../../../components/ui/money-amount.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import { useStaffDisputes } from './disputes-api.ts';
import { disputeStatusWords, formatBankDate, nextDeadlineName } from './dispute-words.ts';
import './disputes.css';

const statusOptions = [{ value: '', label: 'Every status' }, ...disputeStatuses.map((value) => ({ value, label: disputeStatusWords[value] }))];

const isStatus = (value: string): value is DisputeStatus => (disputeStatuses as readonly string[]).includes(value);

const columns: readonly TableColumn<StaffDispute>[] = [
  {
    key: 'customer',
    header: 'Customer',
    cell: (row) => (
      <>
        <Link to={`/ops/disputes/${encodeURIComponent(row.id)}`}>{row.customer.name}</Link>
        <span className="ops-secondary">{row.customer.email}</span>
      </>
    ),
  },
  {
    key: 'transaction',
    header: 'Transaction',
    cell: (row) => (
      <>
        {row.transaction.description}
        <span className="ops-secondary">{formatBankDate(row.transaction.date)}</span>
      </>
    ),
  },
  { key: 'amount', header: 'Amount', numeric: true, cell: (row) => <MoneyAmount cents={row.amountCents} /> },
  {
    key: 'status',
    header: 'Status',
    cell: (row) => (
      <>
        {disputeStatusWords[row.status]}
        {row.pendingDecision ? <span className="ops-secondary">Decision waiting for a second person</span> : null}
      </>
    ),
  },
  {
    key: 'deadline',
    header: 'Next deadline',
    cell: (row) => (
      <>
        <time dateTime={row.nextDeadline}>{formatBankDate(row.nextDeadline)}</time>{' '}
        {row.overdue ? (
          <Badge tone="danger" strong>
            Overdue
          </Badge>
        ) : null}
        <span className="ops-secondary">{nextDeadlineName(row)}</span>
      </>
    ),
  },
];

/**
 * `/ops/disputes` (`disputes.manage`): customers' error notices under Regulation E, the nearest
 * deadline first as the server orders them, with a status filter (issue 34 item 3).
 */
export default function DisputesQueuePage() {
  const [status, setStatus] = useState<DisputeStatus | ''>('');
  const disputes = useStaffDisputes(status);
  const items = disputes.data?.items;
  return (
    <section aria-labelledby="disputes-title" className="ops-page disputes">
      <div className="ops-section-heading">
        <h1 id="disputes-title">Disputes</h1>
        <SelectField
          label="Status"
          options={statusOptions}
          value={status}
          onChange={(event) => setStatus(isStatus(event.target.value) ? event.target.value : '')}
        />
      </div>
      <p>
        Customers&rsquo; reports of transactions they did not make or did not get, nearest deadline first. The bank gives provisional credit by the first
        deadline unless the case is finished, and finishes by the second.
      </p>
      {disputes.isPending ? <LoadingLine>Loading the disputes…</LoadingLine> : null}
      {disputes.isError ? <LoadFailed title="The disputes could not be loaded" query={disputes} /> : null}
      {items?.length === 0 ? (
        <EmptyState icon={<Scale aria-hidden="true" />} title={status ? `No ${disputeStatusWords[status].toLowerCase()} cases` : 'No disputes'}>
          {status ? 'Choose another status to see other cases.' : 'When a customer reports a problem with a transaction, the case appears here.'}
        </EmptyState>
      ) : null}
      {items && items.length > 0 ? (
        <Table caption="Disputes, nearest deadline first" captionHidden columns={columns} rows={items} rowKey={(row) => row.id} />
      ) : null}
    </section>
  );
}
