import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ArrowLeft, FileDown } from 'lucide-react';
import type { LoanDetailResponse, ScheduleLine } from '@strongroom/contracts/loans.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { buttonClassName } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { MoneyAmount } from '../../components/ui/money-amount.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { isApiError } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/dates.ts';
import { loanScheduleUrl, useLoan } from './api/loans-api.ts';
import { DisclosureBox } from './disclosure-box.tsx';
import { formatAprBps, formatCalendarDate, formatMonths, lateCents, payoffCents } from './loan-format.ts';
import { loanTitle } from './loan-list.tsx';
import { LoanOffer } from './loan-offer.tsx';
import { LoanSchedule } from './loan-schedule.tsx';
import { LoanStatusBadge } from './loan-status-badge.tsx';
import { RepaymentForm } from './repayment-form.tsx';
import './loans.css';

/** "6 monthly payments of $17.25, the first on Jan 24, 2027": the schedule in one sentence, under the box. */
function paymentSummary(schedule: readonly ScheduleLine[]): string | undefined {
  const [first] = schedule;
  const last = schedule.at(-1);
  if (!first || !last) return undefined;
  const lastDiffers = last.paymentCents !== first.paymentCents;
  const regular = lastDiffers ? schedule.length - 1 : schedule.length;
  const lastText = lastDiffers ? `, and a final payment of ${formatMoney(last.paymentCents)} on ${formatCalendarDate(last.dueDate)}` : '';
  return `Payment schedule: ${regular} monthly ${regular === 1 ? 'payment' : 'payments'} of ${formatMoney(first.paymentCents)}, the first on ${formatCalendarDate(first.dueDate)}${lastText}.`;
}

function ScheduleDownloads({ loanId }: { loanId: string }) {
  return (
    <ul className="loan-downloads">
      <li>
        <a className={buttonClassName({ variant: 'secondary', size: 'sm' })} href={loanScheduleUrl(loanId, 'pdf')} download>
          <FileDown aria-hidden="true" size={18} />
          Download PDF
        </a>
      </li>
      <li>
        <a className={buttonClassName({ variant: 'secondary', size: 'sm' })} href={loanScheduleUrl(loanId, 'csv')} download>
          <FileDown aria-hidden="true" size={18} />
          Download CSV
        </a>
      </li>
    </ul>
  );
}

function LoanDetail({ detail }: { detail: LoanDetailResponse }) {
  const { loan, schedule, disclosure } = detail;
  const [paidMessage, setPaidMessage] = useState<string | null>(null);
  const nothingPaidYet = !schedule.some((line) => line.status === 'paid');
  const lateCount = schedule.filter((line) => line.status === 'late').length;
  // The box discloses the loan as made; once an early payment has shortened the schedule, the
  // sentence about the payments would no longer add up to the box's total, so it is left out.
  const scheduleAsDisclosed = disclosure !== null && schedule.reduce((total, line) => total + line.paymentCents, 0) === disclosure.totalOfPaymentsCents;
  return (
    <>
      <header className="loan-page__header">
        <h1>{loanTitle(loan)}</h1>
        <LoanStatusBadge status={loan.status} />
      </header>
      {loan.status === 'submitted' ? (
        <Notice>
          <p>
            Your application for {formatMoney(loan.requestedAmountCents)} over {formatMonths(loan.durationMonths)} is waiting for a decision. We tell you as
            soon as it is decided.
          </p>
        </Notice>
      ) : null}
      {loan.status === 'declined' ? (
        <Notice>
          <p>You declined this offer. Nothing was paid. You can apply for a new loan on the loans page.</p>
        </Notice>
      ) : null}
      {loan.status === 'expired' ? (
        <Notice>
          <p>
            This offer expired{loan.offerExpiresAt ? ` on ${formatDate(loan.offerExpiresAt)}` : ''} without an answer. Nothing was paid. You can apply again on
            the loans page.
          </p>
        </Notice>
      ) : null}
      {loan.status === 'rejected' ? (
        <Notice tone="error">
          <p>
            <strong>Your application was not approved.</strong> {loan.rejectionReason ?? ''}
          </p>
        </Notice>
      ) : null}
      {lateCount > 0 ? (
        <Notice tone="error">
          <p>
            {lateCount === 1 ? 'One payment is late' : `${lateCount} payments are late`} ({formatMoney(lateCents(schedule))}). We try again each day: keep
            enough money in your checking account, or pay below: a payment goes to the late amount first.
          </p>
        </Notice>
      ) : null}
      {disclosure ? (
        <>
          {loan.status === 'offered' ? (
            <p className="loan-page__lead">Before you accept, here is what this loan would cost you, as the Truth in Lending Act asks us to tell you.</p>
          ) : loan.status === 'active' && nothingPaidYet ? (
            <p className="loan-page__lead">Before your first payment, here is what this loan costs you, as the Truth in Lending Act asks us to tell you.</p>
          ) : null}
          <DisclosureBox disclosure={disclosure} paymentSummary={scheduleAsDisclosed ? paymentSummary(schedule) : undefined} />
        </>
      ) : null}
      {paidMessage ? (
        <Notice tone="success" role="status">
          <p>{paidMessage}</p>
        </Notice>
      ) : null}
      {loan.status === 'offered' ? <LoanOffer detail={detail} onAnswered={setPaidMessage} /> : null}
      {loan.status === 'active' || loan.status === 'paid_off' ? (
        <Card as="section" className="loan-page__facts" aria-labelledby="loan-facts-title">
          <h2 id="loan-facts-title" className="loans__section-title">
            Your loan
          </h2>
          <dl className="loan-facts">
            <div>
              <dt>Balance owed</dt>
              <dd>
                <MoneyAmount cents={loan.balanceCents ?? 0} />
              </dd>
            </div>
            <div>
              <dt>Next payment</dt>
              <dd>
                {loan.nextDueDate !== null && loan.nextPaymentCents !== null ? (
                  <>
                    <MoneyAmount cents={loan.nextPaymentCents} /> on {formatCalendarDate(loan.nextDueDate)}
                  </>
                ) : (
                  'None'
                )}
              </dd>
            </div>
            <div>
              <dt>Interest rate (APR)</dt>
              <dd className="tabular">{loan.aprBps !== null ? formatAprBps(loan.aprBps) : '—'}</dd>
            </div>
            <div>
              <dt>Term</dt>
              <dd>{loan.termMonths !== null ? formatMonths(loan.termMonths) : '—'}</dd>
            </div>
            <div>
              <dt>Paid out</dt>
              <dd>{loan.disbursedAt ? formatDate(loan.disbursedAt) : '—'}</dd>
            </div>
          </dl>
        </Card>
      ) : null}
      {loan.status === 'active' ? (
        <Card>
          <RepaymentForm loan={loan} payoffCents={payoffCents(schedule)} lateCents={lateCents(schedule)} onPaid={setPaidMessage} />
        </Card>
      ) : null}
      {schedule.length > 0 ? (
        <section className="loan-page__schedule" aria-labelledby="schedule-title">
          <div className="loan-page__schedule-head">
            <h2 id="schedule-title" className="loans__section-title">
              Payment schedule
            </h2>
            <ScheduleDownloads loanId={loan.id} />
          </div>
          <LoanSchedule schedule={schedule} />
        </section>
      ) : null}
    </>
  );
}

/** /loan/{id}: one loan's status, its Reg Z disclosure, the schedule, early payment and the schedule's files. */
export default function LoanPage() {
  const { id = '' } = useParams();
  const loan = useLoan(id);
  return (
    <div className="loans loan-page">
      <PageMeta title="Loan" description="Your loan: its cost, its schedule and early payment." noIndex />
      <p className="loans__back">
        <Link to="/loan">
          <ArrowLeft aria-hidden="true" size={18} />
          Loans
        </Link>
      </p>
      {loan.isPending ? (
        <p className="loans__loading" aria-busy="true">
          <Spinner size="sm" /> Loading your loan…
        </p>
      ) : loan.isError ? (
        isApiError(loan.error) && loan.error.status === 404 ? (
          <EmptyState title="We could not find this loan" headingLevel={1}>
            <p>It may have been mistyped. Your loans are listed on the loans page.</p>
          </EmptyState>
        ) : (
          <LoadFailed title="We could not load this loan" headingLevel={1} query={loan} />
        )
      ) : (
        <LoanDetail detail={loan.data} />
      )}
    </div>
  );
}
