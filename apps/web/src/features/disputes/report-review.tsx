import { useEffect, useRef } from 'react';
import { disputeReasonLabels } from '@strongroom/contracts/disputes.ts';
import type { Transaction } from '@strongroom/contracts/transactions.ts';
import { Button } from '../../components/ui/button.tsx';
import { FactList, FactRow } from '../../components/ui/fact-list.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { disputeErrorMessage } from './dispute-words.ts';
import { formatFileSize } from './evidence-check.ts';
import type { ReportChecked } from './report-form-schema.ts';
import { offersCardReplacement } from './report-fields.tsx';
import { TransactionSummary } from './transaction-summary.tsx';

interface ReportReviewProps {
  transaction: Transaction;
  values: ReportChecked;
  files: readonly File[];
  sending: boolean;
  error: unknown;
  onChange: () => void;
  onSend: () => void;
}

/** What happens next, before the report is sent: the dates themselves come in the bank's answer. */
function WhatHappensNext() {
  return (
    <section aria-labelledby="dispute-next-title" className="dispute-next">
      <h2 id="dispute-next-title">What happens next</h2>
      <ol>
        <li>We investigate: we look at the transaction, your description and your evidence, and we may ask you a question.</li>
        <li>
          If we have not finished by a date we give you when you send this report (10 business days, 20 for an account opened in the last 30 days), we put the
          amount back in your account as provisional credit while we go on.
        </li>
        <li>We finish by a second date we give you then (45 days; 90 for a new account or a card purchase), and we send you a letter with the result.</li>
      </ol>
    </section>
  );
}

/** The report as it will be sent, what happens next, and Send; a refusal (already reported, too late, not disputable) in words. */
export function ReportReview({ transaction, values, files, sending, error, onChange, onSend }: ReportReviewProps) {
  const refusal = error ? disputeErrorMessage(error) : null;
  const replaceCard = offersCardReplacement(transaction, values.reason) && values.replaceCard;
  const titleRef = useRef<HTMLHeadingElement>(null);
  // A new step: its heading takes the focus, so a keyboard or screen reader user starts there.
  useEffect(() => titleRef.current?.focus(), []);
  return (
    <div className="dispute-review">
      <h2 className="dispute-review__title" ref={titleRef} tabIndex={-1}>
        Check your report
      </h2>
      <TransactionSummary transaction={transaction} />
      <FactList>
        <FactRow term="What went wrong">{disputeReasonLabels[values.reason]}</FactRow>
        <FactRow term="What happened">
          <span className="dispute-review__text">{values.description}</span>
        </FactRow>
        {offersCardReplacement(transaction, values.reason) ? (
          <FactRow term="Your card">{replaceCard ? 'Frozen now, and a new one sent to you' : 'Left as it is'}</FactRow>
        ) : null}
        <FactRow term="Evidence">{files.length === 0 ? 'None' : files.map((file) => `${file.name} (${formatFileSize(file.size)})`).join(', ')}</FactRow>
      </FactList>
      <WhatHappensNext />
      {refusal ? (
        <Notice tone="error" role="alert">
          <p>{refusal.words}</p>
          {refusal.detail ? <p>{refusal.detail}</p> : null}
        </Notice>
      ) : null}
      <div className="dispute-form__actions">
        <Button variant="secondary" onClick={onChange} disabled={sending}>
          Change the report
        </Button>
        <Button onClick={onSend} loading={sending}>
          Send the report
        </Button>
      </div>
    </div>
  );
}
