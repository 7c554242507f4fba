import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ArrowLeft, Landmark } from 'lucide-react';
import { fundingSourceMaxLive, fundingSourceMessages, type FundingSource } from '@strongroom/contracts/funding-sources.ts';
import { PageMeta } from '../../../components/page-meta.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog.tsx';
import { useFundingSources } from './api/get-funding-sources.ts';
import { useRemoveFundingSource } from './api/remove-funding-source.ts';
import { FundingSourceItem } from './funding-source-item.tsx';
import { fundingSourceLabel, isLiveFundingSource } from './funding-source-words.ts';
import { LinkFundingSourceForm } from './link-funding-source-form.tsx';
import { WhereToFindDeposits } from './where-to-find-deposits.tsx';
import '../../../components/payment/payment.css';
import './funding-sources.css';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';

function LinkedNotice({ source }: { source: FundingSource }) {
  return (
    <Notice tone="success">
      <p>
        <strong>{fundingSourceLabel(source)} is linked.</strong> Two small deposits are on their way to it. When they arrive, enter both amounts below to verify
        the account; then you can deposit from it.
      </p>
      <WhereToFindDeposits />
    </Notice>
  );
}

/**
 * /deposit/sources, 'Your other banks' (docs/product.md section 6): the accounts at other banks a
 * deposit can pull from, each proved with two micro-deposits; link one, verify it, remove it.
 */
export default function FundingSourcesPage() {
  const sources = useFundingSources();
  const remove = useRemoveFundingSource();
  const toast = useToast();
  const [linked, setLinked] = useState<FundingSource | null>(null);
  const [pendingRemoval, setPendingRemoval] = useState<FundingSource | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const linkedRef = useRef<HTMLDivElement>(null);

  // After the code dialog has closed, what to do next is read first.
  useEffect(() => {
    if (linked) linkedRef.current?.focus();
  }, [linked]);

  const liveCount = sources.data?.items.filter(isLiveFundingSource).length ?? 0;
  // The news of a link lasts while it waits for its amounts: once verified or removed it is old news.
  const stillWaiting = (source: FundingSource) =>
    sources.data === undefined || sources.data.items.some((item) => item.id === source.id && item.status === 'pending_verification');
  const announced = linked && stillWaiting(linked) ? linked : null;

  function confirmRemoval() {
    if (!pendingRemoval) return;
    const source = pendingRemoval;
    remove.mutate(source.id, {
      onSuccess: () => {
        setPendingRemoval(null);
        toast.show(`${fundingSourceLabel(source)} was removed`);
      },
      onError: (error) => {
        setPendingRemoval(null);
        setRemoveError(error.message);
      },
    });
  }

  return (
    <div className="money-page funding-sources">
      <PageMeta title="Your other banks" description="The accounts at other banks you deposit from." noIndex />
      <header className="money-page__header">
        <Link to="/deposit" className="funding-sources__back">
          <ArrowLeft aria-hidden="true" size={18} />
          Deposit
        </Link>
        <h1>Your other banks</h1>
        <p>
          A deposit pulls money from an account you hold at another bank. Link that account here: we send it two small deposits, and you prove it is yours by
          telling us both amounts.
        </p>
      </header>

      {announced ? (
        <div ref={linkedRef} tabIndex={-1} className="funding-sources__linked" role="status">
          <LinkedNotice source={announced} />
        </div>
      ) : null}

      <LinkedAccounts announcedId={announced?.id} onRemove={setPendingRemoval} />

      <Card as="section" aria-labelledby="link-account-title" className="funding-sources__section">
        <h2 id="link-account-title" className="funding-sources__title">
          Link an account
        </h2>
        {liveCount >= fundingSourceMaxLive ? (
          <Notice tone="info">
            <p>{fundingSourceMessages.tooManyLive}</p>
          </Notice>
        ) : (
          <>
            <p className="funding-sources__lead">An account you hold at a bank in the United States. We send you a code to confirm it is you.</p>
            <LinkFundingSourceForm onLinked={setLinked} />
          </>
        )}
      </Card>

      <ConfirmDialog
        open={pendingRemoval !== null}
        title="Remove this account?"
        description={
          <>
            <p>{pendingRemoval ? fundingSourceLabel(pendingRemoval) : null} will no longer be offered for deposits.</p>
            <p>
              A deposit from it that is still on its way is not affected: it clears as usual. To deposit from this account again, link it and verify it again.
            </p>
          </>
        }
        confirmLabel="Remove"
        busy={remove.isPending}
        onCancel={() => setPendingRemoval(null)}
        onConfirm={confirmRemoval}
        confirmVariant="danger"
        size="sm"
      />
      <ErrorDialog title="The account was not removed" message={removeError} onClose={() => setRemoveError(null)} />
    </div>
  );
}

/** 'Linked accounts': each account at another bank, with its state and what to do next. */
function LinkedAccounts({ announcedId, onRemove }: { announcedId: string | undefined; onRemove: (source: FundingSource) => void }) {
  const sources = useFundingSources();
  return (
    <section aria-labelledby="linked-accounts-title" className="funding-sources__section">
      <h2 id="linked-accounts-title" className="funding-sources__title">
        Linked accounts
      </h2>
      {sources.isPending ? (
        <LoadingLine className="money-page__loading">Loading your other banks…</LoadingLine>
      ) : sources.isError ? (
        <LoadFailed title="We could not load your other banks" headingLevel={3} query={sources} />
      ) : sources.data.items.length === 0 ? (
        <EmptyState icon={<Landmark aria-hidden="true" size={28} />} title="No accounts linked yet" headingLevel={3}>
          <p>Link an account you hold at another bank below. Once it is verified, you can deposit from it.</p>
        </EmptyState>
      ) : (
        <ul className="funding-source-list">
          {sources.data.items.map((source) => (
            <FundingSourceItem key={source.id} source={source} announced={source.id === announcedId} onRemove={onRemove} />
          ))}
        </ul>
      )}
    </section>
  );
}
