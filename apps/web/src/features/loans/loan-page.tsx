import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ArrowLeft, FileDown } from 'lucide-react';
import type { Disclosure, Loan, LoanDetailResponse, ScheduleLine } from '@strongroom/contracts/loans.ts';
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
import { Fact, NextPayment, TermFact } from './loan-facts.tsx';
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

const scheduleFormats = [
  { format: 'pdf', label: 'Download PDF' },
  { format: 'csv', label: 'Download CSV' },
] as const;

function ScheduleDownloads({ loanId }: { loanId: string }) {
  return (
    <ul className="loan-downloads">
      {scheduleFormats.map(({ format, label }) => (
        <li key={format}>
          <a className={buttonClassName({ variant: 'secondary', size: 'sm' })} href={loanScheduleUrl(loanId, format)} download>
            <FileDown aria-hidden="true" size={18} />
            {label}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** Where the loan stands, in words: waiting, declined, expired, not approved, or late. */
function LoanNotices({ loan, schedule }: { loan: Loan; schedule: readonly ScheduleLine[] }) {
  const lateCount = schedule.filter((line) => line.status === 'late').length;
  return (
    <>
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
    </>
  );
}

/** The Reg Z box, with a lead before an offer is accepted and before the first payment. */
function LoanCost({ loan, schedule, disclosure }: { loan: Loan; schedule: readonly ScheduleLine[]; disclosure: Disclosure }) {
  const nothingPaidYet = !schedule.some((line) => line.status === 'paid');
  // The box discloses the loan as made; once an early payment has shortened the schedule, the
  // sentence about the payments would no longer add up to the box's total, so it is left out.
  const scheduleAsDisclosed = schedule.reduce((total, line) => total + line.paymentCents, 0) === disclosure.totalOfPaymentsCents;
  return (
    <>
      {loan.status === 'offered' ? (
        <p className="loan-page__lead">Before you accept, here is what this loan would cost you, as the Truth in Lending Act asks us to tell you.</p>
      ) : loan.status === 'active' && nothingPaidYet ? (
        <p className="loan-page__lead">Before your first payment, here is what this loan costs you, as the Truth in Lending Act asks us to tell you.</p>
      ) : null}
      <DisclosureBox disclosure={disclosure} paymentSummary={scheduleAsDisclosed ? paymentSummary(schedule) : undefined} />
    </>
  );
}

/** An accepted loan's figures: what is owed, the next payment, the rate, the term, when it was paid out. */
function LoanFactsCard({ loan }: { loan: Loan }) {
  return (
    <Card as="section" className="loan-page__facts" aria-labelledby="loan-facts-title">
      <h2 id="loan-facts-title" className="loans__section-title">
        Your loan
      </h2>
      <dl className="loan-facts">
        <Fact term="Balance owed">
          <MoneyAmount cents={loan.balanceCents ?? 0} />
        </Fact>
        <Fact term="Next payment">
          <NextPayment loan={loan} none="None" />
        </Fact>
        <Fact term="Interest rate (APR)" className="tabular">
          {loan.aprBps !== null ? formatAprBps(loan.aprBps) : '—'}
        </Fact>
        <TermFact loan={loan} />
        <Fact term="Paid out">{loan.disbursedAt ? formatDate(loan.disbursedAt) : '—'}</Fact>
      </dl>
    </Card>
  );
}

function LoanDetail({ detail }: { detail: LoanDetailResponse }) {
  const { loan, schedule, disclosure } = detail;
  const [paidMessage, setPaidMessage] = useState<string | null>(null);
  return (
    <>
      <header className="loan-page__header">
        <h1>{loanTitle(loan)}</h1>
        <LoanStatusBadge status={loan.status} />
      </header>
      <LoanNotices loan={loan} schedule={schedule} />
      {disclosure ? <LoanCost loan={loan} schedule={schedule} disclosure={disclosure} /> : null}
      {paidMessage ? (
        <Notice tone="success" role="status">
          <p>{paidMessage}</p>
        </Notice>
      ) : null}
      {loan.status === 'offered' ? <LoanOffer detail={detail} onAnswered={setPaidMessage} /> : null}
      {loan.status === 'active' || loan.status === 'paid_off' ? <LoanFactsCard loan={loan} /> : null}
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
