import type { Disclosure } from '@strongroom/contracts/loans.ts';
import { MoneyAmount } from '../../components/ui/money-amount.tsx';
import { formatAprBps } from './loan-format.ts';

interface DisclosureBoxProps {
  disclosure: Disclosure;
  /** The number of payments and the first one's size and date, for the line under the box. */
  paymentSummary?: string;
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
        <div className="disclosure__cell disclosure__cell--key">
          <dt>Annual percentage rate</dt>
          <dd className="disclosure__figure tabular">{formatAprBps(disclosure.aprBps)}</dd>
          <dd className="disclosure__words">The cost of your credit as a yearly rate.</dd>
        </div>
        <div className="disclosure__cell disclosure__cell--key">
          <dt>Finance charge</dt>
          <dd className="disclosure__figure">
            <MoneyAmount cents={disclosure.financeChargeCents} />
          </dd>
          <dd className="disclosure__words">The dollar amount the credit will cost you.</dd>
        </div>
        <div className="disclosure__cell">
          <dt>Amount financed</dt>
          <dd className="disclosure__figure">
            <MoneyAmount cents={disclosure.amountFinancedCents} />
          </dd>
          <dd className="disclosure__words">The amount of credit provided to you.</dd>
        </div>
        <div className="disclosure__cell">
          <dt>Total of payments</dt>
          <dd className="disclosure__figure">
            <MoneyAmount cents={disclosure.totalOfPaymentsCents} />
          </dd>
          <dd className="disclosure__words">What you will have paid after making all payments as scheduled.</dd>
        </div>
      </dl>
      {paymentSummary ? <p className="disclosure__schedule">{paymentSummary}</p> : null}
    </section>
  );
}
