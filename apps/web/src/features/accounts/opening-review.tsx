import type { ManagedAccount, OpenAccountRequest } from '@strongroom/contracts/account-management.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Product } from '@strongroom/contracts/products.ts';
import { Button } from '../../components/ui/button.tsx';
import { FactList, FactRow } from '../../components/ui/fact-list.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { settlesSubmission, useSubmissionKey } from '../../lib/idempotency-key.ts';
import { isApiError } from '../../lib/api-client.ts';
import { useOpenAccount } from '../../components/accounts/manage-account.ts';
import { monthlyFeeText, rateText } from '../../components/accounts/product-facts.ts';

interface OpeningReviewProps {
  product: Product;
  request: OpenAccountRequest;
  sourceLabel: string | null;
  onOpened: (account: ManagedAccount) => void;
  onBack: () => void;
}

/** Everything the opening will do, then "Open account"; a retry after no answer sends the same Idempotency-Key. */
export function OpeningReview({ product, request, sourceLabel, onOpened, onBack }: OpeningReviewProps) {
  const opening = useOpenAccount();
  const key = useSubmissionKey();
  const fromBank = request.fundingSourceId !== undefined;

  function open() {
    opening.mutate(
      { body: request, key: key.keyFor(request) },
      {
        onSuccess: (answer) => {
          key.release();
          onOpened(answer.account);
        },
        onError: (error) => {
          if (isApiError(error) && settlesSubmission(error)) key.release();
        },
      },
    );
  }

  return (
    <div className="open-account__form">
      <FactList>
        <FactRow term="Account type">{product.name}</FactRow>
        <FactRow term="Monthly fee">{monthlyFeeText(product)}</FactRow>
        <FactRow term="Interest">{rateText(product)}</FactRow>
        <FactRow term="Opening deposit">
          <span className="tabular">{formatMoney(request.openingDepositCents)}</span>
        </FactRow>
        {sourceLabel && request.openingDepositCents > 0 ? <FactRow term="From">{sourceLabel}</FactRow> : null}
      </FactList>
      {fromBank && request.openingDepositCents > 0 ? (
        <p>The deposit is pulled from your other bank and is available once it clears, in a few business days.</p>
      ) : null}
      {opening.error ? (
        <Notice tone="error" role="alert">
          {opening.error.message}
        </Notice>
      ) : null}
      <div className="open-account__actions">
        <Button variant="secondary" onClick={onBack} disabled={opening.isPending}>
          Back
        </Button>
        <Button onClick={open} loading={opening.isPending}>
          Open {product.name}
        </Button>
      </div>
    </div>
  );
}
