import type { BankStatement } from '@strongroom/contracts/books.ts';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useActorInWords } from '../books/staff-names.ts';
import { formatBankDate } from '../disputes/dispute-words.ts';
import { useStatements } from './reconciliation-api.ts';

/** The table's columns; `who` names who imported each statement. */
function columnsOf(who: (id: string, email: string | null) => string): readonly TableColumn<BankStatement>[] {
  return [
    { key: 'day', header: 'As of', cell: (row) => formatBankDate(row.asOfDate) },
    {
      key: 'file',
      header: 'File',
      cell: (row) => (
        <>
          {row.fileName}
          <span className="ops-secondary">From {row.sender}</span>
        </>
      ),
    },
    { key: 'lines', header: 'Lines', numeric: true, cell: (row) => row.lineCount },
    { key: 'matched', header: 'Matched', numeric: true, cell: (row) => row.matchedCount },
    { key: 'exceptions', header: 'Exceptions', numeric: true, cell: (row) => row.exceptionCount },
    {
      key: 'imported',
      header: 'Imported',
      cell: (row) => (
        <>
          <time dateTime={row.importedAt}>{formatDateTime(row.importedAt)}</time>
          <span className="ops-secondary">By {who(row.importedBy, row.importedByEmail)}</span>
        </>
      ),
    },
  ];
}

/** The statements imported, newest first: how many lines each had, how many matched the ledger, how many did not. */
export function StatementsTable() {
  const statements = useStatements();
  const columns = columnsOf(useActorInWords());
  return (
    <section aria-labelledby="statements-title">
      <h2 id="statements-title">Statements imported</h2>
      {statements.isPending ? <LoadingLine>Loading the statements…</LoadingLine> : null}
      {statements.isError ? <LoadFailed title="The statements could not be loaded" query={statements} headingLevel={3} /> : null}
      {statements.data ? (
        <Table
          caption="Statements imported, newest first"
          captionHidden
          columns={columns}
          rows={statements.data.items}
          rowKey={(row) => row.id}
          empty="No statement imported yet. The sandbox imports one for each business day it settles."
        />
      ) : null}
    </section>
  );
}
