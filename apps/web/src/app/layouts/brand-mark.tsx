import { Link } from 'react-router';
import { useBankIdentity } from '../../lib/bank-identity.ts';

/** The bank's mark: a vault door with a keyhole, the same drawing as the favicon. */
export function BrandMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false" className="brand-mark">
      <rect width="32" height="32" rx="8" fill="currentColor" />
      <circle cx="16" cy="16" r="9" fill="none" stroke="var(--color-on-accent)" strokeWidth="2.5" />
      <circle cx="16" cy="14" r="2.6" fill="var(--color-on-accent)" />
      <path d="M14.6 15.5h2.8l.9 5.5h-4.6z" fill="var(--color-on-accent)" />
    </svg>
  );
}

/** The bank's mark and name, as a link home: in the signed-in header, the onboarding header and the footer. */
export function BrandLink({ to, className }: { to: string; className: string }) {
  const { name } = useBankIdentity();
  return (
    <Link to={to} className={className}>
      <BrandMark size={28} />
      <span>{name}</span>
    </Link>
  );
}
