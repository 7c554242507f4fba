import { useState } from 'react';
import { Link } from 'react-router';
import { IdCard } from 'lucide-react';
import { identityReviewStatuses, type IdentityReview, type IdentityReviewStatus } from '@strongroom/contracts/staff-identity.ts';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import { formatDateTime, machineDateTime } from '../../../lib/dates.ts';
import { useIdentityReviews } from './identity-api.ts';
import { waitingFor } from './waiting-time.ts';
import { QueueContent } from '../queue-content.tsx';
import './identity.css';

export const identityStatusLabels: Record<IdentityReviewStatus, string> = { submitted: 'Waiting', approved: 'Approved', rejected: 'Rejected' };

const columns: readonly TableColumn<IdentityReview>[] = [
  {
    key: 'customer',
    header: 'Customer',
    cell: (review) => (
      <>
        <Link to={`/ops/identity/${review.id}`}>{review.name}</Link>
        <div className="ops-queue__secondary">{review.email}</div>
      </>
    ),
  },
  { key: 'submitted', header: 'Submitted', cell: (review) => <time dateTime={machineDateTime(review.submittedAt)}>{formatDateTime(review.submittedAt)}</time> },
  {
    key: 'waiting',
    header: 'Waiting for',
    cell: (review) => (review.status === 'submitted' ? waitingFor(review.submittedAt) : `decided ${review.decidedAt ? formatDateTime(review.decidedAt) : ''}`),
  },
  {
    key: 'status',
    header: 'Status',
    cell: (review) => <span className={`ops-status ops-status--${review.status}`}>{identityStatusLabels[review.status]}</span>,
  },
];

/** /ops/identity: identity documents waiting for a decision, the longest wait first. */
export default function IdentityQueuePage() {
  const [status, setStatus] = useState<IdentityReviewStatus>('submitted');
  const reviews = useIdentityReviews(status);
  const rows = reviews.data?.pages.flatMap((page) => page.items) ?? [];
  const total = reviews.data?.pages[0]?.total;
  return (
    <section aria-labelledby="identity-queue-title" className="ops-queue">
      <div className="ops-queue__header">
        <h1 id="identity-queue-title">Identity reviews</h1>
        <SelectField
          label="Status"
          value={status}
          onChange={(event) => setStatus(event.target.value as IdentityReviewStatus)}
          options={identityReviewStatuses.map((value) => ({ value, label: identityStatusLabels[value] }))}
        />
      </div>
      <QueueContent
        query={reviews}
        failedTitle="The identity reviews could not be loaded"
        isEmpty={rows.length === 0}
        empty={
          <EmptyState
            icon={<IdCard aria-hidden="true" size={28} />}
            title={status === 'submitted' ? 'No identity documents are waiting' : 'Nothing here yet'}
          />
        }
      >
        {() => (
          <>
            <Table
              caption={`${total ?? rows.length} ${identityStatusLabels[status].toLowerCase()}`}
              columns={columns}
              rows={rows}
              rowKey={(review) => review.id}
            />
          </>
        )}
      </QueueContent>
    </section>
  );
}
