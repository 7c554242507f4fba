import type { ScheduleLine } from '@strongroom/contracts/loans.ts';
import { MoneyAmount } from '../../components/ui/money-amount.tsx';
import { Table } from '../../components/ui/table.tsx';
import { useNarrowScreen } from '../../lib/use-narrow-screen.ts';
import { Fact } from './loan-facts.tsx';
import { formatCalendarDate } from './loan-format.ts';
import { InstalmentStatusBadge } from './loan-status-badge.tsx';

const scheduleName = 'Payment schedule';

/** The four amounts of an instalment, named as the table's columns name them. */
const scheduleFigures: readonly { term: string; cents: (line: ScheduleLine) => number }[] = [
  { term: 'Payment', cents: (line) => line.paymentCents },
  { term: 'Principal', cents: (line) => line.principalCents },
  { term: 'Interest', cents: (line) => line.interestCents },
  { term: 'Balance after', cents: (line) => line.balanceAfterCents },
];

function ScheduleTable({ schedule }: { schedule: readonly ScheduleLine[] }) {
  return (
    <Table
      caption={scheduleName}
      captionHidden
      columns={[
        { key: 'number', header: 'No.', numeric: true, cell: (line) => line.number },
        { key: 'due', header: 'Due date', cell: (line) => formatCalendarDate(line.dueDate) },
        { key: 'payment', header: 'Payment', numeric: true, cell: (line) => <MoneyAmount cents={line.paymentCents} /> },
        { key: 'principal', header: 'Principal', numeric: true, cell: (line) => <MoneyAmount cents={line.principalCents} /> },
        { key: 'interest', header: 'Interest', numeric: true, cell: (line) => <MoneyAmount cents={line.interestCents} /> },
        { key: 'balance', header: 'Balance after', numeric: true, cell: (line) => <MoneyAmount cents={line.balanceAfterCents} /> },
        { key: 'status', header: 'Status', cell: (line) => <InstalmentStatusBadge status={line.status} /> },
      ]}
      rows={schedule}
      rowKey={(line) => String(line.number)}
    />
  );
}

/**
 * Narrow screens: one card per payment, its number, due date and status on top and its four amounts
 * named beneath, so a phone shows all of it without a table that scrolls sideways.
 */
function ScheduleList({ schedule }: { schedule: readonly ScheduleLine[] }) {
  return (
    <ol className="loan-schedule-list" aria-label={scheduleName}>
      {schedule.map((line) => (
        <li key={line.number} className={`loan-schedule-list__item loan-schedule-list__item--${line.status}`}>
          <p className="loan-schedule-list__head">
            <span>
              No. {line.number}, due {formatCalendarDate(line.dueDate)}
            </span>
            <InstalmentStatusBadge status={line.status} />
          </p>
          <dl className="loan-schedule-list__figures">
            {scheduleFigures.map(({ term, cents }) => (
              <Fact key={term} term={term}>
                <MoneyAmount cents={cents(line)} />
              </Fact>
            ))}
          </dl>
        </li>
      ))}
    </ol>
  );
}

/** The loan's payments, paid, due and late: a table on wide screens, a list on a phone (as History does). */
export function LoanSchedule({ schedule }: { schedule: readonly ScheduleLine[] }) {
  return useNarrowScreen() ? <ScheduleList schedule={schedule} /> : <ScheduleTable schedule={schedule} />;
}
