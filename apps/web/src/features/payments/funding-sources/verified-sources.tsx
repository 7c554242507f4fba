import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Landmark } from 'lucide-react';
import { fundingSourceMessages, type FundingSource } from '@strongroom/contracts/funding-sources.ts';
import { buttonClassName } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { useFundingSources } from './api/get-funding-sources.ts';
import { fundingSourceLabel } from './funding-source-words.ts';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';

export interface VerifiedSourcesProps {
  /** The deposit form, once there is at least one verified account at another bank. */
  children: (sources: readonly FundingSource[]) => ReactNode;
}

/** The customer's accounts at other banks, once loaded: while they load, or if they cannot be loaded, this says so. */
export function LoadedFundingSources({ children }: VerifiedSourcesProps) {
  const sources = useFundingSources();
  if (sources.isPending) {
    return <LoadingLine className="money-page__loading">Loading your other banks…</LoadingLine>;
  }
  if (sources.isError) return <LoadFailed title="We could not load your other banks" headingLevel={2} query={sources} />;
  return children(sources.data.items);
}

/**
 * A deposit pulls from a verified account at another bank (decision 021). Without one, this says
 * so and leads to 'Your other banks' instead of showing a form the bank would refuse.
 */
export function VerifiedSources({ children }: VerifiedSourcesProps) {
  return <LoadedFundingSources>{(items) => <VerifiedOrLead items={items}>{children}</VerifiedOrLead>}</LoadedFundingSources>;
}

function VerifiedOrLead({ items, children }: VerifiedSourcesProps & { items: readonly FundingSource[] }) {
  const verified = items.filter((source) => source.status === 'verified');
  if (verified.length > 0) return children(verified);
  const waiting = items.find((source) => source.status === 'pending_verification');
  return (
    <EmptyState
      icon={<Landmark aria-hidden="true" size={28} />}
      title={waiting ? 'Verify your account at another bank first' : 'No account to deposit from yet'}
      action={
        <Link to="/deposit/sources" className={buttonClassName({ variant: 'primary', size: 'lg' })}>
          {waiting ? 'Verify your account' : 'Link an account'}
        </Link>
      }
    >
      <p>{fundingSourceMessages.noFundingSource}</p>
      {waiting ? (
        <p>{fundingSourceLabel(waiting)} is waiting for you to enter its two small deposits.</p>
      ) : (
        <p>We send it two small deposits to prove it is yours; once you have told us both amounts, you can deposit from it.</p>
      )}
    </EmptyState>
  );
}
