import { useState } from 'react';
import type { LoanDetailResponse } from '@strongroom/contracts/loans.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { settlesSubmission, useSubmissionKey } from '../../lib/idempotency-key.ts';
import { useAcceptLoanOffer, useDeclineLoanOffer } from './api/loans-api.ts';
import { formatAprBps, formatMonths } from './loan-format.ts';

/** The words for a refusal: an offer that lapsed or was already answered says so plainly. */
function failureText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.code === 'offer_expired') return 'This offer has expired, so nothing was paid. You can apply again.';
  if (error instanceof ApiError && error.code === 'already_decided') return 'You have already answered this offer.';
  return error instanceof Error ? error.message : fallback;
}

/**
 * A loan offer (docs/decisions/058): the terms, the monthly payment and the moment the offer lapses,
 * with Accept and Decline. Each asks for a confirmation first. Accepting pays the money into
 * checking; its Idempotency-Key stays the same for a retry, so a retry pays once.
 */
export function LoanOffer({ detail, onAnswered }: { detail: LoanDetailResponse; onAnswered: (message: string) => void }) {
  const { loan, schedule, disclosure } = detail;
  const accept = useAcceptLoanOffer(loan.id);
  const decline = useDeclineLoanOffer(loan.id);
  const submissionKey = useSubmissionKey();
  const [confirming, setConfirming] = useState<'accept' | 'decline' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const amountCents = loan.amountCents ?? 0;
  const monthlyCents = schedule[0]?.paymentCents;
  const busy = accept.isPending || decline.isPending;

  async function onAccept() {
    setFailure(null);
    try {
      await accept.mutateAsync({ idempotencyKey: submissionKey.keyFor({ accept: loan.id }) });
      submissionKey.release();
      setConfirming(null);
      onAnswered(`You accepted the loan. ${formatMoney(amountCents)} was paid into your checking account.`);
    } catch (error) {
      if (error instanceof ApiError && (settlesSubmission(error) || error.code === 'offer_expired' || error.code === 'already_decided'))
        submissionKey.release();
      setConfirming(null);
      setFailure(failureText(error, 'The offer was not accepted'));
    }
  }

  async function onDecline() {
    setFailure(null);
    try {
      await decline.mutateAsync();
      setConfirming(null);
      onAnswered('You declined the offer. Nothing was paid.');
    } catch (error) {
      setConfirming(null);
      setFailure(failureText(error, 'The offer was not declined'));
    }
  }

  return (
    <Card as="section" className="loan-offer" aria-labelledby="loan-offer-title">
      <h2 id="loan-offer-title" className="loans__section-title">
        Your loan offer
      </h2>
      <p>
        Nothing is paid until you accept. If you accept, {formatMoney(amountCents)} is paid into your checking account at once and the first payment is due a
        month later. Read the cost and the schedule on this page first.
      </p>
      <dl className="loan-facts">
        <div>
          <dt>Amount</dt>
          <dd className="tabular">{formatMoney(amountCents)}</dd>
        </div>
        <div>
          <dt>Interest rate (APR)</dt>
          <dd className="tabular">{disclosure ? formatAprBps(disclosure.aprBps) : loan.aprBps !== null ? formatAprBps(loan.aprBps) : '—'}</dd>
        </div>
        <div>
          <dt>Monthly payment</dt>
          <dd className="tabular">{monthlyCents !== undefined ? formatMoney(monthlyCents) : '—'}</dd>
        </div>
        <div>
          <dt>Term</dt>
          <dd>{loan.termMonths !== null ? formatMonths(loan.termMonths) : '—'}</dd>
        </div>
        <div>
          <dt>Answer by</dt>
          <dd>{loan.offerExpiresAt ? formatDateTime(loan.offerExpiresAt) : '—'}</dd>
        </div>
      </dl>
      {failure ? (
        <Notice tone="error" role="alert">
          <p>{failure}</p>
        </Notice>
      ) : null}
      <div className="loan-offer__actions">
        <Button onClick={() => setConfirming('accept')} disabled={busy}>
          Accept offer
        </Button>
        <Button variant="secondary" onClick={() => setConfirming('decline')} disabled={busy}>
          Decline offer
        </Button>
      </div>
      {confirming === 'accept' ? (
        <Dialog
          open
          onClose={() => setConfirming(null)}
          dismissible={!accept.isPending}
          title={`Accept the loan of ${formatMoney(amountCents)}?`}
          description={`${formatMoney(amountCents)} is paid into your checking account now. You agree to repay it in ${schedule.length} monthly ${
            schedule.length === 1 ? 'payment' : 'payments'
          }${monthlyCents !== undefined ? ` of about ${formatMoney(monthlyCents)}` : ''}${
            disclosure ? `, ${formatMoney(disclosure.totalOfPaymentsCents)} in all` : ''
          }. This cannot be undone, but you can repay early at any time.`}
          footer={
            <>
              <Button variant="secondary" onClick={() => setConfirming(null)} disabled={accept.isPending}>
                Cancel
              </Button>
              <Button loading={accept.isPending} onClick={() => void onAccept()}>
                Accept and pay out {formatMoney(amountCents)}
              </Button>
            </>
          }
        />
      ) : null}
      {confirming === 'decline' ? (
        <Dialog
          open
          onClose={() => setConfirming(null)}
          dismissible={!decline.isPending}
          title="Decline this loan offer?"
          description="Nothing is paid and the offer ends. This cannot be undone; you can apply again later."
          footer={
            <>
              <Button variant="secondary" onClick={() => setConfirming(null)} disabled={decline.isPending}>
                Keep the offer
              </Button>
              <Button variant="danger" loading={decline.isPending} onClick={() => void onDecline()}>
                Decline offer
              </Button>
            </>
          }
        />
      ) : null}
    </Card>
  );
}
