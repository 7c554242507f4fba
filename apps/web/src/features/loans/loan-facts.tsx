import type { ReactNode } from 'react';
import type { Loan } from '@strongroom/contracts/loans.ts';
import { MoneyAmount } from '../../components/ui/money-amount.tsx';
import { formatCalendarDate, formatMonths } from './loan-format.ts';

/** One named figure of a `<dl>`: the name, then the value. */
export function Fact({ term, className, children }: { term: string; className?: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}

/** The next instalment of an active loan, "$17.25 on Jan 24, 2027", or `none` when nothing is due. */
export function NextPayment({ loan, none }: { loan: Loan; none: string }) {
  if (loan.nextDueDate === null || loan.nextPaymentCents === null) return none;
  return (
    <>
      <MoneyAmount cents={loan.nextPaymentCents} /> on {formatCalendarDate(loan.nextDueDate)}
    </>
  );
}

/** The loan's term in months, once it has one. */
export function TermFact({ loan }: { loan: Loan }) {
  return <Fact term="Term">{loan.termMonths !== null ? formatMonths(loan.termMonths) : '—'}</Fact>;
}
