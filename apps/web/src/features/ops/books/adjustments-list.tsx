import { useState } from 'react';
import { BookOpen } from 'lucide-react';
import { adjustmentStatuses, type Adjustment } from '@strongroom/contracts/books.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { Button } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { MoneyAmount } from '../../../components/ui/money-amount.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatBankDate } from '../disputes/dispute-words.ts';
import { useAdjustments, type AdjustmentStatus } from './books-api.ts';
import { AdjustmentDecisionDialog } from './adjustment-decision-dialog.tsx';
import { adjustmentStatusWords } from './books-words.ts';
import { actorInWords } from './staff-names.ts';

const statusOptions = [{ value: '', label: 'Every status' }, ...adjustmentStatuses.map((value) => ({ value, label: adjustmentStatusWords[value] }))];
const isStatus = (value: string): value is AdjustmentStatus => (adjustmentStatuses as readonly string[]).includes(value);

/** The adjusting entries, newest first, with Approve and Reject on one waiting for a second member (for those who may decide). */
export function AdjustmentsList({ canDecide, nameOf, myId }: { canDecide: boolean; nameOf: (key: string) => string; myId: string | undefined }) {
  // The one reading is "you", so an entry of one's own is plain to see (its approval needs someone else).
  const who = (staffId: string, email: string | null) => actorInWords(staffId, email, myId);
  const [status, setStatus] = useState<AdjustmentStatus | ''>('');
  const [deciding, setDeciding] = useState<{ adjustment: Adjustment; decision: 'approve' | 'reject' } | null>(null);
  const adjustments = useAdjustments(status);
  const items = adjustments.data?.items;
  const columns: TableColumn<Adjustment>[] = [
    {
      key: 'asked',
      header: 'Asked',
      cell: (row) => (
        <>
          <time dateTime={row.createdAt}>{formatDateTime(row.createdAt)}</time>
          <span className="ops-secondary">By {who(row.requestedBy, row.requestedByEmail)}</span>
        </>
      ),
    },
    {
      key: 'entry',
      header: 'Entry',
      cell: (row) => (
        <>
          Debit {nameOf(row.debitAccount)}
          <span className="ops-secondary">Credit {nameOf(row.creditAccount)}</span>
        </>
      ),
    },
    { key: 'amount', header: 'Amount', numeric: true, cell: (row) => <MoneyAmount cents={row.amountCents} /> },
    { key: 'day', header: 'Booked on', cell: (row) => (row.postedOn ? formatBankDate(row.postedOn) : 'The open day') },
    { key: 'reason', header: 'Reason', cell: (row) => row.reason },
    {
      key: 'status',
      header: 'Status',
      cell: (row) => (
        <>
          {adjustmentStatusWords[row.status]}
          {row.decidedBy ? <span className="ops-secondary">{`${who(row.decidedBy, row.decidedByEmail)}: ${row.decisionReason ?? ''}`}</span> : null}
        </>
      ),
    },
  ];
  if (canDecide)
    columns.push({
      key: 'decide',
      header: <span className="visually-hidden">Decision</span>,
      cell: (row) =>
        row.status === 'awaiting_approval' ? (
          <span className="books__actions">
            <Button size="sm" onClick={() => setDeciding({ adjustment: row, decision: 'approve' })} aria-label={`Approve ${formatMoney(row.amountCents)}`}>
              Approve
            </Button>
            <Button
              size="sm"
              variant="secondary"
              onClick={() => setDeciding({ adjustment: row, decision: 'reject' })}
              aria-label={`Reject ${formatMoney(row.amountCents)}`}
            >
              Reject
            </Button>
          </span>
        ) : null,
    });
  return (
    <section aria-labelledby="adjustments-list-title" className="books__list">
      <div className="ops-section-heading">
        <h2 id="adjustments-list-title">Entries asked for and posted</h2>
        <SelectField
          label="Status"
          options={statusOptions}
          value={status}
          onChange={(event) => setStatus(isStatus(event.target.value) ? event.target.value : '')}
        />
      </div>
      {adjustments.isPending ? <LoadingLine>Loading the adjusting entries…</LoadingLine> : null}
      {adjustments.isError ? <LoadFailed title="The adjusting entries could not be loaded" query={adjustments} /> : null}
      {items?.length === 0 ? (
        <EmptyState
          icon={<BookOpen aria-hidden="true" />}
          title={status ? `No entries: ${adjustmentStatusWords[status].toLowerCase()}` : 'No adjusting entries yet'}
        >
          {status ? 'Choose another status to see other entries.' : 'A correction of the books appears here once it is asked for.'}
        </EmptyState>
      ) : null}
      {items && items.length > 0 ? (
        <Table caption="Adjusting entries, newest first" captionHidden columns={columns} rows={items} rowKey={(row) => row.id} />
      ) : null}
      {deciding ? (
        <AdjustmentDecisionDialog
          {...deciding}
          nameOf={nameOf}
          requestedBy={who(deciding.adjustment.requestedBy, deciding.adjustment.requestedByEmail)}
          onClose={() => setDeciding(null)}
        />
      ) : null}
    </section>
  );
}
