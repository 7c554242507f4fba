import type { ReactNode } from 'react';
import type { Disclosure } from '@strongroom/contracts/loans.ts';
import { MoneyAmount } from '../../components/ui/money-amount.tsx';
import { formatAprBps } from './loan-format.ts';

interface DisclosureBoxProps {
  disclosure: Disclosure;
  /** The number of payments and the first one's size and date, for the line under the box. */
  paymentSummary?: string;
}

interface DisclosureCellProps {
  term: string;
  /** The regulation's words for the figure. */
  words: string;
  /** APR and finance charge stand out from the other two. */
  conspicuous?: boolean;
  tabular?: boolean;
  children: ReactNode;
}

function DisclosureCell({ term, words, conspicuous = false, tabular = false, children }: DisclosureCellProps) {
  return (
    <div className={conspicuous ? 'disclosure__cell disclosure__cell--key' : 'disclosure__cell'}>
      <dt>{term}</dt>
      <dd className={tabular ? 'disclosure__figure tabular' : 'disclosure__figure'}>{children}</dd>
      <dd className="disclosure__words">{words}</dd>
    </div>
  );
}

/**
 * The Truth in Lending box (Reg Z 1026.18): the four figures, each with the words the regulation
 * gives it, APR and finance charge set apart as 1026.17(a)(2) asks ("more conspicuous").
 */
export function DisclosureBox({ disclosure, paymentSummary }: DisclosureBoxProps) {
  return (
    <section className="disclosure" aria-labelledby="disclosure-title">
      <h2 id="disclosure-title" className="disclosure__title">
        Truth in Lending disclosure
      </h2>
      <dl className="disclosure__grid">
        <DisclosureCell term="Annual percentage rate" words="The cost of your credit as a yearly rate." conspicuous tabular>
          {formatAprBps(disclosure.aprBps)}
        </DisclosureCell>
        <DisclosureCell term="Finance charge" words="The dollar amount the credit will cost you." conspicuous>
          <MoneyAmount cents={disclosure.financeChargeCents} />
        </DisclosureCell>
        <DisclosureCell term="Amount financed" words="The amount of credit provided to you.">
          <MoneyAmount cents={disclosure.amountFinancedCents} />
        </DisclosureCell>
        <DisclosureCell term="Total of payments" words="What you will have paid after making all payments as scheduled.">
          <MoneyAmount cents={disclosure.totalOfPaymentsCents} />
        </DisclosureCell>
      </dl>
      {paymentSummary ? <p className="disclosure__schedule">{paymentSummary}</p> : null}
    </section>
  );
}
