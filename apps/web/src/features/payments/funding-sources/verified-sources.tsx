import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Landmark } from 'lucide-react';
import { fundingSourceMessages, type FundingSource } from '@strongroom/contracts/funding-sources.ts';
import { buttonClassName } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useFundingSources } from './api/get-funding-sources.ts';
import { fundingSourceLabel } from './funding-source-words.ts';

export interface VerifiedSourcesProps {
  /** The deposit form, once there is at least one verified account at another bank. */
  children: (sources: readonly FundingSource[]) => ReactNode;
}

/**
 * A deposit pulls from a verified account at another bank (decision 021). Without one, this says
 * so and leads to 'Your other banks' instead of showing a form the bank would refuse.
 */
export function VerifiedSources({ children }: VerifiedSourcesProps) {
  const sources = useFundingSources();
  if (sources.isPending) {
    return (
      <p className="money-page__loading" aria-busy="true">
        <Spinner size="sm" /> Loading your other banks…
      </p>
    );
  }
  if (sources.isError) return <LoadFailed title="We could not load your other banks" headingLevel={2} query={sources} />;
  const verified = sources.data.items.filter((source) => source.status === 'verified');
  if (verified.length > 0) return children(verified);
  const waiting = sources.data.items.find((source) => source.status === 'pending_verification');
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
