import type { UseQueryResult } from '@tanstack/react-query';
import type { PayeeCheckResponse } from '@strongroom/contracts/payments.ts';
import { Button } from '../../components/ui/button.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';

export interface PayeeCheckNoticeProps {
  check: UseQueryResult<PayeeCheckResponse>;
  /** A close match: pay the name the account really has. */
  onUseName: (accountName: string) => void;
}

/** Confirmation of Payee: a payment here goes only to whom the customer means. */
export function PayeeCheckNotice({ check, onUseName }: PayeeCheckNoticeProps) {
  return (
    <div role="status" className="payee-check">
      <PayeeCheckResult check={check} onUseName={onUseName} />
    </div>
  );
}

function PayeeCheckResult({ check, onUseName }: PayeeCheckNoticeProps) {
  if (check.isPending) {
    return <LoadingLine className="money-page__loading">Checking the name on the account…</LoadingLine>;
  }
  if (check.isError) {
    return (
      <Notice tone="info">
        <p>We could not check the name on the account just now. Make sure the number and the name are right before you confirm.</p>
      </Notice>
    );
  }
  const { result, accountName } = check.data;
  if (result === 'match') {
    return (
      <Notice tone="success">
        <p>The name matches the account.</p>
      </Notice>
    );
  }
  if (result === 'close_match') {
    return (
      <Notice tone="info">
        <p>
          The name is close, but the account is in the name of <strong>{accountName}</strong>. Is that who you mean to pay?
        </p>
        {accountName ? (
          <Button variant="secondary" size="sm" onClick={() => onUseName(accountName)}>
            Use this name
          </Button>
        ) : null}
      </Notice>
    );
  }
  // No match, which is also the answer for a number no account has: the check never tells which.
  return (
    <Notice tone="error">
      <p>
        The name does not match the account. If you confirm, the money may go to someone else and we may not be able to get it back. Check the name and the
        account number with the person you are paying.
      </p>
    </Notice>
  );
}
