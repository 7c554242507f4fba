import { Link, useOutletContext } from 'react-router';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useStaffMe } from '../api/staff-session.ts';
import type { OpsOutletContext } from './ops-layout.tsx';

function QueueCount({ useCount }: { useCount: () => number | undefined }) {
  const count = useCount();
  return count === undefined ? <Spinner size="sm" /> : <span className="ops-overview__count">{count}</span>;
}

/** The console's first page: each queue this role may work on, with how many wait in it. */
export default function OverviewPage() {
  const me = useStaffMe();
  const { queues } = useOutletContext<OpsOutletContext>();
  if (!me.data) return null;
  const { staff } = me.data;
  return (
    <section aria-labelledby="ops-overview-title">
      <h1 id="ops-overview-title">Back office</h1>
      <p>
        Signed in as <strong>{staff.email}</strong>, role <strong>{staff.role}</strong>.
      </p>
      <h2>Queues</h2>
      {queues.length === 0 ? (
        <p>Your role has no queue to work on.</p>
      ) : (
        <ul className="ops-overview__queues">
          {queues.map((page) => (
            <li key={page.path}>
              <Link className="ops-overview__queue" to={`/ops/${page.path}`}>
                <span>{page.label}</span>
                <QueueCount useCount={page.useCount} />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
