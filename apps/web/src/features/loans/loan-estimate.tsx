import { estimateLoan, levelPaymentCents, loanAprTiersBps } from '@strongroom/contracts/loans.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { formatAprBps, formatMonths } from './loan-format.ts';
import { loanFormSchema } from './loan-form-schema.ts';

/** The typed text as the form's schema reads it, or undefined while it is not (yet) a valid value. */
function valid<T>(parse: () => { success: true; data: T } | { success: false }): T | undefined {
  const result = parse();
  return result.success ? result.data : undefined;
}

/**
 * Before the application is sent (Reg Z wants the cost known before the customer is bound): the
 * bank's rate range and an example monthly payment for the amount and term typed, in integer cents by
 * the same amortisation as the offer's schedule (contracts/loans.ts). An estimate, said to be one:
 * the offer states the exact terms, to accept or decline.
 */
export function LoanEstimate({ amount, durationMonths, annualIncome }: { amount: string; durationMonths: string; annualIncome: string }) {
  const amountCents = valid(() => loanFormSchema.shape.amount.safeParse(amount));
  const months = valid(() => loanFormSchema.shape.durationMonths.safeParse(durationMonths));
  const incomeCents = valid(() => loanFormSchema.shape.annualIncome.safeParse(annualIncome));
  const range = { minAprBps: loanAprTiersBps.lowest, maxAprBps: loanAprTiersBps.highest };
  const example =
    amountCents !== undefined && months !== undefined && incomeCents !== undefined ? estimateLoan(BigInt(amountCents), BigInt(incomeCents), months) : undefined;
  return (
    <section className="loan-estimate" aria-labelledby="loan-estimate-title" aria-live="polite">
      <h3 id="loan-estimate-title" className="loan-estimate__title">
        Estimate
      </h3>
      {amountCents === undefined || months === undefined ? (
        <p>
          Our rates are {formatAprBps(range.minAprBps)} to {formatAprBps(range.maxAprBps)} APR. Enter an amount and a duration to see an example monthly
          payment.
        </p>
      ) : (
        <>
          <p>
            Our rates are {formatAprBps(range.minAprBps)} to {formatAprBps(range.maxAprBps)} APR. For {formatMoney(amountCents)} over {formatMonths(months)}{' '}
            that is about{' '}
            <strong className="tabular">
              {formatMoney(levelPaymentCents(BigInt(amountCents), range.minAprBps, months))} to{' '}
              {formatMoney(levelPaymentCents(BigInt(amountCents), range.maxAprBps, months))}
            </strong>{' '}
            a month.
          </p>
          {example ? (
            <p>
              With the income you entered, our usual rate would be {formatAprBps(example.exampleAprBps)}: about{' '}
              <strong className="tabular">{formatMoney(example.exampleMonthlyPaymentCents)}</strong> a month.
            </p>
          ) : null}
        </>
      )}
      <p className="loan-estimate__note">
        This is an estimate, not an offer. If we approve your application, we send you an offer with the exact rate, payment, schedule and total cost; nothing
        is paid until you accept it.
      </p>
    </section>
  );
}
