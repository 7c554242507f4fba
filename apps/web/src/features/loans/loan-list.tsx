import { Link } from 'react-router';
import { ChevronRight } from 'lucide-react';
import type { Loan } from '@strongroom/contracts/loans.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { MoneyAmount } from '../../components/ui/money-amount.tsx';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { Fact, NextPayment } from './loan-facts.tsx';
import { LoanStatusBadge } from './loan-status-badge.tsx';

/** What a loan is, in a line: "Loan of $12,000.00" once approved, "Application for $15,000.00" before. */
export function loanTitle(loan: Loan): string {
  if (loan.amountCents !== null) return `Loan of ${formatMoney(loan.amountCents)}`;
  return `Application for ${formatMoney(loan.requestedAmountCents)}`;
}

function LoanFacts({ loan }: { loan: Loan }) {
  if (loan.status === 'active') {
    return (
      <dl className="loan-item__facts">
        <Fact term="Next payment">
          <NextPayment loan={loan} none="—" />
        </Fact>
        <Fact term="Balance owed">{loan.balanceCents !== null ? <MoneyAmount cents={loan.balanceCents} /> : '—'}</Fact>
      </dl>
    );
  }
  if (loan.status === 'submitted') return <p className="loan-item__note">Sent {formatDate(loan.createdAt)}; we tell you as soon as it is decided.</p>;
  if (loan.status === 'rejected') return <p className="loan-item__note">{loan.rejectionReason ?? 'This application was not approved.'}</p>;
  if (loan.status === 'offered') {
    return (
      <p className="loan-item__note">
        Approved: an offer waits for your answer{loan.offerExpiresAt ? ` until ${formatDateTime(loan.offerExpiresAt)}` : ''}. Nothing is paid until you accept.
      </p>
    );
  }
  if (loan.status === 'declined') return <p className="loan-item__note">You declined this offer. Nothing was paid.</p>;
  if (loan.status === 'expired') return <p className="loan-item__note">This offer expired without an answer. Nothing was paid.</p>;
  return <p className="loan-item__note">Repaid in full. Nothing more is owed.</p>;
}

/** The customer's loans and applications, newest first as the API lists them; each opens its loan page. */
export function LoanList({ loans }: { loans: readonly Loan[] }) {
  return (
    <ul className="loan-list">
      {loans.map((loan) => (
        <li key={loan.id} className="loan-item">
          <div className="loan-item__head">
            <Link to={`/loan/${encodeURIComponent(loan.id)}`} className="loan-item__link">
              {loanTitle(loan)}
              <ChevronRight aria-hidden="true" size={18} />
            </Link>
            <LoanStatusBadge status={loan.status} />
          </div>
          <LoanFacts loan={loan} />
        </li>
      ))}
    </ul>
  );
}
