import { useState } from 'react';
import { Link } from 'react-router';
import { loanMessages, type Loan } from '@strongroom/contracts/loans.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { NoAccountNotice } from '../../components/no-account-notice.tsx';
import { PageMeta } from '../../components/page-meta.tsx';
import { Card } from '../../components/ui/card.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useAccounts } from '../../lib/api/get-accounts.ts';
import { useMe } from '../../lib/api/get-me.ts';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { useLoans } from './api/loans-api.ts';
import { LoanApplicationForm } from './loan-application-form.tsx';
import { formatMonths } from './loan-format.ts';
import { LoanList } from './loan-list.tsx';
import './loans.css';

/** One open application at a time: while it waits, it is shown in place of a second form. */
function OpenApplication({ application }: { application: Loan }) {
  return (
    <Card as="section" className="loan-open" aria-labelledby="open-application-title">
      <h2 id="open-application-title" className="loans__section-title">
        Your application is waiting for a decision
      </h2>
      <p>
        {formatMoney(application.requestedAmountCents)} over {formatMonths(application.durationMonths)}, sent {formatDate(application.createdAt)}. We tell you
        by notification as soon as it is decided; this page updates by itself.
      </p>
      <p className="loan-open__hint">You can apply again once this application is decided.</p>
    </Card>
  );
}

/** An offer waits for the customer's answer: it is shown in place of a new application (decision 058). */
function OpenOffer({ offer }: { offer: Loan }) {
  return (
    <Card as="section" className="loan-open" aria-labelledby="open-offer-title">
      <h2 id="open-offer-title" className="loans__section-title">
        Your loan offer is waiting for your answer
      </h2>
      <p>
        We offer you {formatMoney(offer.amountCents ?? 0)} over {formatMonths(offer.termMonths ?? offer.durationMonths)}. Nothing is paid until you accept.
        {offer.offerExpiresAt ? ` Answer by ${formatDateTime(offer.offerExpiresAt)}; after that the offer expires.` : ''}
      </p>
      <p>
        <Link to={`/loan/${encodeURIComponent(offer.id)}`}>Read the offer, then accept or decline it</Link>
      </p>
    </Card>
  );
}

/**
 * /loan: the customer's loans (status, next payment, balance owed) above the application form, or
 * above the application that is waiting. A decision arrives as a notification, whose live event
 * refreshes the list (lib/query-keys.ts), so the page changes without a reload. A loan is paid into
 * the checking account: without one, the page says why there is none instead of a form the bank
 * would refuse.
 */
export default function LoansPage() {
  const loans = useLoans();
  const me = useMe();
  const accounts = useAccounts();
  // Accounts that could not be loaded do not hide the form: the server checks for a checking account again.
  const noCheckingAccount = accounts.data !== undefined && !accounts.data.some((account) => account.type === 'checking');
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const open = loans.data?.find((loan) => loan.status === 'submitted');
  const offer = loans.data?.find((loan) => loan.status === 'offered');

  return (
    <div className="loans">
      <PageMeta title="Loans" description="Your loans, and an application for a new one." noIndex />
      <header className="loans__header">
        <h1>Loans</h1>
        <p>Your loans and applications, and what you owe on each.</p>
      </header>
      {notice ? (
        <Notice tone={notice.tone} role={notice.tone === 'error' ? 'alert' : 'status'}>
          <p>{notice.text}</p>
        </Notice>
      ) : null}
      {loans.isPending || me.isPending || accounts.isPending ? (
        <p className="loans__loading" aria-busy="true">
          <Spinner size="sm" /> Loading your loans…
        </p>
      ) : loans.isError ? (
        <LoadFailed title="We could not load your loans" headingLevel={2} query={loans} />
      ) : (
        <>
          <section aria-labelledby="your-loans-title" className="loans__section">
            <h2 id="your-loans-title" className="loans__section-title">
              Your loans
            </h2>
            {loans.data.length === 0 ? (
              <p className="loans__empty">You have no loans yet. Apply below: it takes a few minutes.</p>
            ) : (
              <LoanList loans={loans.data} />
            )}
          </section>
          {open ? (
            <OpenApplication application={open} />
          ) : offer ? (
            <OpenOffer offer={offer} />
          ) : noCheckingAccount ? (
            <NoAccountNotice />
          ) : me.data ? (
            <Card className="loans__form-card">
              <LoanApplicationForm
                customer={me.data.user}
                onSent={() => setNotice({ tone: 'success', text: loanMessages.sent })}
                onAlreadyOpen={() => setNotice({ tone: 'error', text: loanMessages.applicationOpen })}
              />
            </Card>
          ) : (
            <LoadFailed title="We could not load your profile" headingLevel={2} query={me} />
          )}
        </>
      )}
    </div>
  );
}
