import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { CircleCheck } from 'lucide-react';
import { buttonClassName } from '../../components/ui/button.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { DisputeDates } from './dispute-dates-facts.tsx';
import { formatBankDate } from './dispute-dates.ts';
import type { ReportOutcome } from './use-report-submission.ts';

/** The bank's answer: received on, the dates it gave, the card, and each file sent or refused (next to its name). */
export function ReportSent({ outcome }: { outcome: ReportOutcome }) {
  const { dispute, evidence } = outcome;
  const refused = evidence.some((item) => item.refusal !== null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => titleRef.current?.focus(), []);
  return (
    <section aria-labelledby="dispute-sent-title" className="dispute-sent">
      <h2 id="dispute-sent-title" className="dispute-sent__title" ref={titleRef} tabIndex={-1}>
        <CircleCheck aria-hidden="true" size={24} />
        Your report is sent
      </h2>
      <p>{`We received it on ${formatBankDate(dispute.receivedOn)} and are looking into it. We also sent you a letter saying so.`}</p>
      <DisputeDates dispute={dispute} className="dispute-sent__dates" />
      {dispute.cardReplaced ? <p>Your card is frozen and a new one is on its way.</p> : null}
      {evidence.length > 0 ? (
        <ul className="dispute-files" aria-label="Your files">
          {evidence.map(({ file, refusal }, index) => (
            <li key={`${file.name}-${index}`} className="dispute-files__item">
              <span className="dispute-files__name">{file.name}</span>
              {refusal ? <span className="dispute-files__refusal">Not sent: {refusal}</span> : <span className="dispute-files__sent">Sent</span>}
            </li>
          ))}
        </ul>
      ) : null}
      {refused ? (
        <Notice tone="error" role="alert">
          <p>Some files were not sent. Your report stands: you can add other files from it.</p>
        </Notice>
      ) : null}
      <div className="dispute-form__actions">
        <Link to={`/disputes/${encodeURIComponent(dispute.id)}`} className={buttonClassName({ variant: 'primary' })}>
          See your report
        </Link>
        <Link to="/disputes" className={buttonClassName({ variant: 'secondary' })}>
          All your reported problems
        </Link>
      </div>
    </section>
  );
}
