import { Link } from 'react-router';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { useStaffMe } from '../api/staff-session.ts';
import { useBooksAccounts, useBooksDays } from './books-api.ts';
import { AdjustmentForm } from './adjustment-form.tsx';
import { AdjustmentsList } from './adjustments-list.tsx';
import './books.css';

/**
 * `/ops/books/adjustments` (`books.read` to read, `books.adjust` to post and decide): corrections of
 * the books between the bank's own accounts, booked on the open day, four eyes above a threshold
 * (issue 35 item 3; docs/books.md, "Adjusting entries").
 */
export default function AdjustmentsPage() {
  const staff = useStaffMe().data?.staff;
  const permissions = staff?.permissions ?? [];
  const canAdjust = permissions.includes('books.adjust');
  const accounts = useBooksAccounts();
  const days = useBooksDays();
  const adjustable = accounts.data?.adjustable ?? [];
  const nameOf = (key: string) => adjustable.find((account) => account.key === key)?.name ?? key;
  return (
    <section aria-labelledby="adjustments-title" className="ops-page books">
      <h1 id="adjustments-title">Adjusting entries</h1>
      <p>
        A closed day never changes: a correction is an entry between two of the bank&rsquo;s own accounts, booked on the open day with a reason. See its effect
        in the <Link to="/ops/books">books</Link>.
      </p>
      {canAdjust && accounts.isPending ? <LoadingLine>Loading the accounts…</LoadingLine> : null}
      {canAdjust && accounts.isError ? <LoadFailed title="The accounts could not be loaded" query={accounts} /> : null}
      {canAdjust && accounts.data ? <AdjustmentForm accounts={adjustable} openDay={days.data?.openDay} /> : null}
      <AdjustmentsList canDecide={canAdjust} nameOf={nameOf} myId={staff?.id} />
    </section>
  );
}
