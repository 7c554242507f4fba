import type { CustomerSummary } from '@strongroom/contracts/staff-customers.ts';
import { statusWords } from '../status-words.ts';

/** Status by colour and by word, never colour alone. */
export function IdentityBadge({ status }: { status: CustomerSummary['identityStatus'] }) {
  return <span className={`customer-care__badge customer-care__badge--${status}`}>{statusWords[status]}</span>;
}

export function FrozenBadge({ frozen }: { frozen: boolean }) {
  return frozen ? <span className="customer-care__badge customer-care__badge--frozen">Frozen</span> : <span>Can move money</span>;
}
