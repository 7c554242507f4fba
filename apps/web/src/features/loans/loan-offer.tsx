import { useState } from 'react';
import type { Loan, LoanDetailResponse } from '@strongroom/contracts/loans.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { ConfirmDialog } from '../../components/forms/confirm-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { settlesSubmission, useSubmissionKey } from '../../lib/idempotency-key.ts';
import { useAcceptLoanOffer, useDeclineLoanOffer } from './api/loans-api.ts';
import { Fact, TermFact } from './loan-facts.tsx';
import { formatAprBps } from './loan-format.ts';

/** The words for a refusal: an offer that lapsed or was already answered says so plainly. */
function failureText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.code === 'offer_expired') return 'This offer has expired, so nothing was paid. You can apply again.';
  if (error instanceof ApiError && error.code === 'already_decided') return 'You have already answered this offer.';
  return error instanceof Error ? error.message : fallback;
}

/** Accepting and declining, each after a confirmation; a refusal is kept to show in words. */
function useOfferAnswers(loan: Loan, onAnswered: (message: string) => void) {
  const accept = useAcceptLoanOffer(loan.id);
  const decline = useDeclineLoanOffer(loan.id);
  const submissionKey = useSubmissionKey();
  const [confirming, setConfirming] = useState<'accept' | 'decline' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function onAccept() {
    setFailure(null);
    try {
      await accept.mutateAsync({ idempotencyKey: submissionKey.keyFor({ accept: loan.id }) });
      submissionKey.release();
      setConfirming(null);
      onAnswered(`You accepted the loan. ${formatMoney(loan.amountCents ?? 0)} was paid into your checking account.`);
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

  return { accept, decline, confirming, setConfirming, failure, onAccept, onDecline };
}

/** The offer's terms: amount, rate, monthly payment, term and the moment it lapses. */
function OfferTerms({ detail }: { detail: LoanDetailResponse }) {
  const { loan, schedule, disclosure } = detail;
  const monthlyCents = schedule[0]?.paymentCents;
  return (
    <dl className="loan-facts">
      <Fact term="Amount" className="tabular">
        {formatMoney(loan.amountCents ?? 0)}
      </Fact>
      <Fact term="Interest rate (APR)" className="tabular">
        {disclosure ? formatAprBps(disclosure.aprBps) : loan.aprBps !== null ? formatAprBps(loan.aprBps) : '—'}
      </Fact>
      <Fact term="Monthly payment" className="tabular">
        {monthlyCents !== undefined ? formatMoney(monthlyCents) : '—'}
      </Fact>
      <TermFact loan={loan} />
      <Fact term="Answer by">{loan.offerExpiresAt ? formatDateTime(loan.offerExpiresAt) : '—'}</Fact>
    </dl>
  );
}

/** What accepting agrees to, in a sentence: the payments and their total. */
function acceptDescription({ loan, schedule, disclosure }: LoanDetailResponse): string {
  const amountCents = loan.amountCents ?? 0;
  const monthlyCents = schedule[0]?.paymentCents;
  return `${formatMoney(amountCents)} is paid into your checking account now. You agree to repay it in ${schedule.length} monthly ${
    schedule.length === 1 ? 'payment' : 'payments'
  }${monthlyCents !== undefined ? ` of about ${formatMoney(monthlyCents)}` : ''}${
    disclosure ? `, ${formatMoney(disclosure.totalOfPaymentsCents)} in all` : ''
  }. This cannot be undone, but you can repay early at any time.`;
}

/**
 * A loan offer (docs/decisions/058): the terms, the monthly payment and the moment the offer lapses,
 * with Accept and Decline. Each asks for a confirmation first. Accepting pays the money into
 * checking; its Idempotency-Key stays the same for a retry, so a retry pays once.
 */
export function LoanOffer({ detail, onAnswered }: { detail: LoanDetailResponse; onAnswered: (message: string) => void }) {
  const { loan } = detail;
  const { accept, decline, confirming, setConfirming, failure, onAccept, onDecline } = useOfferAnswers(loan, onAnswered);
  const amountCents = loan.amountCents ?? 0;
  const busy = accept.isPending || decline.isPending;

  return (
    <Card as="section" className="loan-offer" aria-labelledby="loan-offer-title">
      <h2 id="loan-offer-title" className="loans__section-title">
        Your loan offer
      </h2>
      <p>
        Nothing is paid until you accept. If you accept, {formatMoney(amountCents)} is paid into your checking account at once and the first payment is due a
        month later. Read the cost and the schedule on this page first.
      </p>
      <OfferTerms detail={detail} />
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
        <ConfirmDialog
          title={`Accept the loan of ${formatMoney(amountCents)}?`}
          description={acceptDescription(detail)}
          confirmLabel={<>Accept and pay out {formatMoney(amountCents)}</>}
          busy={accept.isPending}
          onConfirm={() => void onAccept()}
          onCancel={() => setConfirming(null)}
        />
      ) : null}
      {confirming === 'decline' ? (
        <ConfirmDialog
          title="Decline this loan offer?"
          description="Nothing is paid and the offer ends. This cannot be undone; you can apply again later."
          cancelLabel="Keep the offer"
          confirmLabel="Decline offer"
          confirmVariant="danger"
          busy={decline.isPending}
          onConfirm={() => void onDecline()}
          onCancel={() => setConfirming(null)}
        />
      ) : null}
    </Card>
  );
}
