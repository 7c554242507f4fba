import { useState, type MouseEvent } from 'react';
import { Download } from 'lucide-react';
import { achFileQuerySchema } from '@strongroom/contracts/staff-payments.ts';
import { Button, buttonClassName } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { MoneyAmount } from '../../../components/ui/money-amount.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Table } from '../../../components/ui/table.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { achFileUrl, useAchCreditsPending, usePendingPayments } from './payments-api.ts';
import './payments-page.css';

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The reason's rule is the API's; the API takes none from older clients, the console always asks. */
function reasonError(reason: string): string | undefined {
  const checked = achFileQuerySchema.shape.reason.safeParse(reason);
  return checked.success ? undefined : checked.error.issues[0]?.message;
}

/**
 * The NACHA file of a day's ACH credits, downloaded with the reason the audit log keeps (as the
 * CLI's `ach-file --reason`). A plain link, so the browser saves the file with the staff cookie;
 * a click without a valid reason stays on the page and says what is missing.
 */
function AchFileDownload({ date }: { date: string }) {
  const [reason, setReason] = useState('');
  const [showError, setShowError] = useState(false);
  const pending = useAchCreditsPending(date);
  const error = reasonError(reason);
  const label = `Download ACH file for ${date}`;
  const download = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!error) return;
    event.preventDefault();
    setShowError(true);
  };
  return (
    <div className="payments-ach">
      <TextField
        label="Reason for the download (kept in the audit log)"
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        error={showError ? error : undefined}
        maxLength={500}
        disabled={pending === false}
      />
      {pending ? (
        <a className={buttonClassName({ variant: 'secondary' })} href={achFileUrl(date, reason)} download onClick={download}>
          <Download aria-hidden="true" size={18} />
          {label}
        </a>
      ) : (
        <Button variant="secondary" disabled aria-describedby={pending === false ? 'payments-ach-nothing' : undefined}>
          <Download aria-hidden="true" size={18} />
          {label}
        </Button>
      )}
      {pending === false ? (
        <p id="payments-ach-nothing" className="payments-ach__nothing">
          Nothing is pending at the ACH rail for {date}: there is no file to download.
        </p>
      ) : null}
    </div>
  );
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
        <AchFileDownload key={fileDate} date={fileDate} />
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
