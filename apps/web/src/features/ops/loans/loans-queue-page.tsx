import { useEffect, useRef, useState } from 'react';
import { Landmark } from 'lucide-react';
import { loanStatuses, maritalStatusLabels, type LoanStatus, type StaffLoan } from '@strongroom/contracts/loans.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { MoneyAmount } from '../../../components/ui/money-amount.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { waitingFor } from '../identity/waiting-time.ts';
import { LoanDecision } from './loan-decision.tsx';
import { formatAprPercent, formatRatioBps } from './loan-terms.ts';
import { useStaffLoans } from './loans-api.ts';
import { QueueContent } from '../queue-content.tsx';
import './loans.css';

const statusLabels: Readonly<Record<LoanStatus, string>> = {
  submitted: 'Waiting',
  offered: 'Offered',
  active: 'Accepted and paid out',
  declined: 'Declined by the customer',
  expired: 'Offer expired',
  rejected: 'Rejected',
  paid_off: 'Paid off',
};

function isMaritalStatus(value: string): value is keyof typeof maritalStatusLabels {
  return value in maritalStatusLabels;
}

function ApplicationDetail({ application, onDecided }: { application: StaffLoan; onDecided: () => void }) {
  const { loan } = application;
  const titleRef = useRef<HTMLHeadingElement>(null);
  // Opened from the list, the application takes the focus: a keyboard or screen-reader user lands on it.
  useEffect(() => titleRef.current?.focus(), []);
  return (
    <section aria-labelledby="loan-application-title" className="loan-application">
      <h2 id="loan-application-title" ref={titleRef} tabIndex={-1}>
        {application.customerName}: {formatMoney(loan.requestedAmountCents)} over {loan.durationMonths} months
      </h2>
      <div className="loan-application__facts">
        <dl>
          <dt>Customer</dt>
          <dd>
            {application.customerName} ({application.customerEmail})
          </dd>
          <dt>Purpose</dt>
          <dd>{loan.purpose}</dd>
          <dt>Occupation</dt>
          <dd>{loan.occupation}</dd>
          <dt>Marital status</dt>
          <dd>{isMaritalStatus(loan.maritalStatus) ? maritalStatusLabels[loan.maritalStatus] : loan.maritalStatus}</dd>
          <dt>Address</dt>
          <dd>{loan.address}</dd>
          <dt>Applied</dt>
          <dd>{formatDateTime(loan.createdAt)}</dd>
        </dl>
        <dl>
          <dt>Stated income</dt>
          <dd>
            <MoneyAmount cents={loan.annualIncomeCents} /> a year
          </dd>
          <dt>Into checking, last 90 days</dt>
          <dd>
            <MoneyAmount cents={application.recentIncomeCents} />
          </dd>
          <dt>Suggested payment</dt>
          <dd>
            <MoneyAmount cents={application.suggestedMonthlyPaymentCents} /> a month at {formatAprPercent(application.suggestedAprBps)}
          </dd>
          <dt>Debt to income</dt>
          <dd className="tabular">{formatRatioBps(application.debtToIncomeBps)} of stated monthly income</dd>
          {loan.status !== 'submitted' ? (
            <>
              <dt>Decided</dt>
              <dd>
                {application.decidedAt ? formatDateTime(application.decidedAt) : '—'} by {application.decidedBy ?? '—'}
              </dd>
              {loan.rejectionReason ? (
                <>
                  <dt>Reason</dt>
                  <dd>{loan.rejectionReason}</dd>
                </>
              ) : null}
              {loan.amountCents !== null && loan.aprBps !== null && loan.termMonths !== null ? (
                <>
                  <dt>Terms</dt>
                  <dd>
                    {formatMoney(loan.amountCents)} at {formatAprPercent(loan.aprBps)} over {loan.termMonths} months
                  </dd>
                </>
              ) : null}
              {loan.offerExpiresAt && (loan.status === 'offered' || loan.status === 'expired') ? (
                <>
                  <dt>{loan.status === 'offered' ? 'Offer lapses' : 'Offer lapsed'}</dt>
                  <dd>{formatDateTime(loan.offerExpiresAt)}</dd>
                </>
              ) : null}
            </>
          ) : null}
        </dl>
      </div>
      <Table
        caption="The customer's accounts"
        columns={[
          { key: 'type', header: 'Account', cell: (account) => account.type },
          { key: 'number', header: 'Number', cell: (account) => account.number },
          { key: 'available', header: 'Available', numeric: true, cell: (account) => <MoneyAmount cents={account.availableCents} /> },
        ]}
        rows={application.accounts}
        rowKey={(account) => account.id}
        empty="No accounts"
      />
      {loan.status === 'submitted' ? <LoanDecision key={loan.id} application={application} onDecided={onDecided} /> : null}
    </section>
  );
}

/** /ops/loans (loans.decide): applications waiting for a decision, oldest first; the decided ones by status. */
export default function LoansQueuePage() {
  const [status, setStatus] = useState<LoanStatus>('submitted');
  const loans = useStaffLoans(status);
  const items = loans.data?.pages.flatMap((page) => page.items) ?? [];
  const total = loans.data?.pages[0]?.total ?? 0;
  // The application as it was opened: once decided it leaves the list, and its detail (with the
  // decision's answer in the dialog) stays until the staff member is done with it.
  const [opened, setOpened] = useState<StaffLoan | null>(null);
  const selected = items.find((item) => item.loan.id === opened?.loan.id) ?? opened;

  const columns: readonly TableColumn<StaffLoan>[] = [
    {
      key: 'customer',
      header: 'Customer',
      // The name opens the application: the first column, so opening it never scrolls a narrow table sideways.
      cell: (item) => (
        <>
          <button
            type="button"
            className="loans-queue__open"
            onClick={() => setOpened(item)}
            aria-label={`Review ${item.customerName}'s application for ${formatMoney(item.loan.requestedAmountCents)}`}
          >
            {item.customerName}
          </button>
          <div className="ops-queue__secondary">{item.customerEmail}</div>
        </>
      ),
    },
    {
      key: 'amount',
      header: 'Requested',
      numeric: true,
      cell: (item) => (
        <>
          <MoneyAmount cents={item.loan.requestedAmountCents} />
          <div className="ops-queue__secondary">{item.loan.durationMonths} months</div>
        </>
      ),
    },
    { key: 'payment', header: 'Suggested payment', numeric: true, cell: (item) => <MoneyAmount cents={item.suggestedMonthlyPaymentCents} /> },
    { key: 'dti', header: 'Debt to income', numeric: true, cell: (item) => formatRatioBps(item.debtToIncomeBps) },
    {
      key: 'when',
      header: status === 'submitted' ? 'Waiting for' : status === 'offered' ? 'Offer lapses' : 'Decided',
      cell: (item) =>
        status === 'submitted'
          ? waitingFor(item.loan.createdAt)
          : status === 'offered'
            ? item.loan.offerExpiresAt
              ? formatDateTime(item.loan.offerExpiresAt)
              : '—'
            : item.decidedAt
              ? formatDateTime(item.decidedAt)
              : '—',
    },
  ];

  return (
    <section aria-labelledby="loans-queue-title" className="ops-queue loans-queue">
      <div className="ops-queue__header">
        <h1 id="loans-queue-title">Loan applications</h1>
        <SelectField
          label="Status"
          value={status}
          onChange={(event) => {
            const next = loanStatuses.find((value) => value === event.target.value);
            if (next) setStatus(next);
            setOpened(null);
          }}
          options={loanStatuses.map((value) => ({ value, label: statusLabels[value] }))}
        />
      </div>
      <QueueContent
        query={loans}
        failedTitle="The loan applications could not be loaded"
        isEmpty={items.length === 0}
        empty={
          <EmptyState
            icon={<Landmark aria-hidden="true" size={28} />}
            title={status === 'submitted' ? 'No loan applications are waiting' : 'Nothing here yet'}
          />
        }
      >
        {() => (
          <>
            <Table
              caption={`${total} ${statusLabels[status].toLowerCase()}${status === 'submitted' ? ', oldest first' : ''}`}
              columns={columns}
              rows={items}
              rowKey={(item) => item.loan.id}
            />
          </>
        )}
      </QueueContent>
      {selected ? <ApplicationDetail key={selected.loan.id} application={selected} onDecided={() => setOpened(null)} /> : null}
    </section>
  );
}
