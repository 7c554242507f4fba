import { useState } from 'react';
import { Download } from 'lucide-react';
import { buttonClassName } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { MoneyAmount } from '../../../components/ui/money-amount.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Table } from '../../../components/ui/table.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { achFileUrl, usePendingPayments } from './payments-api.ts';
import './payments-page.css';

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Outgoing payments pending at the ACH and wire rails (`payments.settle`), by expected settlement date. */
export default function PaymentsPage() {
  const [date, setDate] = useState('');
  const payments = usePendingPayments(date);
  const fileDate = date || today();
  return (
    <section aria-labelledby="payments-title">
      <h1 id="payments-title">Outgoing payments</h1>
      <div className="payments-toolbar">
        <TextField label="Expected settlement date" hint="Empty shows every day" type="date" value={date} onChange={(event) => setDate(event.target.value)} />
        <a className={buttonClassName({ variant: 'secondary' })} href={achFileUrl(fileDate)} download>
          <Download aria-hidden="true" size={18} />
          Download ACH file for {fileDate}
        </a>
      </div>
      {payments.isPending ? (
        <Spinner />
      ) : payments.isError ? (
        <LoadFailed title="We could not load the pending payments" query={payments} />
      ) : payments.data.items.length === 0 ? (
        <EmptyState title={date ? `No payments expected to settle on ${date}` : 'No payments pending at the rails'} />
      ) : (
        <>
          <p>
            {payments.data.total} pending{payments.data.nextCursor ? ` (the first ${payments.data.items.length} shown)` : ''}.
          </p>
          <Table
            caption="Payments pending at the rails, by expected settlement"
            captionHidden
            columns={[
              {
                key: 'settles',
                header: 'Expected settlement',
                cell: (item) => (item.expectedSettlementAt ? formatDateTime(item.expectedSettlementAt) : 'When the rail answers'),
              },
              { key: 'rail', header: 'Rail', cell: (item) => item.rail.toUpperCase() },
              { key: 'entry', header: 'Entry', cell: (item) => (item.entry === 'debit' ? 'Debit (deposit)' : 'Credit') },
              { key: 'customer', header: 'Customer', cell: (item) => item.customer.name },
              { key: 'counterparty', header: 'Counterparty', cell: (item) => item.counterparty },
              { key: 'trace', header: 'Trace number', cell: (item) => item.traceNumber ?? 'Not sent yet' },
              { key: 'amount', header: 'Amount', numeric: true, cell: (item) => <MoneyAmount cents={item.amountCents} /> },
            ]}
            rows={payments.data.items}
            rowKey={(item) => item.id}
          />
        </>
      )}
    </section>
  );
}
