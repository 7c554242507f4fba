import type { CustomerSummary } from '@strongroom/contracts/staff-customers.ts';

const identityWords: Record<CustomerSummary['identityStatus'], string> = {
  not_submitted: 'Not submitted',
  submitted: 'Waiting for review',
  approved: 'Approved',
  rejected: 'Rejected',
};

/** Status by colour and by word, never colour alone. */
export function IdentityBadge({ status }: { status: CustomerSummary['identityStatus'] }) {
  return <span className={`customer-care__badge customer-care__badge--${status}`}>{identityWords[status]}</span>;
}

export function FrozenBadge({ frozen }: { frozen: boolean }) {
  return frozen ? <span className="customer-care__badge customer-care__badge--frozen">Frozen</span> : <span>Can move money</span>;
}
