import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { idTypeLabels } from '@strongroom/contracts/onboarding.ts';
import type { IdentityReview } from '@strongroom/contracts/staff-identity.ts';
import { usStateName } from '@strongroom/contracts/us-states.ts';
import { Button } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { documentUrl, profilePhotoUrl, useIdentityDecision, useIdentityReview, useRevealIdNumber } from './identity-api.ts';
import { identityStatusLabels } from './identity-queue-page.tsx';
import { ReasonDialog } from './reason-dialog.tsx';
import { DuplicatesTable, ReferralBonusPanel } from './shared-identity.tsx';
import { waitingFor } from './waiting-time.ts';
import './identity.css';

type Decision = 'approve' | 'reject';

/** '1985-06-15' -> 'June 15, 1985 (age 41)': staff compare it with the document, and see the age at once. */
function formatBirthDate(dateOfBirth: string): string {
  const [year = 0, month = 1, day = 1] = dateOfBirth.split('-').map(Number);
  const today = new Date();
  const birthdayPassed = today.getMonth() + 1 > month || (today.getMonth() + 1 === month && today.getDate() >= day);
  const age = today.getFullYear() - year - (birthdayPassed ? 0 : 1);
  const written = new Date(Date.UTC(year, month - 1, day)).toLocaleDateString('en-US', { timeZone: 'UTC', dateStyle: 'long' });
  return `${written} (age ${age})`;
}

function IdNumber({ review }: { review: IdentityReview }) {
  const reveal = useRevealIdNumber(review.id);
  const [asking, setAsking] = useState(false);
  const revealed = reveal.data?.idNumber;
  return (
    <>
      <span>{revealed ?? `•••• ${review.idNumberLast4}`}</span>{' '}
      {revealed ? null : (
        <Button variant="secondary" size="sm" onClick={() => setAsking(true)}>
          Reveal
        </Button>
      )}
      <ReasonDialog
        open={asking}
        title="Reveal the full ID number"
        description="The reveal is recorded in the audit log with your reason."
        confirmLabel="Reveal"
        pending={reveal.isPending}
        error={reveal.error?.message}
        onClose={() => setAsking(false)}
        onConfirm={(reason) => reveal.mutate(reason, { onSuccess: () => setAsking(false) })}
      />
    </>
  );
}

function DecisionPanel({ review }: { review: IdentityReview }) {
  const decide = useIdentityDecision(review.id);
  const [decision, setDecision] = useState<Decision | null>(null);
  if (review.status !== 'submitted') {
    return (
      <Notice tone={review.status === 'approved' ? 'success' : 'error'}>
        {identityStatusLabels[review.status]}
        {review.decidedAt ? ` on ${formatDateTime(review.decidedAt)}` : ''}
        {review.reason ? `: ${review.reason}` : ''}
      </Notice>
    );
  }
  return (
    <div className="ops-review__actions">
      <Button onClick={() => setDecision('approve')}>Approve</Button>
      <Button variant="danger" onClick={() => setDecision('reject')}>
        Reject
      </Button>
      <ReasonDialog
        open={decision !== null}
        title={decision === 'approve' ? 'Approve this identity?' : 'Reject this identity?'}
        description={
          decision === 'approve'
            ? "This opens the customer's accounts and tells them. It cannot be undone."
            : 'The customer is told your reason and asked to send a new document. It cannot be undone.'
        }
        confirmLabel={decision === 'approve' ? 'Approve' : 'Reject'}
        confirmVariant={decision === 'approve' ? 'primary' : 'danger'}
        pending={decide.isPending}
        error={decide.error instanceof ApiError && decide.error.code === 'already_decided' ? 'Someone already decided this review.' : decide.error?.message}
        onClose={() => {
          decide.reset();
          setDecision(null);
        }}
        onConfirm={(reason) => decision && decide.mutate({ decision, reason }, { onSuccess: () => setDecision(null) })}
      />
    </div>
  );
}

/**
 * /ops/identity/:reviewId: the document and photo beside what the customer entered, the customers
 * who share its phone, ID number or browser, the decision, and the referral bonus it pays.
 */
export default function IdentityReviewPage() {
  const { reviewId = '' } = useParams();
  const query = useIdentityReview(reviewId);
  if (query.isPending) return <Spinner />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.code === 'not_found') {
      return <EmptyState title="This identity review does not exist" headingLevel={1} action={<Link to="/ops/identity">Back to the identity queue</Link>} />;
    }
    return <LoadFailed title="The identity review could not be loaded" query={query} headingLevel={1} />;
  }
  const { review, duplicates, referralBonus } = query.data;
  return (
    <section aria-labelledby="identity-review-title" className="ops-review">
      <Link to="/ops/identity">Back to the identity queue</Link>
      <h1 id="identity-review-title">{review.name}</h1>
      <p>
        <span className={`ops-status ops-status--${review.status}`}>{identityStatusLabels[review.status]}</span> · submitted{' '}
        {formatDateTime(review.submittedAt)}
        {review.status === 'submitted' ? `, waiting for ${waitingFor(review.submittedAt)}` : ''}
      </p>
      <div className="ops-review__images">
        <figure>
          {review.hasDocument ? <img src={documentUrl(review.id)} alt={`Identity document of ${review.name}`} /> : <p>No document</p>}
          <figcaption>Identity document</figcaption>
        </figure>
        <figure>
          {review.hasProfilePhoto ? <img src={profilePhotoUrl(review.id)} alt={`Profile photo of ${review.name}`} /> : <p>No profile photo yet</p>}
          <figcaption>Profile photo</figcaption>
        </figure>
      </div>
      <h2>What the customer entered</h2>
      <dl className="ops-review__fields">
        <dt>Email</dt>
        <dd>{review.email}</dd>
        <dt>{review.idType ? idTypeLabels[review.idType] : 'ID number'}</dt>
        <dd>
          <IdNumber review={review} />
        </dd>
        <dt>Date of birth</dt>
        <dd>{review.dateOfBirth ? formatBirthDate(review.dateOfBirth) : 'Not asked (sent before dates of birth were)'}</dd>
        <dt>Country</dt>
        <dd>{review.country}</dd>
        <dt>Address</dt>
        <dd className="ops-review__address">
          {review.address}
          {'\n'}
          {[review.city, [usStateName(review.state), review.zipCode].filter(Boolean).join(' ')].filter(Boolean).join(', ')}
        </dd>
      </dl>
      <h2>Shared with other customers</h2>
      <DuplicatesTable duplicates={duplicates} />
      <h2>Decision</h2>
      <DecisionPanel review={review} />
      {referralBonus ? (
        <>
          <h2>Referral bonus</h2>
          <ReferralBonusPanel bonus={referralBonus} />
        </>
      ) : null}
    </section>
  );
}
